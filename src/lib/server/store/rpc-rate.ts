import type { Queryable } from './database.js';

/**
 * RPC_RPS_<SLUG> shared by every instance on one PostgreSQL database: requests started per chain
 * and second, counted in one row per (chain, second) of the database's clock. A request may
 * start when its second still has room; otherwise it waits for the next second.
 */

/** Claims one start in the current second; when the second is full, says how many ms are left in it. */
export async function claimRpcStart(db: Queryable, chain: string, perSecond: number): Promise<{ ok: true } | { ok: false; waitMs: number }> {
  const rows = await db.query<{ second: number }>(
    `INSERT INTO rpc_rate (chain, second, count) VALUES ($1, floor(extract(epoch FROM clock_timestamp()))::bigint, 1)
     ON CONFLICT (chain, second) DO UPDATE SET count = rpc_rate.count + 1 WHERE rpc_rate.count < $2
     RETURNING second`,
    [chain, perSecond],
  );
  if (rows.length) return { ok: true };
  const t = await db.query<{ ms: number }>(`SELECT (1000 - floor(extract(milliseconds FROM clock_timestamp()))::int % 1000) AS ms`);
  return { ok: false, waitMs: Number(t[0].ms) };
}

/** Drops the counts of seconds that ended over a minute ago. */
export async function pruneRpcRate(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM rpc_rate WHERE second < floor(extract(epoch FROM clock_timestamp()))::bigint - 60`);
}
