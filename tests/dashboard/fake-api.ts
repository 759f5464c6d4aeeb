/** A fake /v1 history stream for loader tests: trades newest first, cursors `c:<index>`. */
import { afterEach, beforeEach } from 'vitest';
import type { Trade } from '../../src/lib/core/trade.js';
import { serializeTrade } from '../../src/lib/core/trade.js';
import { DashboardDb } from '../../src/lib/dashboard/db.js';
import { WalletLoader, type LoaderDeps } from '../../src/lib/dashboard/loader.js';

export function makeTrades(n: number, prefix = 'sig'): Trade[] {
  const out: Trade[] = [];
  for (let i = 0; i < n; i++) {
    out.push({
      signature: `${prefix}${n - i}`,
      side: i % 3 === 0 ? 'sell' : 'buy',
      token: `TK${i % 4}`,
      tokenMint: `mint${i % 4}`,
      amountSol: `${i}.000000000000000001`,
      amount: `${1000 + i}.123456789012345678`,
      dex: i % 2 ? 'pumpfun' : 'raydium-amm',
      blockTime: new Date(Date.UTC(2025, 0, 1) + (n - i) * 60_000).toISOString().replace('.000Z', 'Z'),
    });
  }
  return out;
}

export interface FakeApi {
  fetch: typeof fetch;
  /** The history the server serves, newest first; tests may prepend new trades. */
  trades: Trade[];
  /** Trades sent over all calls. */
  sent: number;
  calls: string[];
  /** Cursors with this prefix are refused with invalid_cursor (a rotated secret). */
  refusePrefix: string | null;
  cursorPrefix: string;
  /**
   * The wallet's decoder version on the server (null: a server that keeps none), said in the
   * `x-decoder-version` header, the final line, or both (`versionIn`).
   */
  decoderVersion: number | null;
  versionIn: 'header' | 'final' | 'both';
  /** Requests of the unexplained list (answered empty: this history lists none), apart from `calls`. */
  listCalls: number;
}

export function fakeApi(trades: Trade[], options: { batch?: number; perCall?: number } = {}): FakeApi {
  const batch = options.batch ?? 10;
  const api: FakeApi = {
    trades,
    sent: 0,
    calls: [],
    refusePrefix: null,
    cursorPrefix: 'c',
    decoderVersion: null,
    versionIn: 'both',
    listCalls: 0,
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://x');
      if (url.pathname.endsWith('/unexplained')) {
        api.listCalls++;
        return Response.json({ wallet: 'W', complete: true, unexplainedCount: 0, pageSize: 1000, unexplained: [] });
      }
      api.calls.push(url.pathname + url.search);
      if (new Headers(init?.headers).get('authorization') !== 'Bearer k1') {
        return new Response(JSON.stringify({ code: 'unauthorized', title: 'Unauthorized' }), {
          status: 401,
          headers: { 'content-type': 'application/problem+json' },
        });
      }
      const cursor = url.searchParams.get('cursor');
      let start = 0;
      if (cursor) {
        const [p, n] = cursor.split(':');
        if (p === api.refusePrefix || p !== api.cursorPrefix) {
          return new Response(JSON.stringify({ code: 'invalid_cursor', title: 'Invalid cursor' }), {
            status: 400,
            headers: { 'content-type': 'application/problem+json' },
          });
        }
        start = Number(n);
      }
      const perCall = options.perCall ?? Infinity;
      const all = api.trades;
      const lines: string[] = [];
      let i = start;
      let sentThisCall = 0;
      while (i < all.length && sentThisCall < perCall) {
        const chunk = all.slice(i, Math.min(i + batch, all.length, i + perCall - sentThisCall));
        i += chunk.length;
        sentThisCall += chunk.length;
        lines.push(`{"trades":[${chunk.map(serializeTrade).join(',')}],"cursor":"${api.cursorPrefix}:${i}"}`);
      }
      const complete = i >= all.length;
      const last = all[all.length - 1];
      lines.push(
        JSON.stringify({
          complete,
          tradeCount: complete ? all.length : i,
          wallet: 'W',
          firstTrade: last?.blockTime ?? null,
          ...(complete ? {} : { cursor: `${api.cursorPrefix}:${i}` }),
          ...(api.decoderVersion !== null && api.versionIn !== 'header' ? { decoderVersion: api.decoderVersion } : {}),
        }),
      );
      const enc = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const l = lines.shift();
          if (l === undefined) return controller.close();
          // Count what actually leaves, as a server would meter it.
          const m = /^\{"trades":\[/.test(l) ? (l.match(/"signature"/g) ?? []).length : 0;
          api.sent += m;
          // Split inside the line too, so the reader's line assembly is exercised.
          const bytes = enc.encode(l + '\n');
          const half = bytes.length >> 1;
          controller.enqueue(bytes.slice(0, half));
          controller.enqueue(bytes.slice(half));
          await new Promise((r) => setTimeout(r, 0));
        },
      });
      const headers: Record<string, string> = { 'content-type': 'application/x-ndjson' };
      if (api.decoderVersion !== null && api.versionIn !== 'final') headers['x-decoder-version'] = String(api.decoderVersion);
      return new Response(body, { headers });
    },
  };
  return api;
}

/** A fresh IndexedDB store per test (fake-indexeddb), opened before each test and closed after it; `use` is given each. */
export function freshDbEachTest(prefix: string, use: (db: DashboardDb) => void): void {
  let seq = 0;
  let db: DashboardDb;
  beforeEach(async () => {
    db = new DashboardDb(`${prefix}-${++seq}`);
    await db.open();
    use(db);
  });
  afterEach(() => db.close());
}

/** A loader of `db` over a fake API, retrying after 5 ms. */
export function apiLoader(db: DashboardDb, api: FakeApi, extra: Partial<LoaderDeps> = {}): WalletLoader {
  return new WalletLoader({ db, api: () => ({ baseUrl: 'http://x', apiKey: 'k1', fetch: api.fetch }), retryDelayMs: 5, ...extra });
}
