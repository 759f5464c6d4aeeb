import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { serializeTrade } from '../../src/lib/core/trade.js';
import { tradesToCsv } from '../../src/lib/dashboard/csv.js';
import { reverseByTransaction } from '../../src/lib/dashboard/pnl.js';
import { exportCsv } from '../../src/lib/pnl/export-csv.js';
import { computePnl } from '../../src/lib/pnl/pnl-engine.js';
import { asTrade, buildScenario, type Scenario } from '../support/anvil/scenario.js';
import { apiHistory, setApiKey, shownCount } from './helpers.js';
import { startAppServer, type AppServer } from './stack.js';

/**
 * An EVM chain the server knows only from EVM_CHAINS_FILE (devnet2, a local anvil with Uniswap):
 * the API serves its ground truth, and the browser, decoding straight from anvil with the settings
 * /v1/chains gives it, fills the table with the same trades.
 */
let scenario: Scenario;
let app: AppServer;
let dir: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  scenario = await buildScenario({ chainId: 31338, rounds: 2, gapBlocks: 30, clusterSize: 1, erc4337: false });
  dir = mkdtempSync(join(tmpdir(), 'wth-e2e-evm-'));
  const file = join(dir, 'chains.json');
  writeFileSync(file, JSON.stringify([scenario.chainsFileEntry('devnet2')]));
  app = await startAppServer({ EVM_CHAINS_FILE: file });
});

test.afterAll(async () => {
  await app?.stop();
  await scenario?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('direct-from-RPC mode on an EVM chain added by configuration matches the API and the ground truth', async ({ page }) => {
  const truth = scenario.groundTruth.map(asTrade);
  const api = await apiHistory(app.baseUrl, scenario.wallet, 'devnet2');
  expect(api.map(serializeTrade)).toEqual(truth.map(serializeTrade));

  await page.goto(app.baseUrl + '/');
  await expect(page.locator('[data-ready="true"]')).toBeVisible();
  await setApiKey(page);
  await page.getByTestId('chain').selectOption('devnet2');
  await page.getByLabel('Directly from a chain RPC').check();
  await page.getByTestId('rpc-url').fill(scenario.rpcUrl);
  await page.getByTestId('address').fill(scenario.wallet);
  await page.getByTestId('load').click();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });
  expect(await shownCount(page)).toBe(truth.length);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  expect(readFileSync((await download.path())!, 'utf8')).toBe(tradesToCsv(api));

  // The portfolio from what direct mode stored: the engine's figures over the ground truth (oldest
  // first, legs in order) by either method, and a tax export of the same trades.
  await page.getByTestId('portfolio-tab').click();
  const row = page.getByTestId('portfolio-row');
  await expect(row).toHaveCount(1);
  const oldestFirst = reverseByTransaction(truth);
  for (const method of ['fifo', 'average'] as const) {
    await page.getByTestId(`method-${method}`).click();
    await expect(page.getByTestId('portfolio')).toHaveAttribute('data-method', method);
    await expect(row.getByTestId('portfolio-wallet-realized'), method).toHaveAttribute('title', computePnl(oldestFirst, method).realized);
  }
  const [koinly] = await Promise.all([page.waitForEvent('download'), row.getByTestId('export-koinly').click()]);
  const expected = exportCsv(oldestFirst, { format: 'koinly', chain: 'devnet2', wallet: scenario.wallet.toLowerCase(), nativeSymbol: 'ETH' });
  expect(readFileSync((await koinly.path())!, 'utf8')).toBe(expected);
});
