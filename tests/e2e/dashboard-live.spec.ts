import { readFileSync } from 'node:fs';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { tradesToCsv } from '../../src/lib/dashboard/csv.js';
import { apiHistory, loadDirect, setApiKey, shownCount } from './helpers.js';
import { API_KEY, startStack, type Stack } from './stack.js';
import { ndjsonLines } from '../support/ndjson-lines.js';

// The dashboard's Live toggle (issue 24) over the built server and the Solana replay: trades added
// to the replay while the page follows the wallet slide into the table once each, without a reload,
// and Live resumes after a reload and after the network comes back. Under Node 22+ the server's
// Solana stage hears of them by logsSubscribe (measured 390-570 ms to the table); under Node 20 it
// has no WebSocket client and its 10 s safety poll finds them (about 10 s), as direct mode's does
// (the CORS proxy in front of the replay forwards no WebSocket upgrade).
const TRADES = 200;

let stack: Stack;
let context: BrowserContext;
let page: Page;
let seed = 300;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  stack = await startStack({ trades: TRADES });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
});

test.afterAll(async () => {
  await context?.close();
  await stack?.stop();
});

/** The page's stored trades (Trades CSV) equal the API's history: every trade once, in order. */
async function expectSameAsApi(p: Page): Promise<void> {
  const expected = await apiHistory(stack.baseUrl, stack.wallet);
  await expect.poll(() => shownCount(p)).toBe(expected.length);
  const [download] = await Promise.all([p.waitForEvent('download'), p.getByTestId('export').click()]);
  expect(readFileSync((await download.path())!, 'utf8')).toBe(tradesToCsv(expected));
}

/**
 * Opens a follow stream from the top: `historyDone` resolves once its history part is through (its
 * final line), `liveAt` with when (Date.now) its first live line with trades came.
 */
function liveLineTime(): { historyDone: Promise<void>; liveAt: Promise<number> } {
  let historyDone!: () => void;
  const history = new Promise<void>((r) => (historyDone = r));
  const liveAt = (async () => {
    const res = await fetch(`${stack.baseUrl}/v1/wallets/${stack.wallet}/history?chain=sol&follow=true`, {
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    for await (const line of ndjsonLines(res)) {
      if (line.includes('"complete":true')) historyDone();
      if (line.includes('"live":true') && !line.startsWith('{"trades":[]')) return Date.now();
    }
    throw new Error('follow stream ended');
  })();
  return { historyDone: history, liveAt };
}

/** Adds newer trades to the replay; resolves with how long the page took to show more trades than `before` (ms). */
async function addAndSee(p: Page, n: number, timeout = 25_000): Promise<number> {
  const before = await shownCount(p);
  const t0 = Date.now();
  await stack.addNewerTrades(n, ++seed);
  await expect.poll(() => shownCount(p), { timeout, intervals: [50] }).toBeGreaterThan(before);
  const ms = Date.now() - t0;
  console.log(`live: ${n} new trades shown after ${ms} ms`);
  return ms;
}

test('API mode: Live on, trades added to the chain slide into the table once each, without a reload', async () => {
  await page.goto(stack.baseUrl + '/');
  await expect(page.locator('[data-ready="true"]')).toBeVisible();
  await setApiKey(page);
  await page.getByTestId('address').fill(stack.wallet);
  await page.getByTestId('load').click();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
  await page.getByTestId('live-toggle').check();
  await expect(page.getByTestId('live')).toHaveAttribute('data-state', 'live', { timeout: 15_000 });
  await expect(page.getByTestId('live-status')).toContainText(/last checked \d\d:\d\d:\d\d/);

  // A follow stream of the test's own beside the page's: the page's part of the latency is the
  // time from the server's live line to the row shown.
  const follow = liveLineTime();
  // The test's stream is through its history part before the trades are added.
  await follow.historyDone;
  const added = Date.now();
  const ms = await addAndSee(page, 3);
  const served = (await follow.liveAt) - added;
  console.log(`live: the server's live line came ${served} ms after the trades were added; the page showed them ${ms - served} ms after that`);
  test.info().annotations.push({ type: 'live trade shown after (API mode)', description: `${ms} ms` });
  // The new rows are highlighted as they arrive.
  await expect(page.locator('[data-testid="trade-row"].fresh').first()).toBeVisible();
  await expectSameAsApi(page);
  // A second arrival on the same stream.
  await addAndSee(page, 2);
  await expectSameAsApi(page);
});

test('a reload resumes Live from the stored cursor: the next trades arrive, none repeated', async () => {
  await page.reload();
  await expect(page.getByTestId('live-toggle')).toBeChecked();
  // Resumed from a cursor the server sends its first line when there is something new or at the
  // 15 s keep-alive: until then the indicator says connecting, and the stream is open.
  await expect(page.getByTestId('live')).toHaveAttribute('data-state', /connecting|live/);
  const ms = await addAndSee(page, 2);
  test.info().annotations.push({ type: 'live trade shown after a reload', description: `${ms} ms` });
  await expectSameAsApi(page);
});

test('offline then online: a trade added meanwhile arrives once the network is back', async () => {
  await context.setOffline(true);
  await expect(page.getByTestId('live')).toHaveAttribute('data-state', 'offline');
  await expect(page.getByTestId('live-status')).toContainText('offline, will resume');
  const before = await shownCount(page);
  await stack.addNewerTrades(2, ++seed);
  // Nothing reaches the page while it is offline.
  await page.waitForTimeout(2000);
  expect(await shownCount(page)).toBe(before);
  await context.setOffline(false);
  await expect.poll(() => shownCount(page), { timeout: 25_000 }).toBeGreaterThan(before);
  await expect(page.getByTestId('live')).toHaveAttribute('data-state', 'live');
  await expectSameAsApi(page);
});

test('direct mode: Live runs the chain source’s realtime stage in the worker, and new trades slide in', async ({ browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const p = await ctx.newPage();
    await loadDirect(p, stack.baseUrl, stack.browserRpcUrl, stack.wallet);
    await p.getByTestId('live-toggle').check();
    await expect(p.getByTestId('live')).toHaveAttribute('data-state', 'live', { timeout: 15_000 });
    // The CORS proxy in front of the replay forwards no WebSocket upgrade: the stage's 10 s poll finds them.
    const ms = await addAndSee(p, 2, 30_000);
    test.info().annotations.push({ type: 'live trade shown after (direct mode, poll)', description: `${ms} ms` });
    await expectSameAsApi(p);
  } finally {
    await ctx.close();
  }
});
