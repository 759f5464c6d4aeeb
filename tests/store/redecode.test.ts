import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeTrade, tradeKey } from '../../src/lib/core/trade.js';
import { openDatabase, type Database } from '../../src/lib/server/store/database.js';
import { migrate } from '../../src/lib/server/store/migrations.js';
import { publishDecoderVersion } from '../../src/lib/server/store/settings.js';
import { readRun, TOP_KEY } from '../../src/lib/server/store/trades.js';
import { meterRun } from '../../src/lib/server/store/usage.js';
import { askRedecode, getOrCreateWallet, getWalletById, walletsWithDemand } from '../../src/lib/server/store/wallets.js';
import { createLoaderRegistry } from '../../src/lib/server/sync/loader-registry.js';
import { createWalletLeases } from '../../src/lib/server/sync/wallet-leases.js';
import { createWalker } from '../../src/lib/server/sync/walker/create-walker.js';
import type { WalletLoader } from '../../src/lib/server/sync/wallet-loader.js';
import type { HistoryError } from '../../src/lib/core/errors.js';
import { createScriptedSource, tradesOf, type ScriptedSource } from '../support/scripted-source.js';
import { storeForSuite } from '../support/suite-store.js';
import { BACKENDS, createTestDatabase, randomWallet, sleep } from '../support/test-server.js';

/**
 * Histories stored by an older decoder (issue 23, item 9), below the API: a store written by
 * version 1 of the scripted source, then a walker whose source decodes with version 2. The
 * re-decode must leave exactly version 2's trades, fetch only the stored transactions, leave a walk
 * and refreshes working, survive a stop or a failure half-way, and meter nothing twice.
 */
