import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/lib/server/store/database.js';
import { migrate } from '../../src/lib/server/store/migrations.js';
import { storeBatch } from '../../src/lib/server/store/trades.js';
import { getOrCreateWallet, getWalletById, walletsWithDemand } from '../../src/lib/server/store/wallets.js';
import { createLoaderRegistry } from '../../src/lib/server/sync/loader-registry.js';
import { createWalletLeases, type WalletLeases } from '../../src/lib/server/sync/wallet-leases.js';
import { createWalker } from '../../src/lib/server/sync/walker/create-walker.js';
import type { ChainSource } from '../../src/lib/core/chain-source.js';
import { isHistoryError } from '../../src/lib/core/errors.js';
import { createScriptedSource, tradesOf } from '../support/scripted-source.js';
import { createTestDatabase, randomWallet, sleep } from '../support/test-server.js';

/**
 * Wallet leases on one PostgreSQL database shared by "instances" (here: separate connection
 * pools and lease managers in one test process, each with its own holder name, as separate
 * server processes have): one walk per wallet, followers woken by NOTIFY, a stale walker's late
 * write refused by its generation.
 */
const run = process.env.TEST_DATABASE_URL ? describe : describe.skip;

run('wallet leases on PostgreSQL', () => {
  let test: { url: string; drop(): Promise<void> };
  const dbs: Database[] = [];
  const leases: WalletLeases[] = [];

  beforeAll(async () => {
    test = await createTestDatabase();
    for (let i = 0; i < 3; i++) {
      const db = await openDatabase({ url: test.url });
      if (i === 0) await migrate(db);
      dbs.push(db);
      leases.push(await createWalletLeases({ db, ttlMs: 2_000, holder: `instance-${i}` }));
    }
  });
  afterAll(async () => {
    for (const l of leases) await l.close();
    for (const db of dbs) await db.close();
    await test?.drop();
  });

  it('one holder at a time; a write under a generation taken over is refused and changes nothing', async () => {
    const w = await getOrCreateWallet(dbs[0], 'sol', randomWallet());
    const a = await leases[0].acquire(w.id);
    expect(a).toEqual({ generation: 1 });
    const b = await leases[1].acquire(w.id);
    expect('until' in b && b.until > Date.now()).toBe(true);

    // A's write goes in and wakes B, which follows the wallet.
    const woke = leases[1].nextChange(w.id, 5_000);
    const t0 = Date.now();
    await storeBatch(dbs[0], { ...w, tailPosition: '000000000010' }, tradesOf(w.address, 10), leases[0].fence(1));
    await woke;
    expect(Date.now() - t0).toBeLessThan(4_000);

    // A stalls past its lease; B takes the wallet over (generation 2).
    await dbs[2].query(`UPDATE wallet_leases SET expires_at = now() - interval '1 second' WHERE wallet_id = $1`, [w.id]);
    expect(await leases[1].acquire(w.id)).toEqual({ generation: 2 });
    expect(leases[1].counts().takenOver).toBe(1);

    // A's late write under generation 1: refused, nothing stored, the wallet row as B will see it.
    const before = await getWalletById(dbs[2], w.id);
    const late = await storeBatch(dbs[0], { ...w, tailPosition: '000000000009', complete: true }, tradesOf(w.address, 9), leases[0].fence(1)).catch((e) => e);
    expect(isHistoryError(late, 'lease_lost')).toBe(true);
    expect(await getWalletById(dbs[2], w.id)).toEqual(before);
    expect((await dbs[2].query('SELECT count(*)::int AS n FROM trades WHERE wallet_id = $1', [w.id]))[0]).toEqual({ n: tradesOf(w.address, 10).length });

    // B hands it back: free for anyone, the generation goes on growing.
    await leases[1].release(w.id, 2);
    expect(await leases[0].acquire(w.id)).toEqual({ generation: 3 });
    await leases[0].release(w.id, 3);
  });

  it('three loaders of one wallet on three instances: one walk, every batch fetched once, all see the whole history', async () => {
    const wallet = randomWallet();
    // One source behind all three instances stands for the one RPC they share: it counts fetches.
    const source = createScriptedSource({ transactions: 300, batchSize: 20, delayMs: 15 });
    const loaders = await Promise.all(
      dbs.map(async (db, i) => createWalker({ db, source, wallet: await getOrCreateWallet(db, 'sol', wallet), headStaleMs: 60_000, leases: leases[i] })),
    );
    await Promise.all(loaders.map((l) => l.wantAll()));
    const deadline = Date.now() + 30_000;
    while (loaders.some((l) => !l.state.complete) && Date.now() < deadline) await Promise.race(loaders.map((l) => l.nextChange(500)));
    for (const l of loaders) {
      expect(l.state.complete).toBe(true);
      expect(l.state.tradeCount).toBe(source.expected(wallet).length);
    }
    // 300 transactions in batches of 20: 15 batches, each pulled once among the three.
    expect(source.stats.batchesYielded).toBe(15);
    expect(source.stats.tradesYielded).toBe(source.expected(wallet).length);
    await Promise.all(loaders.map((l) => l.stop()));
  });

  it('a page on a follower waits for the holder and counts what it stores', async () => {
    const wallet = randomWallet();
    const source = createScriptedSource({ transactions: 200, batchSize: 10, delayMs: 20 });
    const holder = createWalker({ db: dbs[0], source, wallet: await getOrCreateWallet(dbs[0], 'sol', wallet), headStaleMs: 60_000, leases: leases[0] });
    const follower = createWalker({ db: dbs[1], source, wallet: await getOrCreateWallet(dbs[1], 'sol', wallet), headStaleMs: 60_000, leases: leases[1] });
    await holder.wantAll();
    // Let the holder take the lease first.
    await holder.nextChange(2_000);
    const fill = follower.wantMore(50);
    const deadline = Date.now() + 20_000;
    while (fill.remaining > 0 && Date.now() < deadline) await follower.nextChange(500);
    expect(fill.remaining).toBeLessThanOrEqual(0);
    expect(follower.state.tradeCount).toBeGreaterThanOrEqual(50);
    fill.cancel();
    while (!holder.state.complete && Date.now() < deadline) await holder.nextChange(500);
    // One walk: the follower fetched nothing of its own.
    expect(source.stats.walks).toBe(1);
    await Promise.all([holder.stop(), follower.stop()]);
  });

  it('a walker whose lease was taken over forgets it: not counted held, not renewed by its heartbeat', async () => {
    const wallet = randomWallet();
    // Instance A's heartbeats pass through here: while A "stalls" (a long pause of its process)
    // they are not sent, so its lease runs out as a stalled process's would. Each one sent is
    // recorded with the wallet ids it renews.
    let stalled = false;
    const heartbeats: number[][] = [];
    const dbA: Database = {
      ...dbs[0],
      query: (sql, params) => {
        if (sql.trim().startsWith('UPDATE wallet_leases SET expires_at')) {
          if (stalled) return Promise.resolve([]);
          heartbeats.push([...(params![1] as number[])]);
        }
        return dbs[0].query(sql, params);
      },
    };
    const ttlMs = 1_500;
    const leasesA = await createWalletLeases({ db: dbA, ttlMs, holder: 'stalling' });
    const leasesB = await createWalletLeases({ db: dbs[1], ttlMs, holder: 'taking-over' });
    // 2,000 transactions at 30 ms a batch of 10: B walks for about 6 s, past the end of the test.
    const source = createScriptedSource({ transactions: 2_000, batchSize: 10, delayMs: 30 });
    // A's walk gets its first batch only when the test lets it: the stall.
    let resume!: () => void;
    const gate = new Promise<void>((r) => (resume = r));
    const stallingSource: ChainSource = {
      chain: 'sol',
      async *history(p) {
        await gate;
        yield* source.history(p);
      },
    };
    const a = createWalker({ db: dbA, source: stallingSource, wallet: await getOrCreateWallet(dbA, 'sol', wallet), headStaleMs: 60_000, leases: leasesA });
    const b = createWalker({ db: dbs[1], source, wallet: await getOrCreateWallet(dbs[1], 'sol', wallet), headStaleMs: 60_000, leases: leasesB });
    try {
      await a.wantAll();
      const deadline = Date.now() + 10_000;
      while (leasesA.counts().held === 0 && Date.now() < deadline) await sleep(10);
      expect(leasesA.counts().held).toBe(1);
      const walletId = a.state.id;
      // The heartbeat renews it meanwhile (each heartbeat seen here).
      while (!heartbeats.some((h) => h.includes(walletId)) && Date.now() < deadline) await sleep(20);
      expect(heartbeats.flat()).toContain(walletId);

      // A stalls past its lease; B's demand takes the wallet over and walks it.
      stalled = true;
      const expired = async () =>
        (await dbs[2].query<{ gone: boolean }>('SELECT expires_at < now() AS gone FROM wallet_leases WHERE wallet_id = $1', [walletId]))[0].gone;
      while (!(await expired()) && Date.now() < deadline) await sleep(50);
      await b.wantAll();
      while (b.state.tradeCount === 0 && Date.now() < deadline) await b.nextChange(500);
      expect(b.state.tradeCount).toBeGreaterThan(0);
      expect(leasesB.counts()).toEqual({ held: 1, takenOver: 1 });

      // A wakes up: its first commit is refused (lease_lost), and it follows B from then on.
      stalled = false;
      resume();
      while (a.state.tradeCount === 0 && Date.now() < deadline) await a.nextChange(500);
      expect(a.state.tradeCount).toBeGreaterThan(0);
      expect(a.stats.commits).toBe(0);
      // What wth_leases_held reports for A: nothing, while B still holds the wallet.
      expect(leasesA.counts().held).toBe(0);
      expect(leasesB.counts().held).toBe(1);

      // A's heartbeat (every ttl/3 = 500 ms) no longer renews the lease it lost.
      const sent = heartbeats.length;
      await sleep(1_200);
      expect(heartbeats.slice(sent).flat()).not.toContain(walletId);
      expect(b.state.complete).toBe(false);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await Promise.all([leasesA.close(), leasesB.close()]);
    }
  });

  it('ROLE=api: the registry builds followers that build no source, record demand, and read what a worker stores', async () => {
    const wallet = randomWallet();
    const source = createScriptedSource({ transactions: 200, batchSize: 10, delayMs: 10 });
    const api = createLoaderRegistry({
      db: dbs[1],
      role: 'api',
      leases: leases[1],
      headStaleMs: 60_000,
      sourceFor: () => {
        throw new Error('ROLE=api builds no chain source');
      },
    });
    try {
      const follower = await api.get('sol', wallet);
      const fill = follower.wantMore(30);
      // The demand is in the database, for the workers.
      const deadline = Date.now() + 10_000;
      const demandOf = async () => (await walletsWithDemand(dbs[2], follower.state.id))[0];
      let demand = await demandOf();
      while (!demand && Date.now() < deadline) {
        await sleep(20);
        demand = await demandOf();
      }
      expect(demand).toMatchObject({ address: wallet, wantCount: 30, tradeCount: 0 });
      // A worker (here a walker on another instance) serves it; the follower counts what it stores.
      const worker = createWalker({ db: dbs[0], source, wallet: await getOrCreateWallet(dbs[0], 'sol', wallet), headStaleMs: 60_000, leases: leases[0] });
      const served = worker.wantMore(demand.wantCount - demand.tradeCount);
      while (fill.remaining > 0 && Date.now() < deadline) await follower.nextChange(500);
      expect(fill.remaining).toBeLessThanOrEqual(0);
      expect(follower.state.tradeCount).toBeGreaterThanOrEqual(30);
      expect(follower.stats.commits).toBe(0);
      fill.cancel();
      served.cancel();
      await worker.stop();
    } finally {
      await api.stopAll();
    }
  });
});
