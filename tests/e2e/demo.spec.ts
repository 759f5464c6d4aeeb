import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, test, type Page } from '@playwright/test';
import { quoteAmountLiterals } from '../../src/lib/core/amount-literals.js';
import { fromScaled, toScaled } from '../../src/lib/core/exact.js';
import { computePnl, type PnlTrade } from '../../src/lib/pnl/pnl-engine.js';
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
  // Files a snippet writes (the tax export's -o) land in a scratch folder, not in the checkout.
  const scratch = mkdtempSync(join(tmpdir(), 'wth-readme-'));
  for (const commands of snippets) {
    // One shell for the paragraph; a newline after each command's output, so each stands on its lines.
    const script = pointSnippet(commands.join('\necho\n') + '\necho', info.url, walletOf, { eth: 'anvil' });
    const r = spawnSync('bash', ['-o', 'pipefail', '-e', '-c', script], {
      env: { ...process.env, KEY: info.key, CURSOR: page.cursor },
      cwd: scratch,
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
  rmSync(scratch, { recursive: true, force: true });
});

/** A wallet's whole history from the API with its USD values (pages of 1,000), delivery order, amounts exact. */
const histories = new Map<string, PnlTrade[]>();
async function history(w: DemoInfo['wallets'][number]): Promise<PnlTrade[]> {
  const known = histories.get(w.address);
  if (known) return known;
  const trades: PnlTrade[] = [];
  for (let cursor: string | null = null; ;) {
    const q = new URLSearchParams({ chain: w.chain, limit: '1000', include: 'usd', ...(cursor && { cursor }) });
    const r = await fetch(`${info.url}/v1/wallets/${w.address}/history?${q}`, { headers: { authorization: `Bearer ${info.key}` } });
    const page = JSON.parse(quoteAmountLiterals(await r.text())) as { trades: PnlTrade[]; cursor?: string | null };
    trades.push(...page.trades);
    if (!page.cursor || !page.trades.length) break;
    cursor = page.cursor;
  }
  histories.set(w.address, trades);
  return trades;
}

/**
 * The PnL the dashboard must show: the engine over the API's trades, oldest transaction first
 * with each transaction's legs in leg order (a leg-0 buy and leg-1 sell of one token stay so).
 */
async function expectedPnl(w: DemoInfo['wallets'][number], method: 'average' | 'fifo') {
  const groups: PnlTrade[][] = [];
  for (const t of await history(w)) {
    const last = groups[groups.length - 1];
    if (last && last[0].signature === t.signature) last.push(t);
    else groups.push([t]);
  }
  return computePnl(groups.reverse().flat(), method);
}

/**
 * Rows an export must have: one per trade, but a token-to-token swap's sell and buy (legs of one
 * transaction with no native amount) are one row together.
 */
async function exportRows(w: DemoInfo['wallets'][number]): Promise<number> {
  const legs = new Map<string, { sells: number; buys: number }>();
  const trades = await history(w);
  for (const t of trades) {
    if (t.amountSol !== null) continue;
    const l = legs.get(t.signature) ?? { sells: 0, buys: 0 };
    l[t.side === 'sell' ? 'sells' : 'buys']++;
    legs.set(t.signature, l);
  }
  let pairs = 0;
  for (const l of legs.values()) pairs += Math.min(l.sells, l.buys);
  return trades.length - pairs;
}

/** Each format's header, as its tool documents its import columns (docs/export-formats.md). */
const HEADERS: Record<string, string> = {
  csv: 'date,type,sent_amount,sent_currency,sent_token,received_amount,received_currency,received_token,value_usd,dex,signature,note',
  koinly:
    'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
  cointracker: 'Date,Received Quantity,Received Currency,Sent Quantity,Sent Currency,Fee Amount,Fee Currency,Tag',
  cointracking: 'Type,Buy Amount,Buy Currency,Sell Amount,Sell Currency,Fee,Fee Currency,Exchange,Trade-Group,Comment,Date,Tx-ID',
};

async function download(p: Page, button: ReturnType<Page['getByTestId']>): Promise<{ name: string; lines: string[] }> {
  const [d] = await Promise.all([p.waitForEvent('download'), button.click()]);
  const text = readFileSync((await d.path())!, 'utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  return { name: d.suggestedFilename(), lines: text.slice(0, -2).split('\r\n') };
}

test('a portfolio of the Solana, Tron and EVM wallets: the engine’s figures over the API’s trades by either method, a label, exports in every format, and offline after a reload', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const p = await ctx.newPage();
    await p.goto(info.url + '/');
    await expect(p.locator('[data-ready="true"]')).toBeVisible();
    await p.getByRole('button', { name: /API key/ }).click();
    await p.locator('#key').fill(info.key);
    await p.getByRole('button', { name: 'Save' }).click();
    for (const w of info.wallets) {
      await p.getByTestId('chain').selectOption(w.chain);
      await p.getByTestId('address').fill(w.address);
      await p.getByTestId('load').click();
      await expect(p.getByTestId('status')).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });
      await expect(p.getByTestId('pnl-stats')).toBeVisible();
    }
    const [sol, tron, evm] = info.wallets;

    // A label, given in the wallet view: shown there, in the recent list and used in file names.
    await p
      .getByTestId('recent')
      .filter({ hasText: sol.address.slice(0, 5) })
      .click();
    await p.getByTestId('label-edit').click();
    await p.getByTestId('label-input').fill('Main SOL');
    await p.getByTestId('label-save').click();
    await expect(p.getByTestId('wallet-label')).toHaveText('Main SOL');
    await expect(p.getByTestId('recent-label')).toHaveText('Main SOL');

    // A token's lots: one entry per counted trade of its mint, the open lots below.
    const token = p.getByTestId('token-row').first();
    const mint = (await token.getAttribute('data-mint'))!;
    await token.getByTestId('lots-toggle').click();
    const counted = (await history(sol)).filter((t) => t.tokenMint === mint && t.amount !== null && toScaled(t.amount) > 0n).length;
    await expect(p.getByTestId('lot-entry')).toHaveCount(Math.min(counted, 100));
    await expect(p.getByTestId('open-lots')).toBeVisible();

    // Every format from the wallet view: its documented header, one row per exchange.
    const solRows = await exportRows(sol);
    for (const format of Object.keys(HEADERS)) {
      const file = await download(p, p.getByTestId(`export-${format}`));
      expect(file.name).toBe(`Main-SOL-sol-${format}.csv`);
      expect(file.lines[0], format).toBe(HEADERS[format]);
      expect(file.lines.length - 1, format).toBe(solRows);
    }

    await p.getByTestId('portfolio-tab').click();
    const portfolio = p.getByTestId('portfolio');
    await expect(p.getByTestId('portfolio-row')).toHaveCount(3);
    await expect(p.getByTestId('portfolio-label')).toHaveText('Main SOL');
    const row = (w: DemoInfo['wallets'][number]) => p.locator(`[data-testid="portfolio-row"][data-wallet="${w.chain}:${w.address}"]`);

    // By each method, each wallet's realized PnL (native and USD) is the engine's over the API's
    // trades, and the portfolio's USD is their exact sum; native figures stay per chain. (The
    // demo's Solana wallet has transactions that buy and sell one token: leg order counts.)
    let fifoUsd = '';
    for (const method of ['fifo', 'average'] as const) {
      await p.getByTestId(`method-${method}`).click();
      await expect(portfolio).toHaveAttribute('data-method', method);
      let usd = 0n;
      for (const w of info.wallets) {
        const s = await expectedPnl(w, method);
        await expect(row(w).getByTestId('portfolio-wallet-realized'), `${w.chain} ${method}`).toHaveAttribute('title', s.realized);
        await expect(row(w).getByTestId('portfolio-wallet-usd'), `${w.chain} ${method}`).toHaveAttribute('title', s.realizedUsd);
        await expect(p.locator(`[data-testid="portfolio-chain"][data-chain="${w.chain}"] strong`)).toHaveAttribute('title', s.realized);
        usd += toScaled(s.realizedUsd);
      }
      await expect(p.getByTestId('portfolio-realized-usd')).toHaveAttribute('title', fromScaled(usd));
      if (method === 'fifo') fifoUsd = fromScaled(usd);
    }

    // One wallet out: the sums are the other two's.
    await row(tron).getByTestId('portfolio-include').uncheck();
    const [a, b] = await Promise.all([expectedPnl(sol, 'average'), expectedPnl(evm, 'average')]);
    await expect(p.getByTestId('portfolio-realized-usd')).toHaveAttribute('title', fromScaled(toScaled(a.realizedUsd) + toScaled(b.realizedUsd)));
    await expect(p.locator('[data-testid="portfolio-chain"][data-chain="tron"]')).toHaveCount(0);
    await expect(row(tron)).toContainText('not in the portfolio');
    await row(tron).getByTestId('portfolio-include').check();

    // An export from the portfolio's line of each wallet.
    for (const w of [tron, evm]) {
      const file = await download(p, row(w).getByTestId('export-koinly'));
      expect(file.name).toBe(`${w.address.slice(0, 6)}-${w.address.slice(-4)}-${w.chain}-koinly.csv`);
      expect(file.lines[0]).toBe(HEADERS.koinly);
      expect(file.lines.length - 1, w.chain).toBe(await exportRows(w));
    }

    // FIFO chosen, then the page reloaded offline: the portfolio opens again from the stored trades, by FIFO.
    await p.getByTestId('method-fifo').click();
    await expect(portfolio).toHaveAttribute('data-method', 'fifo');
    await p.evaluate(async () => {
      const w = (await navigator.serviceWorker.ready).active!;
      if (w.state !== 'activated') await new Promise((r) => w.addEventListener('statechange', () => w.state === 'activated' && r(null)));
    });
    await ctx.setOffline(true);
    await p.reload();
    await expect(p.getByTestId('offline')).toBeVisible();
    await expect(portfolio).toHaveAttribute('data-method', 'fifo');
    await expect(p.getByTestId('portfolio-realized-usd')).toHaveAttribute('title', fifoUsd);
    await expect(p.getByTestId('portfolio-label')).toHaveText('Main SOL');
    await p.setViewportSize({ width: 390, height: 844 });
    expect(await overflowing(p), 'portfolio at 390 px').toEqual([]);
    await p.screenshot({ path: test.info().outputPath('portfolio-offline-390.png'), fullPage: true });
  } finally {
    await ctx.setOffline(false);
    await ctx.close();
  }
});
