import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/lib/server/store/database.js';
import { migrate } from '../../src/lib/server/store/migrations.js';
import { acquireRealtimeLease, followedWallets, publishFollows, releaseRealtimeLease } from '../../src/lib/server/store/realtime.js';
import { createSharedRealtime, type SharedRealtime } from '../../src/lib/server/sync/realtime/shared-realtime.js';
import { until } from '../support/until.js';

/**
 * The realtime stage's lease and the published follows (issue 24), on the embedded store's SQL
 * (the same statements PostgreSQL runs): "instances" here are coordinators in one process, each
 * with its own holder name. A dead instance is one whose queries never return: it renews nothing
 * and hands nothing back, as after kill -9.
 */
let db: Database;
beforeAll(async () => {
  db = await openDatabase({ dataDir: 'memory://' });
  await migrate(db);
});
afterAll(() => db?.close());

describe('realtime leases', () => {
  it('one holder per chain until its lease runs out; follows expire with their instance', async () => {
    // Leases of a minute while holding matters (no clock in the outcome), then x's last renewal is
    // a short one: y gets the chain once it has run out.
    expect(await acquireRealtimeLease(db, 'eth', 'x', 60_000)).toBe(true);
    expect(await acquireRealtimeLease(db, 'eth', 'y', 60_000)).toBe(false);
    // Renewing is taking it again.
    expect(await acquireRealtimeLease(db, 'eth', 'x', 50)).toBe(true);
    let got = false;
    await until('y takes eth', async () => (got = await acquireRealtimeLease(db, 'eth', 'y', 60_000)), 5_000);
    expect(got).toBe(true);

    await publishFollows(db, 'x', [{ chain: 'eth', address: '0xa' }], 60_000);
    await publishFollows(
      db,
      'y',
      [
        { chain: 'eth', address: '0xa' },
        { chain: 'eth', address: '0xb' },
      ],
      60_000,
    );
    expect((await followedWallets(db, 'eth')).sort()).toEqual(['0xa', '0xb']);
    // y stops following 0xa: x's row (not yet expired) still names it.
    await publishFollows(db, 'y', [{ chain: 'eth', address: '0xb' }], 60_000);
    expect((await followedWallets(db, 'eth')).sort()).toEqual(['0xa', '0xb']);
    // x's last renewal is a short one, and x stops: once its row expires, 0xa is no longer anyone's.
    await publishFollows(db, 'x', [{ chain: 'eth', address: '0xa' }], 50);
    let left: string[] = [];
    await until('x’s row expiring', async () => (left = await followedWallets(db, 'eth')).length === 1, 5_000);
    expect(left).toEqual(['0xb']);
    await publishFollows(db, 'y', [], 60_000);
    expect(await followedWallets(db, 'eth')).toEqual([]);
    await releaseRealtimeLease(db, 'eth', 'y');
  });

  it('a stage whose instance died is taken over once its lease runs out', async () => {
    const ttlMs = 2_000;
    let dead = false;
    /** When x last renewed its lease (the statement's answer), measured from there. */
    let renewedAt = 0;
    // x's connection: every query hangs once x "dies".
    const xdb: Database = {
      ...db,
      query: async (sql: string, params?: unknown[]) => {
        if (dead) return new Promise(() => {});
        const rows = await db.query(sql, params);
        if (sql.includes('INSERT INTO realtime_leases') && rows.length) renewedAt = Date.now();
        return rows;
      },
    } as Database;
    const running = { x: new Set<string>(), y: new Set<string>() };
    const coordinator = (name: 'x' | 'y', on: Database, local: { chain: string; address: string }[]) =>
      createSharedRealtime({
        db: on,
        holder: name,
        ttlMs,
        local: () => local,
        runsStages: true,
        onLease: (chain, held) => void (held ? running[name].add(chain) : running[name].delete(chain)),
      });
    const x: SharedRealtime = await coordinator('x', xdb, [{ chain: 'base', address: '0x1' }]);
    await until('x runs base', () => running.x.has('base'), 3_000);
    const y = await coordinator('y', db, [{ chain: 'base', address: '0x2' }]);
    // y publishes 0x2; x, the holder, reads it on y's NOTIFY.
    await until('x polls both wallets', () => x.wallets('base').sort().join() === '0x1,0x2', 3_000);
    expect(running.y.has('base')).toBe(false);
    expect(y.wallets('base')).toEqual(['0x2']);

    dead = true;
    await until('y takes base over', () => running.y.has('base'), 15_000);
    // Not before x's lease ran out (2 s after its last renewal); soon after it (a beat, 667 ms, on an idle machine).
    const after = Date.now() - renewedAt;
    expect(after).toBeGreaterThanOrEqual(ttlMs - 100);
    expect(after).toBeLessThan(ttlMs + 5_000);
    // x's follow of 0x1 expires with it: the new holder's stage polls only 0x2.
    await until('0x1 gone from the list', () => y.wallets('base').join() === '0x2', 3_000);
    await y.close();
    expect(running.y.size).toBe(0);
  });

  it('a NOTIFY that comes while a round lets a chain go cannot leave the lease held with no stage', async () => {
    // Instance A's database: a NOTIFY for eth arrives while its round reads which chains are followed.
    let notify: ((payload: string) => void) | null = null;
    let injectAt: string | null = null;
    const adb = {
      ...db,
      query: async (sql: string, params?: unknown[]) => {
        const rows = db.query(sql, params);
        if (injectAt && sql.includes(injectAt)) {
          injectAt = null;
          queueMicrotask(() => notify!('eth'));
        }
        return rows;
      },
      listen: async (_channel: string, fn: (payload: string) => void) => ((notify = fn), async () => {}),
    } as Database;
    let local = [{ chain: 'eth', address: '0xa1' }];
    const events: string[] = [];
    const a = await createSharedRealtime({
      db: adb,
      holder: 'A',
      ttlMs: 30_000,
      local: () => local,
      runsStages: true,
      onLease: (c, held) => void events.push(`${c}:${held}`),
    });
    await until('A runs eth', () => events.join() === 'eth:true', 3_000);
    // A's last follower leaves; the NOTIFY (another instance's new follow) lands mid-round.
    local = [];
    injectAt = 'SELECT DISTINCT chain';
    a.changed('eth', false);
    await until('A lets eth go', () => events.join() === 'eth:true,eth:false', 3_000);
    await new Promise((r) => setTimeout(r, 200));
    // What A says it runs is what it was told to run: nothing, and the lease is free for another.
    expect(a.running()).toEqual([]);
    expect(await acquireRealtimeLease(db, 'eth', 'B', 300)).toBe(true);
    await a.close();
    await publishFollows(db, 'A', [], 1);
  });

  it('a follow added while a publish is in flight is announced only after a publish that has it', async () => {
    const seen: string[][] = [];
    let during: (() => void) | null = null;
    const bdb = {
      ...db,
      query: async (sql: string, params?: unknown[]) => {
        // What the other instances find when the NOTIFY reaches them.
        if (sql.includes('pg_notify')) seen.push(await followedWallets(db, 'bsc'));
        const rows = db.query(sql, params);
        if (during && sql.includes('INSERT INTO realtime_follows')) {
          const f = during;
          during = null;
          queueMicrotask(f);
        }
        return rows;
      },
      listen: async () => async () => {},
    } as Database;
    let local: { chain: string; address: string }[] = [];
    const b = await createSharedRealtime({ db: bdb, holder: 'api-B', ttlMs: 30_000, local: () => local, runsStages: false, onLease: () => {} });
    await new Promise((r) => setTimeout(r, 100));
    during = () => {
      local = [{ chain: 'bsc', address: '0xb1' }];
      b.changed('bsc', true);
    };
    b.changed('bsc', false);
    await until('the announcement', () => seen.length > 0, 3_000);
    expect(seen[0]).toEqual(['0xb1']);
    await b.close();
  });
});
