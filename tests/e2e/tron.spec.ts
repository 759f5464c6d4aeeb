import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { serializeTrade, type Trade } from '../../src/lib/core/trade.js';
import { tradesToCsv } from '../../src/lib/dashboard/csv.js';
import { buildTronReplayWorld, startTronReplayServer, type TronReplayServer, type TronReplayWorld } from '../support/tron-replay/index.js';
import { apiHistory, setApiKey, shownCount } from './helpers.js';
import { corsProxy, startAppServer, type AppServer } from './stack.js';

/**
 * A Tron wallet in the dashboard, both ways: through this server's API (which reads the TronGrid
 * replay), and straight from the replay in the browser's worker. Both must give the hand-checked
 * trades of the synthesised wallet.
 */
let world: TronReplayWorld;
let replay: TronReplayServer;
let proxy: { url: string; close(): Promise<void> };
let app: AppServer;
let truth: Trade[];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  world = buildTronReplayWorld({ trades: 60, seed: 21 });
  truth = world.synth.expected.map(({ block: _b, leg: _l, ...t }) => t);
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
  const [download] = await Promise.all([p.waitForEvent('download'), p.getByTestId('export').click()]);
  return readFileSync((await download.path())!, 'utf8');
}

test('a Tron wallet loads the same rows through the API and straight from TronGrid', async ({ browser }) => {
  const api = await apiHistory(app.baseUrl, world.synth.wallet, 'tron');
  expect(api.map(serializeTrade)).toEqual(truth.map(serializeTrade));
  for (const direct of [false, true]) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    try {
      expect(await loadAndExport(await ctx.newPage(), direct), direct ? 'direct' : 'api').toBe(tradesToCsv(truth));
    } finally {
      await ctx.close();
    }
  }
  expect(replay.stats.notFound).toBe(0);
});
