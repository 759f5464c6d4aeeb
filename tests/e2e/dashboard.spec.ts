import { readFileSync, mkdirSync } from 'node:fs';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { Trade } from '../../src/lib/core/trade.js';
import { tradesToCsv } from '../../src/lib/dashboard/csv.js';
import { apiHistory, countStored, loadDirect, readLoad, setApiKey, shownCount } from './helpers.js';
import { startStack, type Stack } from './stack.js';

// 1,500 trades behind a replay RPC that answers each request after 40 ms: a load of a few
// seconds, long enough to watch batches land and to reload in the middle.
const TRADES = 1500;
const SHOTS = 'tests/screenshots';

let stack: Stack;
let context: BrowserContext;
let page: Page;
let id: string;
let expected: Trade[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  stack = await startStack({ trades: TRADES, latencyMs: 40 });
  id = `sol:${stack.wallet}`;
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await context?.close();
  await stack?.stop();
});

test('paste a wallet, rows arrive batch by batch, a reload mid-load resumes without re-fetching', async () => {
  await page.goto(stack.baseUrl + '/');
  await expect(page.locator('[data-ready="true"]')).toBeVisible();
  await setApiKey(page);
  // The third signature page (and any after it) waits until released: the server's walk is still
  // going when the page reloads, whatever the machine's speed (an idle CI machine once finished
  // the whole load between the two partial counts and the reload).
  let pages = 0;
  stack.replay.config.holdWhen = (calls) => calls.some((c) => c.method === 'getSignaturesForAddress' && c.params[1]?.before) && ++pages > 1;
  await page.getByTestId('address').fill(stack.wallet);
  await page.getByTestId('load').click();
  await expect(page.getByTestId('wallet')).toBeVisible();

  // Watch the count grow: at least two distinct partial counts before the reload.
  const seen = new Set<number>();
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    const n = await shownCount(page);
    if (n > 0) seen.add(n);
    if (seen.size >= 2) break;
    await page.waitForTimeout(25);
  }
  expect(seen.size).toBeGreaterThanOrEqual(2);
  const before = await readLoad(page, id);
  expect(before?.status).toBe('loading');
  expect(await page.getByTestId('trade-row').count()).toBeGreaterThan(0);

  // Every history request the worker makes after the reload, and the trades the server sent it
  // (routed through Playwright, which can read a worker's response where a listener cannot).
  const resumed: Array<{ url: string; trades: number }> = [];
  await context.route('**/v1/wallets/**', async (route) => {
    const res = await route.fetch();
    const body = await res.text();
    resumed.push({ url: route.request().url(), trades: (body.match(/"signature"/g) ?? []).length });
    await route.fulfill({ response: res, body });
  });
  await page.reload();
  await expect(page.getByTestId('wallet')).toBeVisible();
  // The stored rows are there at once, before any new batch.
  await expect.poll(() => shownCount(page)).toBeGreaterThanOrEqual(before!.tradeCount);
  expect(stack.replay.heldCount).toBeGreaterThan(0);
  stack.replay.config.holdWhen = undefined;
  stack.replay.releaseHeld();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });

  expected = await apiHistory(stack.baseUrl, stack.wallet);
  expect(expected.length).toBeGreaterThan(0);
  const load = await readLoad(page, id);
  expect(load).toMatchObject({ status: 'complete', tradeCount: expected.length, serverTradeCount: expected.length });
  // Across both loads the client received each trade once: nothing stored was fetched again.
  expect(load!.received).toBe(expected.length);
  expect(await countStored(page, id)).toBe(expected.length);
  expect(await shownCount(page)).toBe(expected.length);
  await context.unroute('**/v1/wallets/**');
  // After the reload the walk went on from the stored cursor, never from the top, and the server
  // sent at most what was not stored when the page went away.
  expect(resumed.length).toBeGreaterThan(0);
  for (const r of resumed) expect(new URL(r.url).searchParams.get('cursor')).toBeTruthy();
  const sentAfter = resumed.reduce((a, r) => a + r.trades, 0);
  expect(sentAfter).toBeGreaterThan(0);
  expect(sentAfter).toBeLessThanOrEqual(expected.length - before!.tradeCount);
});

test('the built server decoded those batches in its worker thread', async () => {
  // The worker's file is found in the build (not only from source); a fallback to the main
  // thread would say so instead.
  const logs = stack.logs.join('');
  expect(logs).toContain('Decoding in 1 worker thread(s).');
  expect(logs).not.toContain('could not start');
});

