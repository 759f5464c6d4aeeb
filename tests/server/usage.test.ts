import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/lib/server/store/database.js';
import { migrate } from '../../src/lib/server/store/migrations.js';
import { meterRun } from '../../src/lib/server/store/usage.js';
import { createTestDatabase, STREAM_BACKENDS } from '../support/test-server.js';

/** Keys k01 (oldest) .. k20 (newest), as the store orders them. */
const k = (n: number) => `0000${String(n).padStart(2, '0')}:9`;

// Also on a database whose default collation is ICU: the function compares keys in C order.
describe.each(STREAM_BACKENDS)('meterRun on %s', (backend) => {
  let db: Database;
  let drop: (() => Promise<void>) | undefined;
  let wallet: number;
  const [alice, bob] = [1, 2];

  beforeAll(async () => {
    if (backend !== 'pglite') {
      const t = await createTestDatabase({ icu: backend === 'postgres-icu' });
      drop = t.drop;
      db = await openDatabase({ url: t.url });
    } else db = await openDatabase({ dataDir: 'memory://' });
    await migrate(db);
    await db.query(`INSERT INTO accounts (id, name) VALUES (1, 'alice'), (2, 'bob')`);
    wallet = (await db.query<{ id: number }>(`INSERT INTO wallets (chain, address) VALUES ('sol', 'w') RETURNING id`))[0].id;
    for (let n = 1; n <= 20; n++) {
      await db.query('INSERT INTO trades (wallet_id, k, signature, leg, json) VALUES ($1, $2, $3, 0, $4)', [wallet, k(n), `s${n}`, '{}']);
    }
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  const ranges = async (account: number) =>
    (await db.query<{ lo: string; hi: string }>('SELECT lo, hi FROM usage_ranges WHERE account_id = $1 ORDER BY lo', [account])).map((r) => `${r.lo}..${r.hi}`);
  const usage = async (account: number) => Number((await db.query<{ u: number }>('SELECT usage_trades AS u FROM accounts WHERE id = $1', [account]))[0].u);
  const meter = (accountId: number, hi: number, lo: number, after: number | null) =>
    meterRun(db, { accountId, walletId: wallet, hi: k(hi), lo: k(lo), count: hi - lo + 1, after: after === null ? null : k(after) });

  it('counts a trade once per account, joining what it counted into intervals', async () => {
    // A stream's first line: k10..k06, from the top.
    expect(await meter(alice, 10, 6, null)).toBe(5);
    // Read again: nothing new.
    expect(await meter(alice, 10, 6, null)).toBe(0);
    // A read that overlaps the bottom of it: k08..k03, of which k05..k03 are new; one interval.
    expect(await meter(alice, 8, 3, null)).toBe(3);
    expect(await ranges(alice)).toEqual([`${k(3)}..${k(10)}`]);
    // The next line below the cursor k03: k02..k01, joined to the interval the cursor ends.
    expect(await meter(alice, 2, 1, 3)).toBe(2);
    expect(await ranges(alice)).toEqual([`${k(1)}..${k(10)}`]);
    // A run apart from it (k20..k15): a second interval.
    expect(await meter(alice, 20, 15, null)).toBe(6);
    expect(await ranges(alice)).toEqual([`${k(1)}..${k(10)}`, `${k(15)}..${k(20)}`]);
    // One run across both and the gap between them: only k14..k11 are new, and all is one.
    expect(await meter(alice, 20, 1, null)).toBe(4);
    expect(await ranges(alice)).toEqual([`${k(1)}..${k(20)}`]);
    expect(await usage(alice)).toBe(20);
    // Another account starts from nothing.
    expect(await meter(bob, 12, 9, null)).toBe(4);
    expect(await usage(bob)).toBe(4);
    expect(await usage(alice)).toBe(20);
  });

  it('counts once when the same run is metered concurrently', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => meter(bob, 20, 13, null)));
    // k13..k20 beside bob's k09..k12 (touching, not overlapping, and no cursor joins them): 8 new,
    // whichever call counted them, in an interval of their own.
    expect(results.reduce((a, b) => a + b, 0)).toBe(8);
    expect(await usage(bob)).toBe(12);
    expect(await ranges(bob)).toEqual([`${k(9)}..${k(12)}`, `${k(13)}..${k(20)}`]);
  });

  it('after a re-decode: a key no trade had is cut out of the intervals and counted once; the rest, and cursor joins, stay', async () => {
    // A wallet of its own: k01..k10, all counted for alice; bob has k06..k10 and his cursor at k06.
    const w = (await db.query<{ id: number }>(`INSERT INTO wallets (chain, address) VALUES ('sol', 'w2') RETURNING id`))[0].id;
    const put = (key: string) => db.query('INSERT INTO trades (wallet_id, k, signature, leg, json) VALUES ($1, $2, $3, 0, $4)', [w, key, `x${key}`, '{}']);
    for (let n = 1; n <= 10; n++) await put(k(n));
    const run = (account: number, hi: string, lo: string, count: number, after: string | null) =>
      meterRun(db, { accountId: account, walletId: w, hi, lo, count, after });
    const rangesOf = async (account: number) =>
      (await db.query<{ lo: string; hi: string }>('SELECT lo, hi FROM usage_ranges WHERE account_id = $1 AND wallet_id = $2 ORDER BY lo', [account, w])).map(
        (r) => `${r.lo}..${r.hi}`,
      );
    expect(await run(alice, k(10), k(1), 10, null)).toBe(10);
    expect(await run(bob, k(10), k(6), 5, null)).toBe(5);
    const [a0, b0] = [await usage(alice), await usage(bob)];
    // The re-decode: k07 vanishes; two legs appear at keys no trade had (a transaction's leg 4 sorts
    // below its leg 0): one inside alice's interval only (between k03 and k04), one inside both
    // (between k07, gone, and k08).
    const n4 = '000004:5';
    const n8 = '000008:5';
    await db.query('DELETE FROM trades WHERE wallet_id = $1 AND k = $2', [w, k(7)]);
    await put(n4);
    await put(n8);
    await db.query('SELECT punch_usage($1, $2::text[])', [w, [n4, n8]]);
    expect(await rangesOf(alice)).toEqual([`${k(1)}..${k(3)}`, `${k(4)}..${k(6)}`, `${k(8)}..${k(10)}`]);
    // Bob's lower piece keeps its bound k06, where his cursor is.
    expect(await rangesOf(bob)).toEqual([`${k(6)}..${k(6)}`, `${k(8)}..${k(10)}`]);
    // Alice reads the whole wallet again (11 trades): only the two new keys count.
    expect(await run(alice, k(10), k(1), 11, null)).toBe(2);
    expect(await rangesOf(alice)).toEqual([`${k(1)}..${k(10)}`]);
    // Bob resumes below his cursor (k05, k04, n4, k03..k01: 6 trades, none his): joined to the piece at k06.
    expect(await run(bob, k(5), k(1), 6, k(6))).toBe(6);
    expect(await rangesOf(bob)).toEqual([`${k(1)}..${k(6)}`, `${k(8)}..${k(10)}`]);
    // Then from the top: n8 is the one trade he never had.
    expect(await run(bob, k(10), k(1), 11, null)).toBe(1);
    expect(await run(bob, k(10), k(1), 11, null)).toBe(0);
    expect(await usage(alice)).toBe(a0 + 2);
    expect(await usage(bob)).toBe(b0 + 7);
  });
});
