import type { Queryable } from './database.js';

/**
 * One realtime stage per chain across instances (issue 24): SQL only; the policy (when to publish,
 * who runs a chain's stage) is sync/realtime/shared-realtime.ts.
 */

/** NOTIFY'd with the chain's slug when an instance starts following a wallet the others may not know yet. */
export const REALTIME_CHANNEL = 'realtime_follows';

/**
 * This instance's followed wallets, all of them: each row's expiry pushed to `ttlMs` from now,
 * wallets no longer followed here removed, and rows of instances long gone (expired over a minute
 * ago) cleared. One statement, so a reader sees the old list or the new one.
 */
export async function publishFollows(db: Queryable, holder: string, follows: readonly { chain: string; address: string }[], ttlMs: number): Promise<void> {
  await db.query(
    `WITH mine AS (SELECT * FROM unnest($2::text[], $3::text[]) AS m(chain, address)),
     gone AS (
       DELETE FROM realtime_follows f
       WHERE (f.holder = $1 AND NOT EXISTS (SELECT 1 FROM mine WHERE mine.chain = f.chain AND mine.address = f.address))
          OR f.expires_at < now() - interval '1 minute'
     )
     INSERT INTO realtime_follows (chain, address, holder, expires_at)
     SELECT chain, address, $1, now() + $4 * interval '1 millisecond' FROM mine
     ON CONFLICT (chain, address, holder) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
    [holder, follows.map((f) => f.chain), follows.map((f) => f.address), ttlMs],
  );
}

/** Tells the other instances that `chain` has a newly followed wallet (the stage's holder reads its list again). */
export async function announceFollow(db: Queryable, chain: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [REALTIME_CHANNEL, chain]);
}

/** The chains someone follows a wallet of, on any instance. */
export async function followedChains(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ chain: string }>('SELECT DISTINCT chain FROM realtime_follows WHERE expires_at > now()');
  return rows.map((r) => r.chain);
}

/** A chain's followed wallets, on every instance (stored form). */
export async function followedWallets(db: Queryable, chain: string): Promise<string[]> {
  const rows = await db.query<{ address: string }>('SELECT DISTINCT address FROM realtime_follows WHERE chain = $1 AND expires_at > now()', [chain]);
  return rows.map((r) => r.address);
}

/**
 * Takes or renews the chain's stage lease: granted when nobody holds it, it ran out, or `holder`
 * has it already (then only the expiry moves; the generation grows when it changes hands).
 */
export async function acquireRealtimeLease(db: Queryable, chain: string, holder: string, ttlMs: number): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO realtime_leases (chain, holder, generation, expires_at)
     VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond')
     ON CONFLICT (chain) DO UPDATE
       SET generation = realtime_leases.generation + (realtime_leases.holder <> EXCLUDED.holder)::int,
           holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE realtime_leases.expires_at < now() OR realtime_leases.holder = EXCLUDED.holder OR realtime_leases.holder = ''
     RETURNING 1`,
    [chain, holder, ttlMs],
  );
  return rows.length > 0;
}

/** Hands the chain's stage back (only if `holder` has it), so another instance takes it at once. */
export async function releaseRealtimeLease(db: Queryable, chain: string, holder: string): Promise<void> {
  await db.query(`UPDATE realtime_leases SET holder = '', expires_at = now() WHERE chain = $1 AND holder = $2`, [chain, holder]);
}