test('the table stays virtualised, filters by side and links to the explorer', async () => {
  const rows = page.getByTestId('trade-row');
  const domRows = await rows.count();
  expect(domRows).toBeGreaterThan(5);
  expect(domRows).toBeLessThanOrEqual(60);
  const href = await rows.first().locator('a').getAttribute('href');
  expect(href).toBe(`https://solscan.io/tx/${expected[0].signature}`);

  await page.getByTestId('side-sell').click();
  const sells = expected.filter((t) => t.side === 'sell').length;
  await expect(page.getByText(`${sells.toLocaleString('en-US')} shown`)).toBeVisible();
  for (const side of await rows.locator('.side').allTextContents()) expect(side).toBe('sell');
  await page.getByTestId('side-all').click();

  // Scrolling far down renders the rows there and keeps the DOM bounded.
  await page.getByTestId('trade-viewport').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(rows.last()).toContainText(expected[expected.length - 1].signature.slice(-5));
  expect(await rows.count()).toBeLessThanOrEqual(60);
  await page.getByTestId('trade-viewport').evaluate((el) => (el.scrollTop = 0));
});

test('CSV download equals the stored trades', async () => {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  const file = await download.path();
  const csv = readFileSync(file!, 'utf8');
  expect(csv).toBe(tradesToCsv(expected));
});

test('screenshots at desktop and phone widths, light and dark', async () => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: `${SHOTS}/wallet-desktop-${scheme}.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/wallet-phone-${scheme}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
});

test('offline: a reload opens the stored wallet from the cached app shell', async () => {
  await page.evaluate(async () => {
    const w = (await navigator.serviceWorker.ready).active!;
    if (w.state !== 'activated') await new Promise((r) => w.addEventListener('statechange', () => w.state === 'activated' && r(null)));
  });
  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByTestId('wallet')).toBeVisible();
    await expect(page.getByTestId('offline')).toBeVisible();
    await expect.poll(() => shownCount(page)).toBe(expected.length);
    await expect(page.getByTestId('trade-row').first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/wallet-offline-desktop-light.png` });
  } finally {
    await context.setOffline(false);
  }
  // The app shell is cached; the API never is.
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const k of await caches.keys()) for (const r of await (await caches.open(k)).keys()) urls.push(new URL(r.url).pathname);
    return urls;
  });
  expect(cached).toContain('/');
  expect(cached.some((u) => u.includes('/_app/immutable/workers/loader.worker'))).toBe(true);
  expect(cached.filter((u) => u.startsWith('/v1'))).toEqual([]);
});

test('refresh reads from the top and stops at the first stored trade', async () => {
  await page.reload();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'complete');
  const before = (await readLoad(page, id))!;
  // New trades happen on chain after the wallet was loaded.
  await stack.addNewerTrades(30);
  await page.waitForTimeout(1500);
  await page.getByTestId('refresh').click();
  await expect.poll(async () => (await readLoad(page, id))?.status).toBe('complete');
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'complete');
  const now = await apiHistory(stack.baseUrl, stack.wallet);
  const added = now.length - expected.length;
  expect(added).toBeGreaterThan(0);
  expect(now.slice(added)).toEqual(expected);
  expected = now;
  const load = (await readLoad(page, id))!;
  expect(load.tradeCount).toBe(now.length);
  expect(await countStored(page, id)).toBe(now.length);
  // It stopped at the first stored trade: only the new trades were stored, once. What it received
  // is the new trades plus the rest of the line that held the old head; the server sends a stored
  // history as one line (1,530 trades here), so that is at most one pass over the history.
  expect(load.tradeCount - before.tradeCount).toBe(added);
  expect(load.received - before.received).toBeGreaterThanOrEqual(added);
  expect(load.received - before.received).toBeLessThanOrEqual(now.length);
  await expect.poll(() => shownCount(page)).toBe(now.length);
  // The new trades are on top, in the API's order, and the export still equals the store.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  expect(readFileSync((await download.path())!, 'utf8')).toBe(tradesToCsv(now));
});

test('direct-from-RPC mode fills the table with the same trades the API returns', async ({ browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const p = await ctx.newPage();
    await loadDirect(p, stack.baseUrl, stack.browserRpcUrl, stack.wallet);
    expect(await shownCount(p)).toBe(expected.length);
    const [download] = await Promise.all([p.waitForEvent('download'), p.getByTestId('export').click()]);
    expect(readFileSync((await download.path())!, 'utf8')).toBe(tradesToCsv(expected));
  } finally {
    await ctx.close();
  }
});

test('a recent wallet can be deleted from this browser', async () => {
  await page.getByRole('button', { name: `Delete ${stack.wallet} from this browser` }).click();
  await expect(page.getByTestId('wallet')).toHaveCount(0);
  await expect(page.getByTestId('recent')).toHaveCount(0);
  expect(await countStored(page, id)).toBe(0);
  expect(await readLoad(page, id)).toBeNull();
});
