import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { startStack, type Stack } from './stack.js';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack({ trades: 20 });
});
test.afterAll(async () => stack?.stop());

test('home page loads, installable: manifest with icons and an active service worker', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const shell = await page.goto(stack.baseUrl + '/');
  await expect(page.getByRole('heading', { name: 'Wallet trade history' })).toBeVisible();
  await expect(page.locator('[data-ready="true"]')).toBeVisible();
  // The shell's security headers; the page runs under its policy (no error above or below).
  const csp = shell!.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("connect-src 'self' https: http:");
  expect(csp).toContain("object-src 'none'");
  expect(shell!.headers()['x-content-type-options']).toBe('nosniff');

  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const manifest = await (await page.request.get(stack.baseUrl + href)).json();
  expect(manifest).toMatchObject({ display: 'standalone', start_url: '/' });
  const sizes = manifest.icons.map((i: { sizes: string }) => i.sizes);
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of manifest.icons) {
    const r = await page.request.get(stack.baseUrl + icon.src);
    expect(r.status()).toBe(200);
    expect(r.headers()['content-type']).toContain('image/png');
    const [w, h] = icon.sizes.split('x').map(Number);
    const b = await r.body();
    // PNG IHDR: width and height at bytes 16-23.
    expect([b.readUInt32BE(16), b.readUInt32BE(20)]).toEqual([w, h]);
  }

  // ready resolves once a worker is active, which may still be 'activating': wait for 'activated'.
  const sw = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    const w = reg.active!;
    if (w.state !== 'activated') await new Promise((r) => w.addEventListener('statechange', () => w.state === 'activated' && r(null)));
    return { state: w.state, scope: reg.scope };
  });
  expect(sw.state).toBe('activated');
  expect(sw.scope).toBe(stack.baseUrl + '/');
  // The chain picker is filled from /v1/chains.
  await expect(page.getByTestId('chain').locator('option')).not.toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the address field validates as you type with the server validators', async ({ page }) => {
  await page.goto(stack.baseUrl + '/');
  await expect(page.locator('[data-ready="true"]')).toBeVisible();
  await page.getByTestId('address').fill('not-an-address');
  await expect(page.getByTestId('address-error')).toBeVisible();
  await expect(page.getByTestId('load')).toBeDisabled();
  await page.getByTestId('address').fill(stack.wallet);
  await expect(page.getByTestId('address-error')).toHaveCount(0);
  await expect(page.getByTestId('load')).toBeEnabled();
  await page.getByTestId('chain').selectOption('eth');
  await expect(page.getByTestId('address-error')).toBeVisible();
});

test('home screenshots at desktop and phone widths, light and dark', async ({ page }) => {
  mkdirSync('tests/screenshots', { recursive: true });
  await page.goto(stack.baseUrl + '/');
  await expect(page.locator('[data-ready="true"]')).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    // The palettes differ: light #f6f7f9, dark #0b1220.
    expect(bg).toBe(scheme === 'light' ? 'rgb(246, 247, 249)' : 'rgb(11, 18, 32)');
    for (const [name, width, height] of [
      ['desktop', 1280, 800],
      ['phone', 390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      // Nothing wider than the screen at phone width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `tests/screenshots/home-${name}-${scheme}.png` });
    }
  }
});
