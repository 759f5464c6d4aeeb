import type { Database } from './database.js';
import { countBetween } from './trades.js';

export interface DeliveredRun {
  accountId: number;
  walletId: number;
  /** Keys of the newest and oldest trade delivered, and how many trades lie between them inclusive. */
  hi: string;
  lo: string;
  count: number;
  /** The exclusive key the read started below (a cursor), or null when it started at the newest trade. */
  after: string | null;
}

/**
 * Counts a delivered run against the account, each trade exactly once per account.
 *
 * What an account has been counted for is kept as closed key intervals per wallet. This is exact
 * because a wallet's stored trades only ever grow at the ends (refresh above the newest, loading
 * below the oldest), so the trades inside [lo, hi] never change once both ends are stored.
 * Intervals instead of one row per trade keep a 1,000,000-trade stream to about one interval.
 *
 * Returns how many trades were newly counted.
 */
export async function meterRun(db: Database, run: DeliveredRun): Promise<number> {
  if (run.count === 0) return 0;
  return db.transaction(async (tx) => {
    // Serialises metering per account across connections and processes.
    await tx.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [run.accountId]);
    // Overlapping intervals, plus the one that ends exactly at the cursor the read started below:
    // nothing can lie between that cursor and this run's newest trade, so the two join.
    const ranges = await tx.query<{ lo: string; hi: string }>(
      `SELECT lo, hi FROM usage_ranges WHERE account_id = $1 AND wallet_id = $2
       AND ((lo <= $3 AND hi >= $4) OR lo = $5)`,
      [run.accountId, run.walletId, run.hi, run.lo, run.after ?? ''],
    );
    let already = 0;
    let lo = run.lo;
    let hi = run.hi;
    for (const r of ranges) {
      const from = r.lo > run.lo ? r.lo : run.lo;
      const to = r.hi < run.hi ? r.hi : run.hi;
      if (from <= to) already += await countBetween(tx, run.walletId, from, to);
      if (r.lo < lo) lo = r.lo;
      if (r.hi > hi) hi = r.hi;
    }
    const fresh = run.count - already;
    if (ranges.length) {
      await tx.query('DELETE FROM usage_ranges WHERE account_id = $1 AND wallet_id = $2 AND lo = ANY($3::text[])', [
        run.accountId,
        run.walletId,
        ranges.map((r) => r.lo),
      ]);
    }
    await tx.query('INSERT INTO usage_ranges (account_id, wallet_id, lo, hi) VALUES ($1, $2, $3, $4)', [run.accountId, run.walletId, lo, hi]);
    if (fresh > 0) await tx.query('UPDATE accounts SET usage_trades = usage_trades + $2 WHERE id = $1', [run.accountId, fresh]);
    return fresh;
  });
}
