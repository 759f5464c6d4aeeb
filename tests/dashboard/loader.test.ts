import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ChainSource, HistoryBatch } from '../../src/lib/core/chain-source.js';
import type { SourceTrade } from '../../src/lib/core/trade.js';
import { countTrades, DashboardDb, fingerprint, stripRow, tradesNewestFirst, walletId } from '../../src/lib/dashboard/db.js';
import { WalletLoader, type LoaderDeps } from '../../src/lib/dashboard/loader.js';
import { fakeApi, makeTrades, type FakeApi, freshDbEachTest, apiLoader } from './fake-api.js';

let db: DashboardDb;
freshDbEachTest('test', (d) => (db = d));
const ID = walletId('sol', 'W');
const REQ = { chain: 'sol', address: 'W', mode: 'api' as const };

const loader = (api: FakeApi, extra: Partial<LoaderDeps> = {}) => apiLoader(db, api, extra);

async function stored(): Promise<string[]> {
  return (await tradesNewestFirst(db, ID)).map((r) => r.signature);
}

describe('WalletLoader, API mode', () => {
  it('stores the whole stream in API order with exact amounts', async () => {
    const trades = makeTrades(95);
    const api = fakeApi(trades, { batch: 10 });
    const row = await loader(api).load(REQ);
    expect(row.status).toBe('complete');
    expect(row.tradeCount).toBe(95);
    expect(row.serverTradeCount).toBe(95);
    const rows = await tradesNewestFirst(db, ID);
    expect(rows.map(stripRow)).toEqual(trades);
    expect(rows[5].amountSol).toBe('5.000000000000000001');
  });

  it('keeps the person’s label and portfolio choice when the wallet is loaded again', async () => {
    const api = fakeApi(makeTrades(5));
    await loader(api).load(REQ);
    await db.wallets.update(ID, { label: 'Main', inPortfolio: false });
    // A refresh writes the wallet row again (its openedAt): the label and the choice stay.
    await loader(api).load({ ...REQ, refresh: true });
    expect(await db.wallets.get(ID)).toMatchObject({ id: ID, label: 'Main', inPortfolio: false });
  });

  it('sends the Bearer key and reports a refused key as an error with its code', async () => {
    const api = fakeApi(makeTrades(3));
    const l = new WalletLoader({ db, api: () => ({ baseUrl: 'http://x', apiKey: 'bad', fetch: api.fetch }) });
    const row = await l.load(REQ);
    expect(row).toMatchObject({ status: 'error', errorCode: 'unauthorized' });
  });

  it('resumes after a pause (a reload) from the stored cursor without fetching stored trades again', async () => {
    const trades = makeTrades(200);
    const api = fakeApi(trades, { batch: 20 });
    // Paused as the first batch is stored: what a reload in the middle of a load leaves.
    const first: WalletLoader = loader(api, {
      onProgress: (r) => {
        if (r.tradeCount > 0) void first.pause(ID);
      },
    });
    const paused = await first.load(REQ);
    expect(paused.status).toBe('paused');
    expect(paused.tradeCount).toBeGreaterThan(0);
    expect(paused.tradeCount).toBeLessThan(200);
    // A new loader over the same database is what a reloaded tab runs.
    const done = await loader(api).load(REQ);
    expect(done.status).toBe('complete');
    expect(await stored()).toEqual(trades.map((t) => t.signature));
    // Every trade was received once: the second load asked only for what the first left unread.
    // (The fake server may have one batch of 20 in flight when the first load stopped.)
    expect(done.received).toBe(200);
    expect(api.sent).toBeLessThanOrEqual(200 + 20);
    expect(api.calls[api.calls.length - 1]).toContain('cursor=c%3A');
  });

  it('resumes interrupted loads at start', async () => {
    const api = fakeApi(makeTrades(50), { batch: 10 });
    const first: WalletLoader = loader(api, { onProgress: (r) => void (r.tradeCount >= 20 && first.pause(ID)) });
    await first.load(REQ);
    // A closed tab leaves the status at loading.
    await db.loads.update(ID, { status: 'loading' });
    const second = loader(api);
    expect(await second.resumeInterrupted()).toEqual([ID]);
    const row = await second.load(REQ);
    expect(row).toMatchObject({ status: 'complete', tradeCount: 50 });
  });

  it('follows complete:false with the final cursor until the history is complete', async () => {
    const api = fakeApi(makeTrades(45), { batch: 10, perCall: 20 });
    const row = await loader(api).load(REQ);
    expect(row).toMatchObject({ status: 'complete', tradeCount: 45 });
    expect(api.calls.length).toBe(3);
    expect(await stored()).toHaveLength(45);
  });

  it('refresh reads from the top and stops at the first stored trade', async () => {
    const trades = makeTrades(30);
    const api = fakeApi(trades, { batch: 7 });
    await loader(api).load(REQ);
    const fresh = makeTrades(12, 'new');
    api.trades = [...fresh, ...trades];
    const before = api.sent;
    const row = await loader(api).load({ ...REQ, refresh: true });
    expect(row).toMatchObject({ status: 'complete', tradeCount: 42 });
    expect(await stored()).toEqual(api.trades.map((t) => t.signature));
    // It stopped in the batch that met the old head: 12 new, the rest of that batch of 7 and
    // at most one batch in flight.
    expect(api.sent - before).toBeLessThanOrEqual(14 + 7);
    expect(row.headFp).toBe(fingerprint(fresh[0]));
    // A second refresh finds nothing new and stores nothing.
    api.trades = [...makeTrades(3, 'newer'), ...api.trades];
    const again = await loader(api).load({ ...REQ, refresh: true });
    expect(again.tradeCount).toBe(45);
    expect(await stored()).toEqual(api.trades.map((t) => t.signature));
  });

  it('restarts on invalid_cursor without duplicating stored rows', async () => {
    const trades = makeTrades(80);
    const api = fakeApi(trades, { batch: 10 });
    const first: WalletLoader = loader(api, { onProgress: (r) => void (r.tradeCount >= 30 && first.pause(ID)) });
    await first.load(REQ);
    const kept = (await stored()).length;
    expect(kept).toBeGreaterThanOrEqual(30);
    // The server's cursor secret rotated: old cursors are refused, new ones have another prefix.
    api.refusePrefix = 'c';
    api.cursorPrefix = 'd';
    const row = await loader(api).load(REQ);
    expect(row).toMatchObject({ status: 'complete', tradeCount: 80, restarts: 1 });
    expect(await stored()).toEqual(trades.map((t) => t.signature));
    expect(await countTrades(db, ID)).toBe(80);
  });

  it('cancel stops and forgets the stored trades', async () => {
    const api = fakeApi(makeTrades(60), { batch: 10 });
    const l: WalletLoader = loader(api, { onProgress: (r) => void (r.tradeCount >= 20 && l.cancel(ID)) });
    await l.load(REQ);
    await new Promise((r) => setTimeout(r, 20));
    expect(await db.batches.count()).toBe(0);
    expect(await db.loads.get(ID)).toBeUndefined();
  });
});

