import { beforeAll, describe, expect, it } from 'vitest';
import { serializeUnexplained } from '../../src/lib/core/activity.js';
import { serializeTrade } from '../../src/lib/core/trade.js';
import type { Database } from '../../src/lib/server/store/database.js';
import { getOrCreateWallet, getWalletById } from '../../src/lib/server/store/wallets.js';
import { createWalker } from '../../src/lib/server/sync/walker/create-walker.js';
import type { WalletLoader } from '../../src/lib/server/sync/wallet-loader.js';
import { createScriptedSource, type ScriptedSource } from '../support/scripted-source.js';
import { storeForSuite } from '../support/suite-store.js';
import { BACKENDS, randomWallet } from '../support/test-server.js';

/**
 * Unexplained transactions below the API (issue 20): written by the statement that writes the
 * trades of the same batch, so a walk that fails half-way and resumes (a crash, a restart) ends
 * with the same list as a clean one, each transaction once, and the count the final line reports.
 * A newer decoder decodes the listed transactions again with the trades: those it reads become
 * trades and leave the list, in the same transaction.
 */
describe.each(BACKENDS)('unexplained transactions on %s', (backend) => {
  const store = storeForSuite(backend);
  let db: Database;
  beforeAll(() => {
    db = store();
  });

  const walker = async (address: string, source: ScriptedSource, extra: { redecodeTrades?: number; headStaleMs?: number } = {}) =>
    createWalker({ db, source, wallet: await getOrCreateWallet(db, 'sol', address), headStaleMs: 60_000, ...extra });
  async function until(loader: WalletLoader, done: () => boolean, ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done() && Date.now() < deadline) await loader.nextChange(200);
    expect(done()).toBe(true);
  }
  const stored = async (walletId: number) =>
    (await db.query<{ json: string }>('SELECT json FROM unexplained WHERE wallet_id = $1 ORDER BY k DESC', [walletId])).map((r) => r.json);

  it('a walk that fails half-way and is resumed by another walker stores the same list as a clean walk, each once', async () => {
    const clean = randomWallet();
    const a = await walker(clean, createScriptedSource({ transactions: 500, batchSize: 30, unexplainedEvery: 7 }));
    await a.wantAll();
    await until(a, () => a.state.complete);
    await a.stop();

    const crashed = randomWallet();
    // The source fails after 6 batches, and every walk after that: the walker stops with the
    // error; a new walker (a restarted process) resumes from what was stored.
    const failing = createScriptedSource({ transactions: 500, batchSize: 30, unexplainedEvery: 7, failAfterBatches: 6 });
    const b = await walker(crashed, failing);
    await b.wantAll();
    await until(b, () => b.lastError !== null || b.state.complete);
    await b.stop();
    const half = await getWalletById(db, b.state.id);
    expect(half.complete).toBe(false);
    expect(half.unexplainedCount).toBeGreaterThan(0);
    const c = await walker(crashed, createScriptedSource({ transactions: 500, batchSize: 30, unexplainedEvery: 7 }));
    await c.wantAll();
    await until(c, () => c.state.complete);
    await c.stop();

    const source = createScriptedSource({ transactions: 500, unexplainedEvery: 7 });
    for (const [address, id] of [
      [clean, a.state.id],
      [crashed, c.state.id],
    ] as const) {
      const want = source.expectedUnexplained(address).map(serializeUnexplained);
      expect(want.length).toBe(72);
      expect(await stored(id)).toEqual(want);
      expect((await getWalletById(db, id)).unexplainedCount).toBe(72);
    }
  });

  it('a re-decode visits the listed transactions: those the new decoder reads become trades and leave the list; a stop half-way loses nothing', async () => {
    const address = randomWallet();
    const v1 = createScriptedSource({ transactions: 400, batchSize: 30, unexplainedEvery: 7, decoderVersion: 1 });
    const a = await walker(address, v1);
    await a.wantAll();
    await until(a, () => a.state.complete);
    await a.stop();
    const id = a.state.id;
    const listedByV1 = v1.expectedUnexplained(address);
    // 57 listed, 29 of them with no trade at all (i even): a re-decode must name those by their own rows.
    expect(listedByV1.length).toBe(57);
    expect(await stored(id)).toEqual(listedByV1.map(serializeUnexplained));

    // Version 2 reads the venue of half of them; its re-decode stops after a few batches (a
    // restart), and another walker resumes from the stored progress.
    // The third batch's answer is held: the walker stops there, whatever the machine's speed.
    const v2 = createScriptedSource({ transactions: 400, unexplainedEvery: 7, decoderVersion: 2, redecodeStallAfter: 2 });
    const b = await walker(address, v2, { redecodeTrades: 25 });
    b.redecodeIfBehind();
    await until(b, () => v2.stats.redecodeCalls >= 3);
    await b.stop();
    const half = await getWalletById(db, id);
    expect(half.decoderVersion).toBe(1);
    const c = await walker(address, createScriptedSource({ transactions: 400, unexplainedEvery: 7, decoderVersion: 2 }), { redecodeTrades: 25 });
    c.redecodeIfBehind();
    await until(c, () => c.state.decoderVersion === 2);
    await c.stop();

    const want = v2.expectedUnexplained(address);
    expect(want.length).toBe(28);
    expect(await stored(id)).toEqual(want.map(serializeUnexplained));
    const trades = await db.query<{ json: string }>('SELECT json FROM trades WHERE wallet_id = $1 ORDER BY k DESC', [id]);
    expect(trades.map((r) => r.json)).toEqual(v2.expected(address).map(serializeTrade));
    // The transactions version 1 listed with no trade are trades now where version 2 reads them.
    const gained = listedByV1.filter((u) => !want.some((w) => w.signature === u.signature));
    expect(gained.length).toBe(29);
    for (const u of gained) expect(trades.some((r) => r.json.includes(u.signature) && r.json.includes(u.changes[1].tokenMint!))).toBe(true);
    expect(await getWalletById(db, id)).toMatchObject({ decoderVersion: 2, unexplainedCount: 28, tradeCount: v2.expected(address).length });
  });

  it('a wallet holding only unexplained transactions keeps its version through a refresh and is re-decoded', async () => {
    const address = randomWallet();
    const v1 = createScriptedSource({ transactions: 200, batchSize: 30, unexplainedEvery: 7, decoderVersion: 1 });
    const a = await walker(address, v1);
    await a.wantAll();
    await until(a, () => a.state.complete);
    await a.stop();
    const id = a.state.id;
    // What an unknown venue's wallet looks like: nothing but listed transactions.
    await db.query('DELETE FROM trades WHERE wallet_id = $1', [id]);
    await db.query('UPDATE wallets SET trade_count = 0 WHERE id = $1', [id]);
    const before = (await getWalletById(db, id)).unexplainedCount;
    expect(before).toBe(v1.expectedUnexplained(address).length);

    const v2 = createScriptedSource({ transactions: 200, unexplainedEvery: 7, decoderVersion: 2 });
    const b = await walker(address, v2, { headStaleMs: 0 });
    // A refresh stores a batch (no new trades) before the re-decode: it must not take the new version.
    await b.refreshIfStale();
    expect((await getWalletById(db, id)).decoderVersion).toBe(1);
    b.redecodeIfBehind();
    await until(b, () => b.state.decoderVersion === 2);
    await b.stop();
    // Every listed transaction was decoded again; those version 2 reads left the list.
    expect(v2.redecoded.length).toBe(before);
    expect(await stored(id)).toEqual(v2.expectedUnexplained(address).map(serializeUnexplained));
  });
});
