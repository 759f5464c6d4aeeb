import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { expect, test, type Page } from '@playwright/test';
import { freePort } from '../support/free-port.js';
import { pointSnippet, readmeApiSnippets } from '../support/readme-snippets.js';
import { shownCount } from './helpers.js';

/**
 * `npm run demo` as a new user runs it (issue 21): the replays of real Solana and Tron data, anvil
 * with Uniswap and the built server come up with one command; a wallet of each family loads in
 * the dashboard with the key it printed; at 1280 and 390 px, light and dark, no amount is cut and
 * nothing overflows the page (screenshots kept with the test's results); Ctrl-C stops it all.
 */
interface DemoInfo {
  url: string;
  key: string;
  wallets: { chain: string; address: string; trades: number; notRecognised?: number; directRpc: string }[];
}
let demo: ChildProcess;
let info: DemoInfo;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const port = await freePort();
  demo = spawn(process.execPath, ['--import', 'tsx', 'tests/support/demo.ts', '--port', String(port), '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  demo.stderr!.on('data', (d) => logs.push(String(d)));
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: demo.stdout! }).once('line', resolve);
    demo.once('exit', (code) => reject(new Error(`the demo exited (${code}):\n${logs.join('')}`)));
  });
  info = JSON.parse(first) as DemoInfo;
});

test.afterAll(async () => {
  if (!demo || demo.exitCode !== null) return;
  const exited = new Promise<number | null>((r) => demo.once('exit', (code) => r(code)));
  demo.kill('SIGINT');
  expect(await exited).toBe(0);
});

async function load(p: Page, w: DemoInfo['wallets'][number]): Promise<void> {
  await p.goto(info.url + '/');
  await expect(p.locator('[data-ready="true"]')).toBeVisible();
  await p.getByRole('button', { name: /API key/ }).click();
  await p.locator('#key').fill(info.key);
  await p.getByRole('button', { name: 'Save' }).click();
  await expect(p.getByRole('button', { name: 'API key ✓' })).toBeVisible();
  await p.getByTestId('chain').selectOption(w.chain);
  await p.getByTestId('address').fill(w.address);
  await p.getByTestId('load').click();
  await expect(p.getByTestId('status')).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });
  expect(await shownCount(p)).toBe(w.trades);
}

/** Elements whose content is wider than their box: the page itself, and every amount shown. */
function overflowing(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const out: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) out.push(`page: ${root.scrollWidth} > ${root.clientWidth}`);
    const amounts = document.querySelectorAll<HTMLElement>(
      '[data-testid="trade-row"] .num, .stat strong, .tokens td.num, [data-testid="unexplained-row"] .change',
    );
    for (const el of amounts) {
      if (el.offsetParent === null) continue; // not displayed at this width
      if (el.scrollWidth > el.clientWidth) out.push(`${el.className}: "${el.textContent}" ${el.scrollWidth} > ${el.clientWidth}`);
    }
    return out;
  });
}

test('the demo comes up with one command and serves a wallet of each family, laid out whole at 1280 and 390 px, light and dark', async ({ browser }) => {
  test.setTimeout(300_000);
  expect(info.wallets.map((w) => w.chain)).toEqual(['sol', 'tron', 'anvil']);
  for (const w of info.wallets) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const p = await ctx.newPage();
      await load(p, w);
      // USD values from the demo's feeds: the newest trade has one, and its hover names the price used.
      const usd = p.getByTestId('trade-usd').first();
      await expect(usd).toHaveText(/^\$\d/);
      await expect(usd).toHaveAttribute('title', /^\$[\d.]+; (SOL|TRX|ETH) at \$[\d.]+ \(/);
      if (w.notRecognised) {
        await expect(p.getByTestId('unexplained-badge')).toHaveText(`${w.notRecognised} transactions not recognised`);
        await p.getByTestId('unexplained-badge').click();
      }
      for (const width of [1280, 390]) {
        await p.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        for (const scheme of ['light', 'dark'] as const) {
          await p.emulateMedia({ colorScheme: scheme });
          await expect(p.getByTestId('trade-row').first()).toBeVisible();
          expect(await overflowing(p), `${w.chain} at ${width} px, ${scheme}`).toEqual([]);
          await p.screenshot({ path: test.info().outputPath(`${w.chain}-${width}-${scheme}.png`), fullPage: true });
        }
      }
      // The chart's axis (every demo wallet sold something): grouped digits, never exponents, zero marked.
      const ticks = await p.getByTestId('y-tick').allTextContents();
      expect(ticks.length, w.chain).toBeGreaterThanOrEqual(4);
      expect(ticks.length).toBeLessThanOrEqual(6);
      expect(ticks).toContain('0');
      for (const t of ticks) expect(t).toMatch(/^-?\d{1,3}(,\d{3})*(\.\d+)?$/);
    } finally {
      await ctx.close();
    }
  }
});

test("the README's shell snippets run as written against the demo and give what they promise", async () => {
  const walletOf = Object.fromEntries(info.wallets.map((w) => [w.chain, w.address]));
  const sol = info.wallets.find((w) => w.chain === 'sol')!;
  // A cursor to resume from, as the README's resume example expects in $CURSOR.
  const page = await (await fetch(`${info.url}/v1/wallets/${sol.address}/history?limit=10`, { headers: { authorization: `Bearer ${info.key}` } })).json();
  const snippets = readmeApiSnippets();
  expect(snippets.length).toBeGreaterThanOrEqual(7);
  for (const commands of snippets) {
    // One shell for the paragraph; a newline after each command's output, so each stands on its lines.
    const script = pointSnippet(commands.join('\necho\n') + '\necho', info.url, walletOf, { eth: 'anvil' });
    const r = spawnSync('bash', ['-o', 'pipefail', '-e', '-c', script], {
      env: { ...process.env, KEY: info.key, CURSOR: page.cursor },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, `${script}\n${r.stderr}`).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l.trim());
    expect(lines.length, script).toBeGreaterThan(0);
    // Each line is JSON: a stream line, a jq -c line, a whole answer (each command's output ends its line).
    const parses = (t: string) => {
      try {
        JSON.parse(t);
        return true;
      } catch {
        return false;
      }
    };
    expect(lines.every(parses), script).toBe(true);
    for (const l of lines) if (parses(l)) expect(JSON.parse(l).code, `${script}: ${l}`).toBeUndefined();
    // The page walk prints every trade of the wallet, once: as many lines as trades, none twice.
    if (script.includes('while :')) {
      expect(lines.length).toBe(sol.trades);
      expect(new Set(lines).size).toBe(lines.length);
    }
  }
});
