import type { SourceUnexplained } from '../../../core/activity.js';
import type { SourceTrade } from '../../../core/trade.js';
import { commitBatch } from './commit-batch.js';
import type { Walker } from './walker.js';

/**
 * Walks from the newest point down to the stored head and stores what it found as a whole, so a
 * reader never sees new trades with a gap below them.
 */
export async function refreshHead(w: Walker): Promise<void> {
  const { core } = w;
  if (core.state.headMarker === null) return;
  const collected: SourceTrade[] = [];
  const unexplained: SourceUnexplained[] = [];
  let head: string | undefined;
  for await (const b of w.source.history({ wallet: core.state.address, until: core.state.headMarker, signal: core.abort.signal })) {
    head ??= b.head;
    collected.push(...b.trades);
    if (b.unexplained) unexplained.push(...b.unexplained);
    if (b.done || core.stopping) break;
  }
  if (core.stopping) return;
  await commitBatch(
    w,
    {
      headMarker: head ?? core.state.headMarker,
      headCheckedAt: new Date(core.now()),
      firstTrade: core.state.firstTrade ?? collected.at(-1)?.blockTime ?? null,
    },
    collected,
    unexplained,
  );
  core.notify();
}