describe('WalletLoader, RPC mode', () => {
  function st(position: number, leg: number, sig: string): SourceTrade {
    return {
      signature: sig,
      side: 'buy',
      token: 'T',
      tokenMint: 'm',
      amountSol: '1',
      amount: '2',
      dex: 'pumpfun',
      blockTime: '2025-01-01T00:00:00Z',
      position: String(position).padStart(12, '0'),
      leg,
    };
  }
  function fakeSource(chain: number[], calls: Array<{ before?: string; until?: string }>): ChainSource {
    return {
      chain: 'sol',
      async *history(p) {
        calls.push({ before: p.before, until: p.until });
        const pad = (n: number) => String(n).padStart(12, '0');
        const list = chain.filter((x) => (!p.before || pad(x) < p.before) && (!p.until || pad(x) > p.until));
        for (let i = 0; i < list.length; i += 2) {
          const part = list.slice(i, i + 2);
          const b: HistoryBatch = {
            trades: part.flatMap((x) => [st(x, 0, `s${x}a`), st(x, 1, `s${x}b`)]),
            position: pad(part[part.length - 1]),
            head: i === 0 ? pad(chain[0]) : undefined,
            done: i + 2 >= list.length,
          };
          yield b;
        }
      },
    };
  }

  it('stores the chain order with positions, resumes from the position and refreshes with until', async () => {
    const chain = [90, 80, 70, 60, 50];
    const calls: Array<{ before?: string; until?: string }> = [];
    const deps = { source: async () => fakeSource(chain, calls) };
    const req = { chain: 'sol', address: 'W', mode: 'rpc' as const, rpcUrl: 'http://rpc' };
    const first: WalletLoader = loader(fakeApi([]), { ...deps, onProgress: (r) => void (r.tradeCount >= 4 && first.pause(ID)) });
    expect((await first.load(req)).status).toBe('paused');
    const done = await loader(fakeApi([]), deps).load(req);
    expect(done).toMatchObject({ status: 'complete', tradeCount: 10, head: '000000000090' });
    expect(calls[1].before).toBe('000000000080');
    expect(await stored()).toEqual(['s90a', 's90b', 's80a', 's80b', 's70a', 's70b', 's60a', 's60b', 's50a', 's50b']);
    chain.unshift(100);
    const r = await loader(fakeApi([]), deps).load({ ...req, refresh: true });
    expect(calls[calls.length - 1].until).toBe('000000000090');
    expect(r).toMatchObject({ tradeCount: 12, head: '000000000100', status: 'complete' });
    expect((await stored()).slice(0, 3)).toEqual(['s100a', 's100b', 's90a']);
  });
});
