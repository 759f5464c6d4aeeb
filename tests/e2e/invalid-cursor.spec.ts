import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { tradesToCsv } from '../../src/lib/dashboard/csv.js';
import { apiHistory, countStored, readLoad, setApiKey, shownCount } from './helpers.js';
import { startStack, type Stack } from './stack.js';

let stack: Stack;
test.beforeAll(async () => {
  // 40 ms per RPC answer: the first load takes a few seconds, time enough to pause it.
  stack = await startStack({ trades: 1200, latencyMs: 40, seed: 23 });
});
test.afterAll(async () => stack?.stop());

test('a cursor the server refuses after a secret rotation restarts the walk without duplicating rows', async ({ page }) => {
  const id = `sol:${stack.wallet}`;
  await page.goto(stack.baseUrl + '/');
  await expect(page.locator('[data-ready="true"]')).toBeVisible();
  await setApiKey(page);
  await page.getByTestId('address').fill(stack.wallet);
  await page.getByTestId('load').click();
  await expect.poll(() => shownCount(page), { timeout: 60_000 }).toBeGreaterThan(0);
  await page.getByTestId('pause').click();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'paused');
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
