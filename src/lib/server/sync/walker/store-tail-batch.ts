import type { HistoryBatch } from '../../../core/chain-source.js';
import { commitBatch } from './commit-batch.js';
import type { Walker } from './walker.js';

/** The tail walk's store stage: one batch (or several merged) and the position it reached, in one commit. */
export async function storeTailBatch(w: Walker, b: HistoryBatch): Promise<void> {
  const { core } = w;
  const oldest = b.trades.at(-1);
  const first = core.state.headMarker === null;
  const inserted = await commitBatch(
    w,
    {
      tailPosition: b.position,
      headMarker: core.state.headMarker ?? b.head ?? null,
      headCheckedAt: first ? new Date(core.now()) : core.state.headCheckedAt,
      firstTrade: oldest ? oldest.blockTime : core.state.firstTrade,
      complete: b.done,
    },
    b.trades,
    b.unexplained,
  );
  core.filled(inserted);
  core.lastError = null;
  w.retry.reset();
  core.notify();
}
