import type { Database } from './database.js';
import { migrate } from './migrations.js';

/**
 * Moving a store to another database (the embedded PGlite to a PostgreSQL server, as an operator
 * who outgrows one process does): every table that holds state is copied with its ids, so keys,
 * usage, wallets' load state, trades, unexplained transactions, token metadata, price rounds,
 * webhooks with their pending deliveries and the cursor secret carry over, and cursors issued before the move keep working (they name trade keys, which are copied as they are).
 *
 * Rows move in keyset-ordered chunks as one JSON parameter each (`json_populate_recordset`): one
 * round trip per chunk on both kinds of database and never a whole table in memory.
 */
const TABLES: { name: string; key: string[] }[] = [
  // Parents before children (foreign keys).
  { name: 'settings', key: ['key'] },
  { name: 'accounts', key: ['id'] },
  { name: 'api_keys', key: ['id'] },
  { name: 'wallets', key: ['id'] },
  { name: 'tokens', key: ['chain', 'mint'] },
  { name: 'trades', key: ['wallet_id', 'k'] },
  { name: 'unexplained', key: ['wallet_id', 'k'] },
  { name: 'usage_ranges', key: ['account_id', 'wallet_id', 'lo'] },
  { name: 'price_rounds', key: ['feed', 'round'] },
  { name: 'webhooks', key: ['id'] },
  { name: 'webhook_wallets', key: ['webhook_id', 'wallet_id'] },
  { name: 'webhook_deliveries', key: ['webhook_id', 'seq'] },
];

/** Tables with a serial id: their sequences continue after the copied ids. */
const SERIALS = ['accounts', 'api_keys', 'wallets'];

export interface CopyResult {
  rows: Record<string, number>;
}

export interface CopyStoreParameters {
  from: Database;
  to: Database;
  /** Rows per chunk (default 5,000: about 2 MB of trades). */
  chunkRows?: number;
  onProgress?: (table: string, rows: number) => void;
}

/**
 * Copies `from` into `to`. Both are migrated first (a populated store is migrated in place);
 * `to` must hold no account, wallet or trade yet, so nothing is copied twice or mixed.
 */
export async function copyStore({ from, to, chunkRows = 5_000, onProgress }: CopyStoreParameters): Promise<CopyResult> {
  await migrate(from);
  await migrate(to);
  const occupied = await to.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM accounts) + (SELECT count(*) FROM wallets) + (SELECT count(*) FROM trades) AS n`,
  );
  if (Number(occupied[0].n) > 0) throw new Error('the destination store already holds accounts, wallets or trades: copy into an empty database');
  const rows: Record<string, number> = {};
  await to.transaction(async (tx) => {
    // The destination's own first-start setting (none yet, it is empty) never wins over the source's.
    await tx.query('DELETE FROM settings');
    for (const { name, key } of TABLES) {
      let after: Record<string, unknown> | null = null;
      let n = 0;
      const keyList = key.join(', ');
      for (;;) {
        const where: string = after ? `WHERE (${keyList}) > (${key.map((_, i) => `$${i + 2}`).join(', ')})` : '';
        const params: unknown[] = [chunkRows, ...(after ? key.map((k) => after![k]) : [])];
        const chunk: { rows: string | null; count: number; last: Record<string, unknown> | string | null }[] = await from.query<{
          rows: string | null;
          count: number;
          last: Record<string, unknown> | string | null;
        }>(
          `SELECT json_agg(t ORDER BY ${keyList})::text AS rows, count(*)::int AS count,
                  (array_agg(json_build_object(${key.map((k) => `'${k}', ${k}`).join(', ')}) ORDER BY ${keyList} DESC))[1] AS last
           FROM (SELECT * FROM ${name} ${where} ORDER BY ${keyList} LIMIT $1) t`,
          params,
        );
        const c: (typeof chunk)[number] | undefined = chunk[0];
        if (!c || !c.count) break;
        await tx.query(`INSERT INTO ${name} SELECT * FROM json_populate_recordset(null::${name}, $1::json)`, [c.rows]);
        n += Number(c.count);
        onProgress?.(name, n);
        after = typeof c.last === 'string' ? (JSON.parse(c.last) as Record<string, unknown>) : c.last;
        if (Number(c.count) < chunkRows) break;
      }
      rows[name] = n;
    }
    for (const t of SERIALS) {
      await tx.query(`SELECT setval(pg_get_serial_sequence('${t}', 'id'), coalesce((SELECT max(id) FROM ${t}), 0) + 1, false)`);
    }
  });
  return { rows };
}
