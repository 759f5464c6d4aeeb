import { isHistoryError } from '../../../core/errors.js';
import { refreshHead } from './refresh-head.js';
import { storeTailBatch } from './store-tail-batch.js';
import { walkTail } from './walk-tail.js';
import type { Walker } from './walker.js';

/** Runs refreshes and the tail walk while there is work; resolves true when it stopped on an error. */
export async function walkLoop(w: Walker): Promise<boolean> {
  const { core } = w;
  try {
    while (!core.stopping) {
      if (w.refresh.wanted) {
        await refreshTurn(w);
        continue;
      }
      if (core.state.complete || !core.hasDemand()) return false;
      if (!(await w.lease.mayWalk())) continue;
      if (core.state.complete || !core.hasDemand()) return false;
      try {
        await walkTailOf(w);
      } catch (e) {
        if (core.stopping) return false;
        if (isHistoryError(e, 'lease_lost')) {
          // Another instance took the wallet over (this one stalled past the lease): follow it.
          w.lease.lost();
          continue;
        }
        core.fail(e);
        return true;
      }
    }
    return false;
  } catch (e) {
    core.fail(e);
    return true;
  }
}

/** The wallet's tail walk from the stored position, for as long as someone wants more of it. */
function walkTailOf(w: Walker): Promise<void> {
  const { core } = w;
  return walkTail({
    batches: w.source.history({ wallet: core.state.address, before: core.state.tailPosition ?? undefined, signal: core.abort.signal })[Symbol.asyncIterator](),
    // A refresh wanted goes first: the walk ends at the batch in flight and the loop runs it.
    wantsMore: (pendingTrades) => !core.stopping && !w.refresh.wanted && core.hasDemand(pendingTrades),
    store: (b) => storeTailBatch(w, b),
    storedPosition: () => core.state.tailPosition ?? '',
  });
}

/** The refresh a request wants, counted as tried whatever happens, so the request stops waiting. */
async function refreshTurn(w: Walker): Promise<void> {
  const { core, refresh } = w;
  if (!(await w.lease.mayWalk())) {
    // Another instance holds the wallet: what it stores is read as it comes; its refresh is its own.
    refresh.wanted = false;
    refresh.attempts++;
    core.notify();
    return;
  }
  refresh.wanted = false;
  try {
    await refreshHead(w);
  } catch (e) {
    if (isHistoryError(e, 'lease_lost')) {
      w.lease.lost();
      refresh.attempts++;
      return;
    }
    core.fail(e);
    refresh.failedAt = core.now();
  }
  refresh.attempts++;
  core.notify();
}
