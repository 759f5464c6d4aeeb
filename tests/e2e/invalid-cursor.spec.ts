import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { tradesToCsv } from '../../src/lib/dashboard/csv.js';
import { apiHistory, countStored, readLoad, setApiKey, shownCount } from './helpers.js';
import { startStack, type Stack } from './stack.js';

let stack: Stack;
test.beforeAll(async () => {
  // 2,000 trades: more than one signatures page of 1,000, so the walk can be frozen after its
  // first page (a timer-based slowdown let a busy CI machine finish the load before the click).
  stack = await startStack({ trades: 2000, latencyMs: 10, seed: 23 });
});
test.afterAll(async () => stack?.stop());

test('a cursor the server refuses after a secret rotation restarts the walk without duplicating rows', async ({ page }) => {
  const id = `sol:${stack.wallet}`;
  await page.goto(stack.baseUrl + '/');
  await expect(page.locator('[data-ready="true"]')).toBeVisible();
  await setApiKey(page);
  await page.getByTestId('address').fill(stack.wallet);
  // Every signatures page after the first waits until released: the load is still going when the
  // first rows show, whatever the machine's speed.
  stack.replay.config.holdWhen = (calls) => calls.some((c) => c.method === 'getSignaturesForAddress' && c.params[1]?.before);
  await page.getByTestId('load').click();
  await expect.poll(() => shownCount(page), { timeout: 60_000 }).toBeGreaterThan(0);
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'loading');
  await page.getByTestId('pause').click();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'paused');
  expect(stack.replay.heldCount).toBeGreaterThan(0);
  stack.replay.config.holdWhen = undefined;
  stack.replay.releaseHeld();
  const paused = (await readLoad(page, id))!;
  expect(paused.tradeCount).toBeGreaterThan(0);

  // The operator rotates CURSOR_SECRET: the stored cursor now fails its MAC (400 invalid_cursor).
  await stack.restartWithCursorSecret('a-new-secret-fedcba9876543210');
  await page.getByTestId('resume').click();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });

  const expected = await apiHistory(stack.baseUrl, stack.wallet);
  const load = (await readLoad(page, id))!;
  expect(paused.tradeCount).toBeLessThan(expected.length);
  expect(load).toMatchObject({ status: 'complete', restarts: 1, tradeCount: expected.length });
  expect(await countStored(page, id)).toBe(expected.length);
  expect(await shownCount(page)).toBe(expected.length);
  // Every trade once, in the API's order.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  expect(readFileSync((await download.path())!, 'utf8')).toBe(tradesToCsv(expected));
});
