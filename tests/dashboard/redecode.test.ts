import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Trade } from '../../src/lib/core/trade.js';
import { DashboardDb, fingerprint, stagingId, stripRow, tradesNewestFirst, walletBatches, walletId } from '../../src/lib/dashboard/db.js';
import { WalletLoader, type LoaderDeps } from '../../src/lib/dashboard/loader.js';
import { TradeMirror } from '../../src/lib/dashboard/trade-mirror.js';
import { createScriptedSource } from '../support/scripted-source.js';
import { fakeApi, makeTrades, type FakeApi, freshDbEachTest, apiLoader } from './fake-api.js';

/**
 * The dashboard's stored copy of a wallet whose history was decoded again (issue 23, item 9). API
 * mode: the server says the wallet's decoder version (a header on the answer, the stream's final
 * line); a version above the one the stored rows were read at means they may be stale, and the
 * wallet is re-read from the top into a staging area and swapped in whole. Direct mode: the
 * source's `redecode` decodes the stored transactions again, as the server does.
 */
let db: DashboardDb;
freshDbEachTest('redecode', (d) => (db = d));
const ID = walletId('sol', 'W');
const REQ = { chain: 'sol', address: 'W', mode: 'api' as const };

const loader = (api: FakeApi, extra: Partial<LoaderDeps> = {}) => apiLoader(db, api, extra);
const stored = async (): Promise<Trade[]> => (await tradesNewestFirst(db, ID)).map(stripRow);
/** What a re-read has staged, newest first. */
const staged = async () => (await walletBatches(db, stagingId(ID)).reverse().toArray()).flatMap((b) => b.trades);

/** The history as a newer decoder on the server gives it: some trades changed, some gone, some new. */
function redecoded(old: Trade[]): Trade[] {
  const out: Trade[] = [];
  old.forEach((t, i) => {
    if (i % 9 === 4) return;
    out.push(i % 5 === 0 ? { ...t, dex: 'jupiter' } : t);
    if (i % 11 === 2) out.push({ ...t, side: 'buy', token: 'NEW', tokenMint: 'mintNew', amount: '1' });
  });
  return out;
}

describe('the stored copy of a wallet the server decoded again (API mode)', () => {
  it('a refresh that finds a newer decoder version re-reads the wallet from the top and swaps the new rows in', async () => {
    const v1 = makeTrades(95);
    const api = fakeApi(v1, { batch: 10 });
    api.decoderVersion = 1;
    const first = await loader(api).load(REQ);
    expect(first).toMatchObject({ status: 'complete', tradeCount: 95, decoderVersion: 1 });

    // The server decoded the wallet again.
    const v2 = redecoded(v1);
    api.trades = v2;
    api.decoderVersion = 2;
    const before = api.sent;
    const row = await loader(api).load({ ...REQ, refresh: true });
    expect(row).toMatchObject({ status: 'complete', tradeCount: v2.length, decoderVersion: 2, generation: 1, reread: null, walk: null, refresh: null });
    expect(await stored()).toEqual(v2);
    expect(await staged()).toEqual([]);
    expect(row.headFp).toBe(fingerprint(v2[0]));
    expect(row.tailFp).toBe(fingerprint(v2.at(-1)!));
    // The header said it before any line: the refresh stored nothing (the first lines it had
    // pulled were dropped) and the re-read read the history once.
    expect(api.sent - before).toBeLessThanOrEqual(v2.length + 20);
    // From then on a refresh stops at the stored head again.
    api.trades = [...makeTrades(3, 'newer'), ...v2];
    const again = await loader(api).load({ ...REQ, refresh: true });
    expect(again).toMatchObject({ tradeCount: v2.length + 3, decoderVersion: 2 });
    expect(await stored()).toEqual(api.trades);
  });

  it('keeps the old rows until the re-read is whole; a pause and a reload resume it without a duplicate', async () => {
    const v1 = makeTrades(120);
    const api = fakeApi(v1, { batch: 10 });
    api.decoderVersion = 1;
    await loader(api).load(REQ);
    const v2 = redecoded(v1);
    api.trades = v2;
    api.decoderVersion = 2;
    const paused: WalletLoader = loader(api, { onProgress: (r) => void ((r.reread?.index ?? 0) >= 40 && paused.pause(ID)) });
    const mid = await paused.load({ ...REQ, refresh: true });
    expect(mid.status).toBe('paused');
    // The person still sees the whole old history; the new one waits in the staging area.
    expect(await stored()).toEqual(v1);
    expect(mid.tradeCount).toBe(120);
    const halfway = await staged();
    expect(halfway.length).toBeGreaterThanOrEqual(40);
    expect(halfway).toEqual(v2.slice(0, halfway.length));
    // A reloaded tab goes on from the re-read's cursor.
    const sentBefore = api.sent;
    const done = await loader(api).load(REQ);
    expect(done).toMatchObject({ status: 'complete', tradeCount: v2.length, decoderVersion: 2 });
    expect(await stored()).toEqual(v2);
    expect(await staged()).toEqual([]);
    expect(api.sent - sentBefore).toBeLessThanOrEqual(v2.length - halfway.length + 10);
  });

  it('a version said only in the final line: a walk under way is superseded by a re-read', async () => {
    const v1 = makeTrades(60);
    const api = fakeApi(v1, { batch: 10, perCall: 20 });
    api.decoderVersion = 1;
    api.versionIn = 'final';
    // Paused once the first call's final line has said the version (not at a trade count: whether
    // the final line is stored with the call's last trades or after them depends on timing).
    const l: WalletLoader = loader(api, { onProgress: (r) => void (r.decoderVersion === 1 && !r.reread && l.pause(ID)) });
    const first = await l.load(REQ);
    expect(first.decoderVersion).toBe(1);
    expect(first.walk).not.toBeNull();
    const v2 = redecoded(v1);
    api.trades = v2;
    api.decoderVersion = 2;
    const row = await loader(api).load(REQ);
    expect(row).toMatchObject({ status: 'complete', tradeCount: v2.length, decoderVersion: 2 });
    expect(await stored()).toEqual(v2);
  });

  it('rows stored before versions were kept are re-read once the server says one; a server without versions changes nothing', async () => {
    const v1 = makeTrades(40);
    const api = fakeApi(v1, { batch: 10 });
    await loader(api).load(REQ);
    expect((await db.loads.get(ID))!.decoderVersion).toBe(null);
    // A dashboard from before this change left no version on the row.
    await db.loads.update(ID, { decoderVersion: undefined });
    await loader(api).load({ ...REQ, refresh: true });
    expect((await db.loads.get(ID))!.generation ?? 0).toBe(0);
    const v2 = redecoded(v1);
    api.trades = v2;
    api.decoderVersion = 1;
    const row = await loader(api).load({ ...REQ, refresh: true });
    expect(row).toMatchObject({ tradeCount: v2.length, decoderVersion: 1, generation: 1 });
    expect(await stored()).toEqual(v2);
  });

  it("the page's mirror reads the rows again when they are swapped in", async () => {
    const v1 = makeTrades(30);
    const api = fakeApi(v1, { batch: 10 });
    api.decoderVersion = 1;
    const m = new TradeMirror(db, ID);
    let row = await loader(api).load(REQ);
    await m.sync(row.tradeCount, row.generation);
    expect(m.rows.map(stripRow)).toEqual(v1);
    const v2 = redecoded(v1);
    api.trades = v2;
    api.decoderVersion = 2;
    row = await loader(api).load({ ...REQ, refresh: true });
    expect(await m.sync(row.tradeCount, row.generation)).toBe(true);
    expect(m.rows.map(stripRow)).toEqual(v2);
  });
});

