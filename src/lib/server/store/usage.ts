import type { Database } from './database.js';

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
 * because a wallet's stored trades grow at the ends (refresh above the newest, loading below the
 * oldest), and the one change inside [lo, hi] is a re-decode (redecode.ts), which keeps keys: a
 * trade decoded again at a key already counted stays counted (it was delivered), a trade that
 * vanished leaves nothing to count, and a trade at a key no trade had is cut out of every interval
 * spanning it in the re-decode's own transaction (punch_usage, migration 8), so it is counted when
 * delivered. Intervals instead of one row per trade keep a 1,000,000-trade stream to about one interval.
 *
 * Returns how many trades were newly counted.
 */
export async function meterRun(db: Database, run: DeliveredRun): Promise<number> {
  if (run.count === 0) return 0;
  // One statement (migration 3, meter_run): its own transaction, the account row locked first,
  // which serialises metering per account across connections and processes.
  const rows = await db.query<{ fresh: number }>('SELECT meter_run($1, $2, $3, $4, $5, $6) AS fresh', [
    run.accountId,
    run.walletId,
    run.hi,
    run.lo,
    run.count,
    // The interval whose oldest trade is the cursor joins this run: nothing lies between them.
    run.after ?? '',
  ]);
  return Number(rows[0].fresh);
}