describe.each(BACKENDS)('re-decoding on %s', (backend) => {
  const store = storeForSuite(backend);
  let db: Database;
  beforeAll(() => {
    db = store();
  });

  const storedJson = async (walletId: number) =>
    (await db.query<{ json: string }>('SELECT json FROM trades WHERE wallet_id = $1 ORDER BY k DESC', [walletId])).map((r) => r.json);
  const storedCount = async (walletId: number) =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM trades WHERE wallet_id = $1', [walletId]))[0].n;
  const walker = async (address: string, source: ScriptedSource, extra: { redecodeTrades?: number; now?: () => number; headStaleMs?: number } = {}) =>
    createWalker({ db, source, wallet: await getOrCreateWallet(db, 'sol', address), headStaleMs: extra.headStaleMs ?? 60_000, ...extra });
  async function until(loader: WalletLoader, done: () => boolean, ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done() && Date.now() < deadline) await loader.nextChange(200);
    expect(done()).toBe(true);
  }
  /** A wallet loaded whole by version 1 of the source. */
  async function storedByVersion1(transactions: number): Promise<{ address: string; walletId: number }> {
    const address = randomWallet();
    const v1 = createScriptedSource({ transactions, batchSize: 50, decoderVersion: 1 });
    const a = await walker(address, v1);
    await a.wantAll();
    await until(a, () => a.state.complete);
    await a.stop();
    expect(a.state.decoderVersion).toBe(1);
    return { address, walletId: a.state.id };
  }
  /** The transactions (signatures) stored for a wallet now. */
  const storedSignatures = async (walletId: number) =>
    new Set((await db.query<{ signature: string }>('SELECT DISTINCT signature FROM trades WHERE wallet_id = $1', [walletId])).map((r) => r.signature));

  it('a read re-decodes a wallet stored by version 1: version 2 exact trades, only stored transactions fetched, each once', async () => {
    const { address, walletId } = await storedByVersion1(300);
    const before = await storedSignatures(walletId);
    const v2 = createScriptedSource({ transactions: 300, decoderVersion: 2 });
    const b = await walker(address, v2, { redecodeTrades: 40 });
    expect(b.state.decoderVersion).toBe(1);
    b.redecodeIfBehind();
    await until(b, () => b.state.decoderVersion === 2);
    expect(await storedJson(walletId)).toEqual(v2.expected(address).map(serializeTrade));
    expect(b.state.tradeCount).toBe(v2.expected(address).length);
    expect(await storedCount(walletId)).toBe(v2.expected(address).length);
    const row = await getWalletById(db, walletId);
    expect(row).toMatchObject({ decoderVersion: 2, tradeCount: v2.expected(address).length, firstTrade: v2.expected(address).at(-1)!.blockTime });
    // Nothing walked; every stored transaction fetched again exactly once, in batches of about 40 trades.
    expect(v2.stats.walks + v2.stats.refreshes).toBe(0);
    expect(v2.redecoded.length).toBe(before.size);
    expect(new Set(v2.redecoded)).toEqual(before);
    const storedByV1 = createScriptedSource({ transactions: 300 }).expected(address).length;
    expect(v2.stats.redecodeCalls).toBeGreaterThanOrEqual(Math.floor(storedByV1 / 40));
    expect(v2.stats.redecodeCalls).toBeLessThanOrEqual(Math.ceil(storedByV1 / 40));
    // Oldest first: the first batch was the oldest transactions.
    expect(v2.redecoded[0]).toBe(tradesOf(address, 0)[0].signature);
    // Current now: another read does nothing.
    const calls = v2.stats.redecodeCalls;
    b.redecodeIfBehind();
    // Long enough for a wrongly started re-decode to reach its first call on a loaded machine.
    await sleep(500);
    expect(v2.stats.redecodeCalls).toBe(calls);
    await b.stop();
  });

  it('runs beside a tail walk and a refresh; what they store is decoded by version 2 already and never fetched again', async () => {
    const address = randomWallet();
    // Version 1 stored the newest 150 of 400 transactions (a page's demand), then the server was upgraded.
    const v1 = createScriptedSource({ transactions: 400, batchSize: 50, decoderVersion: 1 });
    const a = await walker(address, v1);
    const page = a.wantMore(150);
    await until(a, () => page.remaining <= 0 && !a.running);
    page.cancel();
    await a.stop();
    const walletId = a.state.id;
    const byVersion1 = await storedSignatures(walletId);
    expect(a.state.complete).toBe(false);

    let clock = Date.now();
    const v2 = createScriptedSource({ transactions: 400, batchSize: 25, delayMs: 5, decoderVersion: 2, redecodeDelayMs: 80 });
    const b = await walker(address, v2, { redecodeTrades: 20, now: () => clock });
    b.redecodeIfBehind();
    // The first batch is under way before the walk starts: it starts above what the walk will add.
    await until(b, () => v2.stats.redecodeCalls > 0);
    const events: string[] = [];
    await b.wantAll();
    void until(b, () => b.state.complete, 30_000).then(() => events.push('walk complete'));
    // New trades at the head meanwhile, and a read from the top once the head is stale.
    v2.append(30);
    clock += 120_000;
    await b.refreshIfStale();
    expect(v2.stats.refreshes).toBe(1);
    expect(b.state.decoderVersion).toBe(1);
    events.push('refreshed');
    await until(b, () => b.state.decoderVersion === 2, 30_000);
    events.push('re-decoded');
    await until(b, () => b.state.complete, 30_000);
    // The walk and the refresh went on while the re-decode ran (it takes 80 ms a batch of 20 trades).
    expect(events.indexOf('refreshed')).toBeLessThan(events.indexOf('re-decoded'));
    expect(events.indexOf('walk complete')).toBeLessThan(events.indexOf('re-decoded'));
    expect(await storedJson(walletId)).toEqual(v2.expected(address).map(serializeTrade));
    expect(b.state.tradeCount).toBe(v2.expected(address).length);
    // Only what version 1 stored was decoded again, each once.
    expect(v2.redecoded.length).toBe(byVersion1.size);
    expect(new Set(v2.redecoded)).toEqual(byVersion1);
    await b.stop();
  });

  it('a stop half-way (a restart) and a failed batch lose and duplicate nothing: the next walker resumes from the stored progress', async () => {
    const { address, walletId } = await storedByVersion1(300);
    const all = await storedSignatures(walletId);
    const b2 = createScriptedSource({ transactions: 300, decoderVersion: 2, redecodeDelayMs: 30 });
    const b = await walker(address, b2, { redecodeTrades: 25 });
    b.redecodeIfBehind();
    await until(b, () => b2.stats.redecodeCalls >= 4);
    await b.stop();
    const mid = await db.query<{ after: string | null; version: number; v: number }>(
      'SELECT redecode_after AS after, redecode_version AS version, decoder_version AS v FROM wallets WHERE id = $1',
      [walletId],
    );
    expect(mid[0]).toMatchObject({ version: 2, v: 1 });
    expect(mid[0].after).not.toBeNull();
    // Half old, half new, and consistent: the stored count is the rows.
    expect((await getWalletById(db, walletId)).tradeCount).toBe(await storedCount(walletId));

    // The next walker's source fails its third batch; the error is logged, the read goes on.
    let clock = Date.now();
    const errors: HistoryError[] = [];
    const c2 = createScriptedSource({ transactions: 300, decoderVersion: 2 });
    const c = createWalker({
      db,
      source: c2,
      wallet: await getOrCreateWallet(db, 'sol', address),
      headStaleMs: 60_000,
      redecodeTrades: 25,
      now: () => clock,
      onError: (e) => errors.push(e),
    });
    const failing = c2.redecode!.bind(c2);
    let calls = 0;
    (c2 as { redecode: typeof failing }).redecode = (p) => (++calls === 3 ? Promise.reject(new Error('RPC went away')) : failing(p));
    c.redecodeIfBehind();
    await until(c, () => errors.length > 0);
    expect(errors[0].message).toMatch(/RPC went away/);
    expect(c.state.decoderVersion).toBe(1);
    // A read within 30 s does not try again; one after does, from where it stopped.
    c.redecodeIfBehind();
    await sleep(500);
    expect(calls).toBe(3);
    clock += 31_000;
    c.redecodeIfBehind();
    await until(c, () => c.state.decoderVersion === 2);
    expect(await storedJson(walletId)).toEqual(c2.expected(address).map(serializeTrade));
    // Every stored transaction decoded again; twice at most those of the batch the stop cut off.
    const both = [...b2.redecoded, ...c2.redecoded];
    expect(new Set(both)).toEqual(all);
    expect(both.length - all.size).toBeLessThanOrEqual(25);
    // The failed batch was fetched and stored once (the failing call never reached the scripted source).
    expect(new Set(c2.redecoded).size).toBe(c2.redecoded.length);
    await c.stop();
  });

  it('meters nothing twice: a trade at a key already counted stays counted, one at a key no trade had is counted once', async () => {
    const { address, walletId } = await storedByVersion1(120);
    const [alice, bob] = await Promise.all(
      ['alice', 'bob'].map(async (n) => (await db.query<{ id: number }>(`INSERT INTO accounts (name) VALUES ($1) RETURNING id`, [`${n}-${address}`]))[0].id),
    );
    const usage = async (account: number) => Number((await db.query<{ u: number }>('SELECT usage_trades AS u FROM accounts WHERE id = $1', [account]))[0].u);
    /** Delivers `count` trades below `below` to an account as a read does, and returns what it counted. */
    async function deliver(account: number, below: string, count: number): Promise<{ counted: number; lo: string }> {
      const run = (await readRun(db, walletId, below, count))!;
      const counted = await meterRun(db, { accountId: account, walletId, hi: run.hi, lo: run.lo, count: run.count, after: below === TOP_KEY ? null : below });
      return { counted, lo: run.lo };
    }
    const v1 = createScriptedSource({ transactions: 120, decoderVersion: 1 }).expected(address);
    const v2Source = createScriptedSource({ transactions: 120, decoderVersion: 2 });
    const v2 = v2Source.expected(address);
    const keys1 = new Set(v1.map((t) => tradeKey(t.position, t.leg)));
    const keys2 = v2.map((t) => tradeKey(t.position, t.leg));
    // Alice read everything under version 1; Bob the newest 60 trades, and keeps his cursor.
    expect((await deliver(alice, TOP_KEY, 10_000)).counted).toBe(v1.length);
    const bobs = await deliver(bob, TOP_KEY, 60);
    expect(bobs.counted).toBe(60);
    const bobHi = tradeKey(v1[0].position, v1[0].leg);

    const b = await walker(address, v2Source, { redecodeTrades: 30 });
    b.redecodeIfBehind();
    await until(b, () => b.state.decoderVersion === 2);
    await b.stop();
    const fresh = keys2.filter((k) => !keys1.has(k));
    expect(fresh.length).toBeGreaterThan(0);
    // Alice reads the whole history again: only the trades at keys no trade had count.
    expect((await deliver(alice, TOP_KEY, 10_000)).counted).toBe(fresh.length);
    expect((await deliver(alice, TOP_KEY, 10_000)).counted).toBe(0);
    // Bob resumes from his cursor: everything below it counts (he never had it). Then from the
    // top: what he had stays counted, a key new inside his range is counted once.
    const below = keys2.filter((k) => k < bobs.lo);
    expect((await deliver(bob, bobs.lo, 10_000)).counted).toBe(below.length);
    const inBobsRange = keys2.filter((k) => k >= bobs.lo && k <= bobHi && !keys1.has(k)).length;
    expect((await deliver(bob, TOP_KEY, 10_000)).counted).toBe(inBobsRange);
    expect(await usage(bob)).toBe(60 + below.length + inBobsRange);
    expect(await usage(alice)).toBe(v1.length + fresh.length);
    expect((await deliver(bob, TOP_KEY, 10_000)).counted).toBe(0);
  });

  it('a store written before decoder versions existed (schema 7) is migrated to version 0 and re-decoded', async () => {
    const old = backend === 'postgres' ? await createTestDatabase() : null;
    const store = old ? await openDatabase({ url: old.url }) : await openDatabase({ dataDir: 'memory://' });
    try {
      await migrate(store, { upTo: 7 });
      const address = randomWallet();
      // The rows as the previous server wrote them: its wallets and trades columns only.
      const id = (
        await store.query<{ id: number }>(
          `INSERT INTO wallets (chain, address, head_marker, tail_position, complete, trade_count, first_trade, head_checked_at)
           VALUES ('sol', $1, '79', '0', true, 0, NULL, now()) RETURNING id`,
          [address],
        )
      )[0].id;
      const v1 = createScriptedSource({ transactions: 80 }).expected(address);
      await store.query(`INSERT INTO trades (wallet_id, k, signature, leg, json) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[], $5::text[])`, [
        id,
        v1.map((t) => tradeKey(t.position, t.leg)),
        v1.map((t) => t.signature),
        v1.map((t) => t.leg),
        v1.map(serializeTrade),
      ]);
      await store.query('UPDATE wallets SET trade_count = $2, first_trade = $3 WHERE id = $1', [id, v1.length, v1.at(-1)!.blockTime]);
      await migrate(store);
      expect((await store.query<{ version: number }>('SELECT max(version) AS version FROM schema_migrations'))[0].version).toBe(13);
      const w = await getOrCreateWallet(store, 'sol', address);
      expect(w).toMatchObject({ decoderVersion: 0, tradeCount: v1.length, complete: true });
      const v2 = createScriptedSource({ transactions: 80, decoderVersion: 2 });
      const b = createWalker({ db: store, source: v2, wallet: w, headStaleMs: 60_000 });
      b.redecodeIfBehind();
      await until(b, () => b.state.decoderVersion === 2);
      await b.stop();
      const rows = (await store.query<{ json: string }>('SELECT json FROM trades WHERE wallet_id = $1 ORDER BY k DESC', [id])).map((r) => r.json);
      expect(rows).toEqual(v2.expected(address).map(serializeTrade));
    } finally {
      await store.close();
      await old?.drop();
    }
  });

  it('ROLE=api: a read asks the workers for a re-decode only when the wallet is behind their published version', async () => {
    const { walletId } = await storedByVersion1(20);
    // No worker published a version for the chain yet: the API instance asks anyway.
    await askRedecode(db, walletId);
    expect((await walletsWithDemand(db, walletId))[0]).toMatchObject({ redecodeWanted: true });
    await db.query('UPDATE wallets SET redecode_wanted = false WHERE id = $1', [walletId]);
    await publishDecoderVersion(db, 'sol', 1);
    await askRedecode(db, walletId);
    expect(await walletsWithDemand(db, walletId)).toEqual([]);
    // A worker with version 2 publishes it (the highest stays): the wallet is behind.
    await publishDecoderVersion(db, 'sol', 2);
    await publishDecoderVersion(db, 'sol', 1);
    await askRedecode(db, walletId);
    expect((await walletsWithDemand(db, walletId))[0]).toMatchObject({ redecodeWanted: true });
    await db.query(`DELETE FROM settings WHERE key = 'decoder_version:sol'`);
  });

  it('the registry re-decodes at a read and resumes a re-decode under way at start, without loading what nobody asked for', async () => {
    // Version 1 stored the newest 400 of 600 transactions for a page: not complete, no stream asked.
    const address = randomWallet();
    const v1 = createScriptedSource({ transactions: 600, batchSize: 100, decoderVersion: 1 });
    const a = await walker(address, v1);
    const page = a.wantMore(400);
    await until(a, () => page.remaining <= 0 && !a.running);
    page.cancel();
    await a.stop();
    const walletId = a.state.id;
    const stored = await storedCount(walletId);

    const slow = createScriptedSource({ transactions: 600, decoderVersion: 2, redecodeDelayMs: 30 });
    const first = createLoaderRegistry({ db, sourceFor: () => slow, headStaleMs: 60_000 });
    const loader = await first.get('sol', address);
    await until(loader, () => slow.stats.redecodeCalls >= 2);
    await first.stopAll();
    expect((await getWalletById(db, walletId)).decoderVersion).toBe(1);
    const v2 = createScriptedSource({ transactions: 600, decoderVersion: 2 });
    const second = createLoaderRegistry({ db, sourceFor: () => v2, headStaleMs: 60_000 });
    expect(await second.resumeBackground()).toBeGreaterThanOrEqual(1);
    const resumed = await second.get('sol', address);
    await until(resumed, () => resumed.state.decoderVersion === 2);
    // Not loaded as a stream would be: nothing walked, the wallet as incomplete as it was.
    expect(v2.stats.walks).toBe(0);
    expect(resumed.state).toMatchObject({ loadAll: false, complete: false });
    // Version 1 stored the transactions above the tail position it reached (the scripted source's indexes).
    const tail = Number(a.state.tailPosition);
    const expected = v2.expected(address).filter((t) => Number(t.position) > tail);
    expect(await storedJson(walletId)).toEqual(expected.map(serializeTrade));
    expect(stored).toBeGreaterThanOrEqual(400);
    await second.stopAll();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('re-decoding under leases on PostgreSQL', () => {
  let test: { url: string; drop(): Promise<void> };
  const dbs: Database[] = [];
  beforeAll(async () => {
    test = await createTestDatabase();
    for (let i = 0; i < 2; i++) dbs.push(await openDatabase({ url: test.url }));
    await migrate(dbs[0]);
  });
  afterAll(async () => {
    for (const db of dbs) await db.close();
    await test?.drop();
  });

  it('one instance re-decodes under the lease, the other follows; a stale holder writes nothing', async () => {
    const address = randomWallet();
    const v1 = createScriptedSource({ transactions: 200, batchSize: 50, decoderVersion: 1 });
    const loader1 = createWalker({ db: dbs[0], source: v1, wallet: await getOrCreateWallet(dbs[0], 'sol', address), headStaleMs: 60_000 });
    await loader1.wantAll();
    while (!loader1.state.complete) await loader1.nextChange(200);
    await loader1.stop();
    const walletId = loader1.state.id;
    const stored = new Set(
      (await dbs[0].query<{ signature: string }>('SELECT DISTINCT signature FROM trades WHERE wallet_id = $1', [walletId])).map((r) => r.signature),
    );

    // Long enough that A surely still holds the lease while B is asked (a loaded machine's polling
    // and the 300 ms below stay far inside it); A's stall outlasts it.
    const ttlMs = 4_000;
    // A's heartbeats pass through here: while A "stalls" (a process paused past its lease) they
    // are not sent, so its lease runs out as a paused process's would.
    let stalled = false;
    const dbA: Database = {
      ...dbs[0],
      query: (sql, params) => (stalled && sql.trim().startsWith('UPDATE wallet_leases SET expires_at') ? Promise.resolve([]) : dbs[0].query(sql, params)),
    };
    const leasesA = await createWalletLeases({ db: dbA, ttlMs, holder: 'a' });
    const leasesB = await createWalletLeases({ db: dbs[1], ttlMs, holder: 'b' });
    // A's second batch stalls until the test lets it go.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const sa = createScriptedSource({ transactions: 200, decoderVersion: 2 });
    const answer = sa.redecode!.bind(sa);
    let aCalls = 0;
    (sa as { redecode: typeof answer }).redecode = async (p) => {
      const out = await answer(p);
      if (++aCalls === 2) {
        stalled = true;
        await gate;
      }
      return out;
    };
    const sb = createScriptedSource({ transactions: 200, decoderVersion: 2 });
    const a = createWalker({
      db: dbA,
      source: sa,
      wallet: await getOrCreateWallet(dbA, 'sol', address),
      headStaleMs: 60_000,
      leases: leasesA,
      redecodeTrades: 30,
    });
    const b = createWalker({
      db: dbs[1],
      source: sb,
      wallet: await getOrCreateWallet(dbs[1], 'sol', address),
      headStaleMs: 60_000,
      leases: leasesB,
      redecodeTrades: 30,
    });
    try {
      a.redecodeIfBehind();
      const deadline = Date.now() + 45_000;
      while (aCalls < 2 && Date.now() < deadline) await sleep(10);
      // B is asked too while A holds the lease: it follows, fetching nothing.
      b.redecodeIfBehind();
      await sleep(300);
      expect(sb.stats.redecodeCalls).toBe(0);
      // A's lease runs out while it stalls; B takes the wallet over and finishes.
      while (b.state.decoderVersion !== 2 && Date.now() < deadline) await b.nextChange(200);
      expect(b.state.decoderVersion).toBe(2);
      const done = (await dbs[1].query<{ json: string }>('SELECT json FROM trades WHERE wallet_id = $1 ORDER BY k DESC', [walletId])).map((r) => r.json);
      expect(done).toEqual(sb.expected(address).map(serializeTrade));
      // A wakes up: its batch is refused by the lease, and it follows B, seeing the version B
      // stored (so its stale write has been tried by then).
      release();
      while (a.state.decoderVersion !== 2 && Date.now() < deadline) await a.nextChange(200);
      expect(a.state.decoderVersion).toBe(2);
      // Nothing changed.
      const after = (await dbs[1].query<{ json: string }>('SELECT json FROM trades WHERE wallet_id = $1 ORDER BY k DESC', [walletId])).map((r) => r.json);
      expect(after).toEqual(done);
      expect((await getWalletById(dbs[1], walletId)).tradeCount).toBe(done.length);
      // Between them, each stored transaction was decoded again; B redid only A's uncommitted batch.
      expect(new Set([...sa.redecoded, ...sb.redecoded])).toEqual(stored);
      expect(sa.redecoded.length + sb.redecoded.length - stored.size).toBeLessThanOrEqual(30);
    } finally {
      stalled = false;
      release();
      await Promise.all([a.stop(), b.stop()]);
      await Promise.all([leasesA.close(), leasesB.close()]);
    }
    // A lease of 4 s to run out, then B's whole re-decode: 45 s of deadlines on a loaded machine.
  }, 90_000);
});
