import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SourceUnexplained } from '../../src/lib/core/activity.js';
import { tradeKey } from '../../src/lib/core/trade.js';
import { DashboardDb, deleteWallet, stripRow, tradesNewestFirst, walletId, walletUnexplained } from '../../src/lib/dashboard/db.js';
import { WalletLoader, type LoaderDeps } from '../../src/lib/dashboard/loader.js';
import { createScriptedSource, type ScriptedSource } from '../support/scripted-source.js';
import { randomWallet, startTestServer, TEST_KEY, type TestServer } from '../support/test-server.js';

/**
 * The dashboard's copy of a wallet's unexplained transactions (issue 20), kept in IndexedDB with
 * its trades so it shows offline. API mode: read from this server's list (the real API over a
 * socket, on a scripted source that lists transactions no trade explains) whenever a final line's
 * count differs from the stored one. Direct mode: stored from the source's batches with their
 * trades, and decoded again by a newer source's `redecode` with them.
 */
let db: DashboardDb;
let seq = 0;
beforeEach(async () => {
  db = new DashboardDb(`unexplained-${++seq}`);
  await db.open();
});
afterEach(() => db.close());

const listed = async (id: string) =>
  (await walletUnexplained(db, id).reverse().toArray()).map(({ signature, blockTime, changes, programs }) => ({ signature, blockTime, changes, programs }));
const bare = ({ position: _, ...u }: SourceUnexplained) => u;

describe('API mode: the server list, stored offline', () => {
  let srv: TestServer;
  let source: ScriptedSource;
  beforeAll(async () => {
    source = createScriptedSource({ transactions: 230, batchSize: 40, unexplainedEvery: 5 });
    // Every read looks at the head again, so a refresh sees the transactions appended.
    srv = await startTestServer({ sources: { sol: source }, env: { HEAD_STALE_SECONDS: '0' } });
  });
  afterAll(async () => srv?.close());

  const loader = (extra: Partial<LoaderDeps> = {}) => new WalletLoader({ db, api: () => ({ baseUrl: srv.url, apiKey: TEST_KEY }), retryDelayMs: 5, ...extra });

  it('a load stores the whole list newest first with exact amounts; a refresh that finds more reads it again', async () => {
    const w = randomWallet();
    const id = walletId('sol', w);
    const row = await loader().load({ chain: 'sol', address: w, mode: 'api' });
    expect(row).toMatchObject({ status: 'complete', tradeCount: source.expected(w).length, unexplainedCount: 46, serverUnexplained: 46 });
    expect(await listed(id)).toEqual(source.expectedUnexplained(w).map(bare));
    // 18-decimal amounts survive: `i.000000000000000001`.
    expect((await listed(id))[0].changes[1].amount).toMatch(/^\d+\.000000000000000001$/);

    // Five more transactions at the head, one of them listed (index 231): the refresh's final line says 47.
    source.append(5);
    const again = await loader().load({ chain: 'sol', address: w, mode: 'api', refresh: true });
    expect(again).toMatchObject({ status: 'complete', unexplainedCount: 47, serverUnexplained: 47 });
    expect(await listed(id)).toEqual(source.expectedUnexplained(w).map(bare));
    expect((await tradesNewestFirst(db, id)).map(stripRow).length).toBe(source.expected(w).length);

    // Deleting the wallet here deletes its list.
    await deleteWallet(db, id);
    expect(await walletUnexplained(db, id).count()).toBe(0);
  });

  it('a list the server cannot give (a wrong key) never fails the load, and is read at the next final line', async () => {
    const w = randomWallet();
    const count = source.expectedUnexplained(w).length;
    const id = walletId('sol', w);
    let refuse = true;
    const guarded: typeof fetch = (input, init) =>
      refuse && String(input).includes('/unexplained') ? Promise.resolve(new Response('{"code":"unauthorized"}', { status: 401 })) : fetch(input, init);
    const first = await loader({ api: () => ({ baseUrl: srv.url, apiKey: TEST_KEY, fetch: guarded }) }).load({ chain: 'sol', address: w, mode: 'api' });
    expect(first).toMatchObject({ status: 'complete', error: null, unexplainedCount: 0, serverUnexplained: count });
    refuse = false;
    const second = await loader({ api: () => ({ baseUrl: srv.url, apiKey: TEST_KEY, fetch: guarded }) }).load({
      chain: 'sol',
      address: w,
      mode: 'api',
      refresh: true,
    });
    expect(second).toMatchObject({ status: 'complete', unexplainedCount: count });
    expect(await listed(id)).toEqual(source.expectedUnexplained(w).map(bare));
  });
});

describe('direct mode: listed with the trades, decoded again with them', () => {
  const ID = walletId('sol', 'W');
  const RPC = { chain: 'sol', address: 'W', mode: 'rpc' as const, rpcUrl: 'http://rpc' };
  const loader = (source: ScriptedSource, extra: Partial<LoaderDeps> = {}) =>
    new WalletLoader({ db, api: () => ({ baseUrl: '', apiKey: '' }), source: async () => source, retryDelayMs: 5, ...extra });

  it('each batch stores its listed transactions at their places; a pause and resume stores none twice', async () => {
    const v1 = createScriptedSource({ transactions: 300, batchSize: 20, unexplainedEvery: 7 });
    const l: WalletLoader = loader(v1, { onProgress: (r) => void (r.tradeCount > 100 && r.walk && l.pause(ID)) });
    expect((await l.load(RPC)).status).toBe('paused');
    const partial = await db.loads.get(ID);
    expect(partial!.unexplainedCount).toBeGreaterThan(0);
    expect(partial!.unexplainedCount).toBeLessThan(43);
    const row = await loader(v1).load(RPC);
    expect(row).toMatchObject({ status: 'complete', unexplainedCount: 43 });
    const want = v1.expectedUnexplained('W');
    expect(want.length).toBe(43);
    expect(await listed(ID)).toEqual(want.map(bare));
    expect((await walletUnexplained(db, ID).toArray()).map((u) => u.order)).toEqual(want.map((u) => tradeKey(u.position, 0)).reverse());
  });

  it('a newer source decodes the listed transactions again: those it reads become trades and leave the list', async () => {
    const v1 = createScriptedSource({ transactions: 300, batchSize: 20, unexplainedEvery: 7, decoderVersion: 1 });
    await loader(v1).load(RPC);
    const before = v1.expectedUnexplained('W');
    expect(await listed(ID)).toEqual(before.map(bare));

    const v2 = createScriptedSource({ transactions: 300, batchSize: 20, unexplainedEvery: 7, decoderVersion: 2 });
    const l: WalletLoader = loader(v2, { onProgress: (r) => void (r.redecode && r.redecode.after !== '' && v2.redecoded.length >= 90 && l.pause(ID)) });
    expect((await l.load(RPC)).status).toBe('paused');
    const row = await loader(v2).load(RPC);
    const after = v2.expectedUnexplained('W');
    expect(after.length).toBeLessThan(before.length);
    expect(row).toMatchObject({ status: 'complete', decoderVersion: 2, unexplainedCount: after.length, tradeCount: v2.expected('W').length });
    expect(await listed(ID)).toEqual(after.map(bare));
    expect((await tradesNewestFirst(db, ID)).map(stripRow)).toEqual(v2.expected('W').map(({ position: _p, leg: _l, ...t }) => t));
    // Every stored transaction, those listed with no trade too, named once.
    const signatures = new Set([...v1.expected('W').map((t) => t.signature), ...before.map((u) => u.signature)]);
    expect(v2.redecoded.length).toBe(signatures.size);
    expect(new Set(v2.redecoded)).toEqual(signatures);
  });
});
