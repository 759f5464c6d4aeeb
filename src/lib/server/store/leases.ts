import type { Queryable } from './database.js';
import { HistoryError } from '../../core/errors.js';

/**
 * Wallet leases (PostgreSQL, several instances on one database): SQL only; the policy (who asks,
 * when to renew) is sync/wallet-leases.ts.
 */

/** The channel every instance LISTENs on; the payload is the wallet id whose stored state changed. */
export const WALLET_CHANNEL = 'wallet_changed';

/** What a write must prove: it comes from the walker holding this generation of the lease. */
export interface LeaseFence {
  holder: string;
  generation: number;
  ttlMs: number;
}

/**
 * Takes the wallet's lease when nobody holds it (never held, handed back, or run out) or `holder`
 * already has it (the generation grows all the same: a walk of this instance that lost track of
 * it is fenced too). The row stays when a lease is handed back, so generations only ever grow.
 * Returns the new generation and who held it before ('' for nobody), or who holds it and until when.
 */
export async function acquireLease(
  db: Queryable,
  walletId: number,
  holder: string,
  ttlMs: number,
): Promise<{ generation: number; previous: string } | { heldBy: string; until: Date }> {
  const rows = await db.query<{ generation: number; previous: string | null }>(
    `WITH prev AS (SELECT holder FROM wallet_leases WHERE wallet_id = $1)
     INSERT INTO wallet_leases (wallet_id, holder, generation, expires_at)
     VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond')
     ON CONFLICT (wallet_id) DO UPDATE
       SET holder = EXCLUDED.holder, generation = wallet_leases.generation + 1, expires_at = EXCLUDED.expires_at
       WHERE wallet_leases.expires_at < now() OR wallet_leases.holder = EXCLUDED.holder OR wallet_leases.holder = ''
     RETURNING generation, (SELECT holder FROM prev) AS previous`,
    [walletId, holder, ttlMs],
  );
  if (rows.length) return { generation: Number(rows[0].generation), previous: rows[0].previous ?? '' };
  const held = await db.query<{ holder: string; expires_at: Date | string }>('SELECT holder, expires_at FROM wallet_leases WHERE wallet_id = $1', [walletId]);
  // Handed back between the two statements: free now.
  if (!held.length || held[0].holder === '') return acquireLease(db, walletId, holder, ttlMs);
  return { heldBy: held[0].holder, until: new Date(held[0].expires_at) };
}

/** Pushes back the expiry of the leases `holder` still has among `walletIds` (a heartbeat). */
export async function extendLeases(db: Queryable, holder: string, walletIds: readonly number[], ttlMs: number): Promise<number> {
  if (!walletIds.length) return 0;
  const rows = await db.query(
    `UPDATE wallet_leases SET expires_at = now() + $3 * interval '1 millisecond'
     WHERE holder = $1 AND wallet_id = ANY ($2::int[]) RETURNING wallet_id`,
    [holder, walletIds, ttlMs],
  );
  return rows.length;
}

/** Hands the lease back (only this generation of it) and wakes the instances following the wallet. */
export async function releaseLease(db: Queryable, walletId: number, holder: string, generation: number): Promise<void> {
  await db.query(
    `WITH gone AS (UPDATE wallet_leases SET holder = '', expires_at = now()
                   WHERE wallet_id = $1 AND holder = $2 AND generation = $3 RETURNING wallet_id)
     SELECT pg_notify('${WALLET_CHANNEL}', wallet_id::text) FROM gone`,
    [walletId, holder, generation],
  );
}

/**
 * Inside a transaction that writes for a walker: renews its lease when this holder still has this
 * generation, and refuses the whole transaction otherwise (`lease_lost`: it is rolled back, so a
 * stale walker writes nothing). The row stays locked until the commit, as storeBatch's one
 * statement does.
 */
export async function proveLease(tx: Queryable, walletId: number, fence: LeaseFence): Promise<void> {
  const rows = await tx.query(
    `UPDATE wallet_leases SET expires_at = now() + $4 * interval '1 millisecond'
     WHERE wallet_id = $1 AND holder = $2 AND generation = $3 RETURNING 1`,
    [walletId, fence.holder, fence.generation, fence.ttlMs],
  );
  if (!rows.length) throw new HistoryError('lease_lost', `wallet ${walletId}: lease generation ${fence.generation} was taken over; the write was refused`);
}
