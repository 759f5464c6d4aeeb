import { isHistoryError } from '../../../core/errors.js';
import { recordUpstreamFailure } from '../../store/wallets.js';
import { redecodeWanted, startRedecode } from './redecode-wallet.js';
import { refreshHead } from './refresh-head.js';
import { storeTailBatch } from './store-tail-batch.js';
import { walkTail } from './walk-tail.js';
import type { Walker } from './walker.js';

/**
 * Runs refreshes, the tail walk and a re-decode while there is work; resolves true when it stopped
 * on an error. A re-decode runs beside the tail walk and between refreshes (its batches touch
 * only stored transactions, theirs only new ones), under the same lease; the loop ends only when
 * none of the three is left, so the lease is never handed back under a re-decode.
 */
export async function walkLoop(w: Walker): Promise<boolean> {
  const { core } = w;
  try {
    while (!core.stopping) {
      if (w.refresh.wanted) {
        await refreshTurn(w);
        continue;
      }
      if (!tailWanted(w) && !w.redecode.task && !redecodeWanted(w)) return false;
      if (!(await w.lease.mayWalk())) continue;
      startRedecode(w);
      if (tailWanted(w)) {
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
          await recordUpstreamFailure(core.db, core.state.id, e);
          return true;
        }
      } else if (w.redecode.task) {
        // Only the re-decode left: wait for it, or for a request that wants something more.
        await Promise.race([w.redecode.task, w.woken()]);
      }
      if (w.redecode.outcome === 'lease_lost') {
        w.redecode.outcome = null;
        w.lease.lost();
      }
    }
    return false;
  } catch (e) {
    core.fail(e);
    return true;
  } finally {
    // The lease is handed back after the loop: a re-decode still running (the walk failed, the
    // loader stops) ends at its next step first; a later read starts it again.
    w.redecode.abort?.abort();
    await w.redecode.task;
  }
}

/** Someone wants older trades than are stored, and there are some. */
function tailWanted({ core }: Walker): boolean {
  return !core.state.complete && core.hasDemand();
}

/** The wallet's tail walk from the stored position, for as long as someone wants more of it. */
function walkTailOf(w: Walker): Promise<void> {
  const { core } = w;
  return walkTail({
    batches: w.source.history({ wallet: core.state.address, before: core.state.tailPosition ?? undefined, signal: core.abort.signal })[Symbol.asyncIterator](),
    // A refresh wanted goes first: the walk ends at the batch in flight and the loop runs it.
    wantsMore: (pendingTrades) => !core.stopping && !w.refresh.wanted && core.hasDemand(pendingTrades),
    store: async (b) => {
      await storeTailBatch(w, b);
      // A read that found the wallet behind while this walk runs: the commit just proved the
      // lease, so the re-decode starts beside the walk instead of after it.
      startRedecode(w);
    },
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
