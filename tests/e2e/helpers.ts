import { expect, type Page } from '@playwright/test';
import type { Trade } from '../../src/lib/core/trade.js';
import { parseStreamLine } from '../../src/lib/dashboard/ndjson.js';
import { API_KEY } from './stack.js';

/** The whole history from the API (or the rest of it below `from`, a cursor), exact amounts, in API order (what the dashboard must store). */
export async function apiHistory(baseUrl: string, wallet: string, chain = 'sol', from: string | null = null): Promise<Trade[]> {
  const out: Trade[] = [];
  let cursor: string | null = from;
  for (;;) {
    const q = new URLSearchParams({ chain });
    if (cursor) q.set('cursor', cursor);
    const r = await fetch(`${baseUrl}/v1/wallets/${wallet}/history?${q}`, { headers: { authorization: `Bearer ${API_KEY}` } });
    if (!r.ok) throw new Error(`history ${r.status}: ${await r.text()}`);
    let done = false;
    for (const raw of (await r.text()).split('\n')) {
      if (!raw.trim()) continue;
      const l = parseStreamLine(raw);
      if (l.kind === 'batch') out.push(...l.trades);
      else if (l.complete) done = true;
      else cursor = l.cursor ?? cursor;
    }
    if (done) return out;
  }
}

export interface StoredLoad {
  status: string;
  tradeCount: number;
  received: number;
  serverTradeCount: number | null;
  restarts: number;
}

/** The worker's load row, read straight from IndexedDB. */
export function readLoad(page: Page, id: string): Promise<StoredLoad | null> {
  return page.evaluate(
    (key) =>
      new Promise<StoredLoad | null>((resolve, reject) => {
        const open = indexedDB.open('wallet-history');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('loads')) return resolve(null);
          const g = db.transaction('loads').objectStore('loads').get(key);
          g.onsuccess = () => {
            db.close();
            resolve((g.result as StoredLoad) ?? null);
          };
          g.onerror = () => reject(g.error);
        };
      }),
    id,
  );
}

/** Number of trades stored for a wallet (batch records, see db.ts). */
export function countStored(page: Page, id: string): Promise<number> {
  return page.evaluate(
    (key) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('wallet-history');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const g = db
            .transaction('batches')
            .objectStore('batches')
            .getAll(IDBKeyRange.bound([key, ''], [key, '\uffff']));
          g.onsuccess = () => {
            db.close();
            resolve((g.result as Array<{ trades: unknown[] }>).reduce((n, b) => n + b.trades.length, 0));
          };
          g.onerror = () => reject(g.error);
        };
      }),
    id,
  );
}

export async function shownCount(page: Page): Promise<number> {
  const t = (await page.getByTestId('trade-count').textContent()) ?? '0';
  return Number(t.replace(/,/g, ''));
}

export async function setApiKey(page: Page, key = API_KEY): Promise<void> {
  await page.getByRole('button', { name: /API key/ }).click();
  await page.locator('#key').fill(key);
  await page.getByRole('button', { name: 'Save' }).click();
  if (key === API_KEY) await page.getByRole('button', { name: 'API key ✓' }).waitFor();
}

/** Opens the dashboard and loads `wallet` straight from the chain RPC at `rpcUrl` (direct mode), until complete. */
export async function loadDirect(page: Page, baseUrl: string, rpcUrl: string, wallet: string, timeout = 120_000): Promise<void> {
  await page.goto(baseUrl + '/');
  await expect(page.locator('[data-ready="true"]')).toBeVisible();
  await page.getByLabel('Directly from a chain RPC').check();
  await page.getByTestId('rpc-url').fill(rpcUrl);
  await page.getByTestId('address').fill(wallet);
  await page.getByTestId('load').click();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'complete', { timeout });
}
