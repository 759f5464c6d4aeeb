/**
 * Dashboard benchmark in headless Chromium against the BUILT app (`npm run build` first):
 *  - ingestTradesPerSec: trades the worker parses and stores into IndexedDB per second, over a
 *    100,000-trade NDJSON stream (served by Playwright routing, so the server and the chain are
 *    not what is measured);
 *  - firstRowMs: from the worker storing the first batch to its first row painted on the page;
 *  - p95FrameMs: 95th percentile frame time while scrolling the 100,000-row table;
 *  - domRows: most table rows in the DOM during that scroll.
 * Targets (issue 5): >= 20,000 trades/s, <= 100 ms, <= 33 ms, bounded.
 * Run: npx tsx tests/bench/dashboard.ts
 */
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { serializeTrade, type Trade } from '../../src/lib/core/trade.js';
import { API_KEY, startStack } from '../e2e/stack.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium.js';

export interface DashboardBench {
  ingestTradesPerSec: number;
  firstRowMs: number;
  p95FrameMs: number;
  medianFrameMs: number;
  domRows: number;
  trades: number;
}

/** 100,000 trades over 50 tokens and 4 venues, 18-decimal amounts, in batch lines of 500 (a server batch size). */
export function syntheticStream(n: number, wallet: string, perLine = 500): string {
  const dexes = ['pumpfun', 'raydium-amm', 'jupiter', 'orca-whirlpool'];
  const lines: string[] = [];
  const t0 = Date.UTC(2025, 0, 1);
  let batch: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % 50;
    const t: Trade = {
      signature: `bench${String(n - i).padStart(8, '0')}${'x'.repeat(75)}`,
      side: i % 3 === 0 ? 'sell' : 'buy',
      token: `TOK${k}`,
      tokenMint: `Mint${k}${'1'.repeat(38)}`,
      amountSol: `${(i % 97) + 1}.${String(i).padStart(9, '0')}000000001`,
      amount: `${1000 + (i % 1013)}.123456`,
      dex: dexes[i % 4],
      blockTime: new Date(t0 + (n - i) * 1000).toISOString().replace('.000Z', 'Z'),
    };
    batch.push(serializeTrade(t));
    if (batch.length === perLine || i === n - 1) {
      lines.push(`{"trades":[${batch.join(',')}],"cursor":"bench-${i + 1}"}`);
      batch = [];
    }
  }
  lines.push(JSON.stringify({ complete: true, tradeCount: n, wallet, firstTrade: new Date(t0 + 1000).toISOString() }));
  return lines.join('\n') + '\n';
}

export async function benchDashboard(trades = 100_000): Promise<DashboardBench> {
  const stack = await startStack({ trades: 10 });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    // No service worker: routing must see the worker's fetch.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
    // tsx (esbuild keepNames) wraps named functions in __name(); evaluated code runs in the page without it.
    await context.addInitScript('globalThis.__name = (f) => f;');
    const body = syntheticStream(trades, stack.wallet);
    await context.route('**/v1/wallets/**', (route) => route.fulfill({ status: 200, headers: { 'content-type': 'application/x-ndjson' }, body }));
    const page = await context.newPage();
    await page.goto(stack.baseUrl + '/');
    await page.locator('[data-ready="true"]').waitFor();
    await page.getByRole('button', { name: 'Set API key' }).click();
    await page.locator('#key').fill(API_KEY);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('address').fill(stack.wallet);

    // The first row's paint: a MutationObserver sees it inserted, the next frame is when it shows.
    await page.evaluate(() => {
      const w = window as unknown as { __firstRowPaintedAt?: number };
      const obs = new MutationObserver(() => {
        if (document.querySelector('[data-testid="trade-row"]')) {
          obs.disconnect();
          requestAnimationFrame(() => requestAnimationFrame(() => (w.__firstRowPaintedAt = Date.now())));
        }
      });
      obs.observe(document.body, { childList: true, subtree: true });
    });
    await page.getByTestId('load').click();
    await page.locator('[data-testid="status"][data-status="complete"]').waitFor({ timeout: 600_000 });

    const id = `sol:${stack.wallet}`;
    const load = await page.evaluate(
      (key) =>
        new Promise<{ tradeCount: number; startedAt: number; updatedAt: number; firstBatchAt: number }>((resolve, reject) => {
          const open = indexedDB.open('wallet-history');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const g = open.result.transaction('loads').objectStore('loads').get(key);
            g.onsuccess = () => resolve(g.result);
          };
        }),
      id,
    );
    if (load.tradeCount !== trades) throw new Error(`stored ${load.tradeCount} of ${trades}`);
    const painted = await page.evaluate(() => (window as unknown as { __firstRowPaintedAt?: number }).__firstRowPaintedAt ?? 0);

    // Let the completion work settle (the PnL of 100,000 trades is computed once loading stops,
    // its chart after the figures), then measure scrolling alone. Scrolling while it computes is
    // what dashboard-pnl.ts measures.
    await page.locator('[data-testid="pnl-stats"]').waitFor({ timeout: 120_000 });
    await page.locator('figure.chart svg').waitFor({ timeout: 120_000 });
    await page.waitForTimeout(500);
    if (process.env.BENCH_LOAF) {
      await page.evaluate(() => {
        const w = window as unknown as { __loaf: unknown[] };
        w.__loaf = [];
        new PerformanceObserver((l) => {
          for (const e of l.getEntries() as any[])
            w.__loaf.push({
              d: Math.round(e.duration),
              render: Math.round(e.startTime + e.duration - e.renderStart),
              style: Math.round(e.startTime + e.duration - e.styleAndLayoutStart),
              scripts: e.scripts.map((x: any) => `${x.invoker}:${Math.round(x.duration)}`).join(' '),
            });
        }).observe({ type: 'long-animation-frame', buffered: false });
      });
    }
    // Scroll the table 300 frames, 400 px a frame (10 rows), recording frame times and DOM rows.
    const scroll = await page.getByTestId('trade-viewport').evaluate(
      (el, stepPx) =>
        new Promise<{ frames: number[]; domRows: number }>((resolve) => {
          const frames: number[] = [];
          let domRows = 0;
          let last = performance.now();
          let i = 0;
          let pos = 0;
          const step = (now: number) => {
            frames.push(now - last);
            last = now;
            // Written, never read back: reading scrollTop here would force a layout inside the
            // measuring callback itself.
            pos += stepPx;
            el.scrollTop = pos;
            if (i % 10 === 0) domRows = Math.max(domRows, el.querySelectorAll('[data-testid="trade-row"]').length);
            if (++i < 300) requestAnimationFrame(step);
            else resolve({ frames: frames.slice(1), domRows });
          };
          requestAnimationFrame(step);
        }),
      Number(process.env.BENCH_SCROLL_PX ?? 400),
    );
    if (process.env.BENCH_LOAF) console.log(JSON.stringify(await page.evaluate(() => (window as any).__loaf)));
    const sorted = [...scroll.frames].sort((a, b) => a - b);
    const p95 = sorted[Math.floor(sorted.length * 0.95)];
    return {
      ingestTradesPerSec: Math.round((trades * 1000) / Math.max(1, load.updatedAt - load.startedAt)),
      firstRowMs: painted - load.firstBatchAt,
      p95FrameMs: Math.round(p95 * 10) / 10,
      medianFrameMs: Math.round(sorted[Math.floor(sorted.length / 2)] * 10) / 10,
      domRows: scroll.domRows,
      trades,
    };
  } finally {
    await browser.close();
    await stack.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchDashboard(Number(process.env.BENCH_TRADES ?? 100_000)).then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
