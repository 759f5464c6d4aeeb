import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/lib/server/store/database.js';
import { migrate } from '../../src/lib/server/store/migrations.js';
import { createTestDatabase } from '../support/test-server.js';

/**
 * The schema's path past one database (docs/scale-out.md): every statement on a wallet-scoped
 * table names the wallet, so that a sharded PostgreSQL routes it to one shard, and the hot reads
 * use the trades table's primary key. Read from the store's source, so a new query that scans
 * across wallets fails here until it is named below with its reason.
 */
const STORE = join(import.meta.dirname, '../../src/lib/server/store');
/** Tables whose rows belong to one wallet, and the column that names it. */
const WALLET_SCOPED: Record<string, RegExp> = {
  trades: /\bwallet_id\s*=\s*\$\d|INSERT INTO trades \(wallet_id/,
  usage_ranges: /\bwallet_id\s*=\s*\$\d/,
  wallet_leases: /\bwallet_id\s*=\s*(ANY\s*)?\(?\$\d/,
  wallets: /\bid\s*=\s*\$1\b|INSERT INTO wallets \(chain, address\)/,
};
/** Statements that cross wallets on purpose: sweeps at start and every 30 s, a one-off copy, counts for an operator. */
const SWEEPS = [
  /WHERE \(+load_all AND NOT complete/,
  /refresh_wanted FROM wallets\s+WHERE \(\$1::int IS NULL OR id = \$1\)/,
  /\(SELECT count\(\*\) FROM wallets\)/,
];

function statements(): Array<{ file: string; sql: string }> {
  const out: Array<{ file: string; sql: string }> = [];
  for (const f of readdirSync(STORE).filter((n) => n.endsWith('.ts') && n !== 'migrations.ts')) {
    const src = readFileSync(join(STORE, f), 'utf8');
    // String and template literals that hold SQL (a verb followed by a table).
    for (const m of src.matchAll(/`([^`]*)`|'((?:[^'\\\n]|\\.)*)'/g)) {
      const sql = m[1] ?? m[2];
      if (/\b(SELECT|INSERT|UPDATE|DELETE)\b[\s\S]*\b(FROM|INTO|wallet_leases|wallets|trades)\b/.test(sql)) out.push({ file: f, sql });
    }
  }
  return out;
}

describe('wallet-scoped statements', () => {
  it('every statement on trades, usage_ranges, wallet_leases or wallets names its wallet', () => {
    const found = statements();
    expect(found.length).toBeGreaterThan(15);
    const unscoped: string[] = [];
    for (const { file, sql } of found) {
      if (SWEEPS.some((s) => s.test(sql))) continue;
      for (const [table, key] of Object.entries(WALLET_SCOPED)) {
        const touches = new RegExp(`\\b(FROM|INTO|UPDATE|JOIN)\\s+${table}\\b`).test(sql);
        if (touches && !key.test(sql)) unscoped.push(`${file} (${table}): ${sql.replace(/\s+/g, ' ').slice(0, 160)}`);
      }
    }
    expect(unscoped).toEqual([]);
  });
});

const run = process.env.TEST_DATABASE_URL ? describe : describe.skip;

run('the hot reads on plain PostgreSQL', () => {
  let test: { url: string; drop(): Promise<void> };
  let db: Database;
  beforeAll(async () => {
    test = await createTestDatabase();
    db = await openDatabase({ url: test.url });
    await migrate(db);
    // 50 wallets of 2,000 trades: enough rows that a scan would be chosen if the key did not serve.
    await db.query(`INSERT INTO wallets (chain, address) SELECT 'sol', 'w' || i FROM generate_series(1, 50) i`);
    await db.query(
      `INSERT INTO trades (wallet_id, k, signature, leg, json)
       SELECT w, lpad(i::text, 12, '0') || '.000000', 's' || w || '-' || i, 0, '{}' FROM generate_series(1, 50) w, generate_series(1, 2000) i`,
    );
    await db.query('ANALYZE trades');
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await test?.drop();
  });

  it('a run, a page bound and a count below a cursor each use the primary key of one wallet', async () => {
    const plan = async (sql: string, params: unknown[]) =>
      (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).map((r) => r['QUERY PLAN']).join('\n');
    const reads = [
      [`SELECT k, json FROM trades WHERE wallet_id = $1 AND k < $2 AND k >= $3 AND k <= $5 ORDER BY k DESC LIMIT $4`, [7, '~', '', 1000, '~']],
      [`SELECT k FROM trades WHERE wallet_id = $1 AND k < $2 AND k <= $4 ORDER BY k DESC LIMIT $3`, [7, '000000001500', 1000, '~']],
      [`SELECT 1 FROM trades WHERE wallet_id = $1 AND k < $2 ORDER BY k DESC LIMIT $3`, [7, '000000001500', 1000]],
    ] as const;
    for (const [sql, params] of reads) {
      const p = await plan(sql, [...params]);
      expect(p).toMatch(/Index (Only )?Scan Backward using trades_pkey on trades/);
      expect(p).not.toMatch(/Seq Scan/);
    }
  });
});