describe('a wallet stored by an older decoder in direct mode', () => {
  const RPC = { chain: 'sol', address: 'W', mode: 'rpc' as const, rpcUrl: 'http://rpc' };
  const bare = (t: { position: string; leg: number } & Trade): Trade => {
    const { position: _p, leg: _l, ...rest } = t;
    void _p;
    void _l;
    return rest;
  };

  it("is decoded again with the source's redecode: only the stored transactions, each once, then the new rows", async () => {
    const v1 = createScriptedSource({ transactions: 150, batchSize: 25, decoderVersion: 1 });
    await loader(fakeApi([]), { source: async () => v1 }).load(RPC);
    expect(await db.loads.get(ID)).toMatchObject({ status: 'complete', decoderVersion: 1 });
    expect((await walletBatches(db, ID).toArray()).every((b) => b.keys?.length === b.trades.length)).toBe(true);

    const v2 = createScriptedSource({ transactions: 150, batchSize: 25, decoderVersion: 2 });
    const row = await loader(fakeApi([]), { source: async () => v2 }).load(RPC);
    expect(row).toMatchObject({ status: 'complete', decoderVersion: 2, redecode: null, tradeCount: v2.expected('W').length, generation: 1 });
    expect(await stored()).toEqual(v2.expected('W').map(bare));
    expect(v2.stats.walks).toBe(0);
    expect(v2.redecoded.length).toBe(150);
    expect(new Set(v2.redecoded).size).toBe(150);
    // Each batch of the store keeps its keys, for the next decoder.
    expect((await walletBatches(db, ID).toArray()).every((b) => b.keys?.length === b.trades.length)).toBe(true);
  });

  it('a pause in the middle resumes from the stored progress without a duplicate', async () => {
    const v1 = createScriptedSource({ transactions: 200, batchSize: 20, decoderVersion: 1 });
    await loader(fakeApi([]), { source: async () => v1 }).load(RPC);
    const v2 = createScriptedSource({ transactions: 200, batchSize: 20, decoderVersion: 2 });
    const l: WalletLoader = loader(fakeApi([]), {
      source: async () => v2,
      onProgress: (r) => void (r.redecode && r.redecode.after !== '' && v2.redecoded.length >= 60 && l.pause(ID)),
    });
    const mid = await l.load(RPC);
    expect(mid.status).toBe('paused');
    expect(mid.redecode).not.toBeNull();
    const done = await loader(fakeApi([]), { source: async () => v2 }).load(RPC);
    expect(done).toMatchObject({ status: 'complete', decoderVersion: 2 });
    expect(await stored()).toEqual(v2.expected('W').map(bare));
    expect(v2.redecoded.length).toBe(200);
    expect(new Set(v2.redecoded).size).toBe(200);
  });

  it('rows stored before keys were kept are re-read whole from the source', async () => {
    const v1 = createScriptedSource({ transactions: 80, batchSize: 20, decoderVersion: 1 });
    await loader(fakeApi([]), { source: async () => v1 }).load(RPC);
    // What an older dashboard stored: no keys, no version.
    await db.batches.toCollection().modify((b) => void delete b.keys);
    await db.loads.update(ID, { decoderVersion: undefined });
    const v2 = createScriptedSource({ transactions: 80, batchSize: 20, decoderVersion: 2 });
    const row = await loader(fakeApi([]), { source: async () => v2 }).load(RPC);
    expect(row).toMatchObject({ status: 'complete', decoderVersion: 2, reread: null, tradeCount: v2.expected('W').length, head: '79' });
    expect(await stored()).toEqual(v2.expected('W').map(bare));
    expect(v2.redecoded).toEqual([]);
    expect(v2.stats.walks).toBe(1);
    expect(await staged()).toEqual([]);
  });
});
