import type { SourceUnexplained } from '../../../core/activity.js';
import type { SourceTrade } from '../../../core/trade.js';
import { storeBatch } from '../../store/trades.js';
import type { WalletState } from '../../store/wallets.js';
import type { Walker } from './walker.js';

/**
 * Stores trades (and the unexplained transactions read with them) and the state they move the wallet to, in one statement (under the lease held,
 * when there are leases). `patch` is applied over the state as it is when the write finishes, so
 * a change made meanwhile (loadAll) stays. Returns how many trades were new.
 */
export async function commitBatch(
  { core, lease, statistics, source, onStored }: Walker,
  patch: Partial<WalletState>,
  trades: readonly SourceTrade[],
  unexplained: readonly SourceUnexplained[] = [],
): Promise<number> {
  const t0 = performance.now();
  // The count as stored, not ours plus what this batch added: rows stored by another process
  // on the same database (or by a commit whose answer was lost) count too, and a stream's first
  // wait skips reading while this says 0.
  // The trades are this source's decoding: a wallet with none stored yet takes its version.
  const { inserted, tradeCount, decoderVersion, unexplainedCount, announced } = await storeBatch(
    core.db,
    { ...core.state, ...patch },
    trades,
    lease.fence(),
    source.decoderVersion,
    unexplained,
  );
  core.state = { ...core.state, ...patch, tradeCount, decoderVersion, unexplainedCount };
  core.stats.commits++;
  core.stats.trades += inserted;
  core.stats.commitMs += performance.now() - t0;
  statistics?.inserted(inserted);
  if (inserted) onStored?.(core.state.id, trades, announced);
  return inserted;
}
