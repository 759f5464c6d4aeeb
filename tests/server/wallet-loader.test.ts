import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/lib/server/store/database.js';
import { storeBatch } from '../../src/lib/server/store/trades.js';
import { getOrCreateWallet } from '../../src/lib/server/store/wallets.js';
import { createWalker } from '../../src/lib/server/sync/walker/create-walker.js';
import { createScriptedSource } from '../support/scripted-source.js';
import { openMemoryDatabase, randomWallet, sleep } from '../support/test-server.js';

describe('the wallet loader', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openMemoryDatabase();
  });
  afterAll(() => db.close());

  it('recovers from a store failure mid-walk: the next demand loads, and nothing is lost or stored twice', async () => {
    const source = createScriptedSource({ transactions: 60, batchSize: 10, delayMs: 5 });
    const address = randomWallet();
    const wallet = await getOrCreateWallet(db, 'sol', address);
    // A store whose second batch write fails (a dropped connection, a full disk).
    let commits = 0;
    const flaky: Database = {
      ...db,
      query: (sql, params) => {
        if (/INSERT INTO trades/.test(sql) && ++commits === 2) return Promise.reject(new Error('disk full'));
        return db.query(sql, params);
      },
    };
    const loader = createWalker({ db: flaky, source, wallet, headStaleMs: 60_000 });
    const first = loader.wantMore(35);
    while (loader.running) await sleep(10);
    first.cancel();
    expect(loader.lastError).not.toBeNull();
    const stored = loader.state.tradeCount;
    expect(stored).toBeGreaterThan(0);
    // A small later demand still loads: nothing pulled by the failed walk is left counted as
    // "pending" against it (that once stopped a wallet for good).
    const small = loader.wantMore(5);
    while (loader.running) await sleep(10);
    small.cancel();
    expect(loader.state.tradeCount).toBeGreaterThan(stored);
    const second = loader.wantMore(1_000);
    while (loader.running) await sleep(10);
    second.cancel();
    expect(loader.state.complete).toBe(true);
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM trades WHERE wallet_id = $1', [wallet.id]);
    expect(rows[0].n).toBe(source.expected(address).length);
    expect(loader.state.tradeCount).toBe(source.expected(address).length);
  });

  it('takes the stored count from the store: trades another process stored count too', async () => {
    const source = createScriptedSource({ transactions: 30, batchSize: 10 });
    const address = randomWallet();
    // This loader's view of the wallet is from before another server process on the same
    // database stored the trades of its newest 10 transactions (the same rows: same chain).
    const wallet = await getOrCreateWallet(db, 'sol', address);
    const newest = source.expected(address).filter((t) => Number(t.position) > 20);
    await storeBatch(db, wallet, newest);
    const loader = createWalker({ db, source, wallet, headStaleMs: 60_000 });
    expect(loader.state.tradeCount).toBe(0);
    await loader.wantAll();
    while (loader.running) await sleep(10);
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM trades WHERE wallet_id = $1', [wallet.id]);
    expect(rows[0].n).toBe(source.expected(address).length);
    // Not 0 plus what this loader inserted: the other process's rows were there before.
    expect(loader.state.tradeCount).toBe(rows[0].n);
  });

  it('picks up a page demand that arrives while the loop is returning', async () => {
    const source = createScriptedSource({ transactions: 100, batchSize: 10 });
    const address = randomWallet();
    const loader = createWalker({ db, source, wallet: await getOrCreateWallet(db, 'sol', address), headStaleMs: 60_000 });
    const a = loader.wantMore(5);
    // Wait for the walk that fills the first demand to end, and ask again in the same tick it ends.
    await loader.nextChange(5_000);
    a.cancel();
    const b = loader.wantMore(25);
    for (let i = 0; i < 200 && b.remaining > 0; i++) await sleep(10);
    b.cancel();
    expect(b.remaining).toBeLessThanOrEqual(0);
  });
});
