import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { serializeTrade, type Trade } from '../../src/lib/core/trade.js';
import { tradesToCsv } from '../../src/lib/dashboard/csv.js';
import { buildTronReplayWorld, startTronReplayServer, type TronReplayServer, type TronReplayWorld } from '../support/tron-replay/index.js';
import { hideVenueEvents } from '../support/tron-replay/venue-unseen.js';
import { apiHistory, setApiKey, shownCount } from './helpers.js';
import { corsProxy, startAppServer, type AppServer } from './stack.js';

/**
 * A Tron wallet in the dashboard, both ways: through this server's API (which reads the TronGrid
 * replay), and straight from the replay in the browser's worker. Both must give the hand-checked
 * trades of the synthesised wallet. Some of its swaps went through a venue the decoder cannot read
 * (venue-unseen.ts): both ways list exactly those as not recognised, also offline.
 */
let world: TronReplayWorld;
let replay: TronReplayServer;
let proxy: { url: string; close(): Promise<void> };
let app: AppServer;
let truth: Trade[];
let hidden: ReturnType<typeof hideVenueEvents>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  world = buildTronReplayWorld({ trades: 60, seed: 21 });
  hidden = hideVenueEvents(world, 2);
  expect(hidden.size).toBeGreaterThanOrEqual(3);
  truth = world.synth.expected.filter((t) => !hidden.has(t.signature)).map(({ block: _b, leg: _l, ...t }) => t);
  replay = await startTronReplayServer({ ...world, latencyMs: 1 });
  proxy = await corsProxy(replay.url);
  app = await startAppServer({ RPC_URL_TRON: replay.url, DECODE_THREADS: '1' });
});

test.afterAll(async () => {
  await app?.stop();
  await proxy?.close();
  await replay?.close();
});

async function loadAndExport(p: Page, direct: boolean): Promise<string> {
  await p.goto(app.baseUrl + '/');
  await expect(p.locator('[data-ready="true"]')).toBeVisible();
  if (!direct) await setApiKey(p);
  await p.getByTestId('chain').selectOption('tron');
  if (direct) {
    await p.getByLabel('Directly from a chain RPC').check();
    await p.getByTestId('rpc-url').fill(proxy.url);
  }
  await p.getByTestId('address').fill(world.synth.wallet);
  await p.getByTestId('load').click();
  await expect(p.getByTestId('status')).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  expect(await shownCount(p)).toBe(truth.length);
  await expectNotRecognised(p);
  const [download] = await Promise.all([p.waitForEvent('download'), p.getByTestId('export').click()]);
  return readFileSync((await download.path())!, 'utf8');
}

/** The badge says how many swaps were not recognised; the list shows each with its changes, contracts and explorer link. */
async function expectNotRecognised(p: Page): Promise<void> {
  const n = hidden.size;
  await expect(p.getByTestId('unexplained-badge')).toHaveText(`${n} transactions not recognised`);
  await p.getByTestId('unexplained-badge').click();
  const rows = p.getByTestId('unexplained-row');
  await expect(rows).toHaveCount(n);
  const hrefs = await rows.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(hrefs.sort()).toEqual([...hidden.keys()].map((sig) => `https://tronscan.org/#/transaction/${sig}`).sort());
  // Each row: the TRX given (red) and the token received, its symbol as the trade named it; a contract touched.
  for (const [sig, trades] of hidden) {
    const row = rows.filter({ has: p.locator(`a[href$="${sig}"]`) });
    await expect(row.locator('.change.neg')).toContainText('TRX');
    for (const t of trades) await expect(row.locator('.change.pos', { hasText: t.token })).toHaveAttribute('title', `${t.amount} ${t.tokenMint}`);
    await expect(row.locator('.programs code').first()).toHaveAttribute('title', /^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  }
}

test('a Tron wallet loads the same rows through the API and straight from TronGrid', async ({ browser }) => {
  const api = await apiHistory(app.baseUrl, world.synth.wallet, 'tron');
  expect(api.map(serializeTrade)).toEqual(truth.map(serializeTrade));
  for (const direct of [false, true]) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    try {
      const p = await ctx.newPage();
      expect(await loadAndExport(p, direct), direct ? 'direct' : 'api').toBe(tradesToCsv(truth));
      // Offline, from the cached app shell: the list is in IndexedDB with the trades.
      await p.evaluate(async () => {
        const w = (await navigator.serviceWorker.ready).active!;
        if (w.state !== 'activated') await new Promise((r) => w.addEventListener('statechange', () => w.state === 'activated' && r(null)));
      });
      await ctx.setOffline(true);
      await p.reload();
      await expect(p.getByTestId('offline')).toBeVisible();
      await expectNotRecognised(p);
      await ctx.setOffline(false);
    } finally {
      await ctx.close();
    }
  }
  expect(replay.stats.notFound).toBe(0);
});

test('a wrong key says so in the header, as the load says the 401; the right one shows as accepted', async ({ browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const p = await ctx.newPage();
    await p.goto(app.baseUrl + '/');
    await expect(p.locator('[data-ready="true"]')).toBeVisible();
    await setApiKey(p, 'not-a-key-of-this-server');
    await expect(p.getByRole('button', { name: 'API key refused' })).toBeVisible();
    await p.getByTestId('chain').selectOption('tron');
    await p.getByTestId('address').fill(world.synth.wallet);
    await p.getByTestId('load').click();
    await expect(p.getByTestId('status')).toHaveAttribute('data-status', 'error');
    await setApiKey(p);
    await expect(p.getByRole('button', { name: 'API key ✓' })).toBeVisible();
    // The wallet's stored 401 came from the earlier key: reopened, it says nothing of this one.
    await p.reload();
    await expect(p.getByTestId('status')).toHaveAttribute('data-status', 'error');
    await expect(p.getByRole('button', { name: 'API key ✓' })).toBeVisible();
    await p.waitForTimeout(300);
    await expect(p.getByRole('button', { name: 'API key ✓' })).toBeVisible();
  } finally {
    await ctx.close();
  }
});

test('direct mode tells an RPC without CORS headers apart from a dead port, and says what to configure', async ({ browser }) => {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const dead = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
  await new Promise<void>((r) => probe.close(() => r()));
  for (const [rpc, says] of [
    [replay.url, /answers, but not to this page: it sends no CORS header/],
    [dead, /could not be reached: nothing answers at that address/],
  ] as const) {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const p = await ctx.newPage();
      await p.goto(app.baseUrl + '/');
      await expect(p.locator('[data-ready="true"]')).toBeVisible();
      await p.getByTestId('chain').selectOption('tron');
      await p.getByLabel('Directly from a chain RPC').check();
      await p.getByTestId('rpc-url').fill(rpc);
      await p.getByTestId('address').fill(world.synth.wallet);
      await p.getByTestId('load').click();
      await expect(p.getByTestId('status')).toHaveAttribute('data-status', 'error', { timeout: 60_000 });
      await expect(p.getByTestId('status')).toContainText(says);
      // The reason wraps on a phone instead of running off the screen.
      expect(await p.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    } finally {
      await ctx.close();
    }
  }
});
