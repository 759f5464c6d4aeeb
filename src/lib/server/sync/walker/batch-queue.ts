import type { HistoryBatch } from '../../../core/chain-source.js';

/**
 * Batches pulled from the source and not stored yet: the hand-over between a tail walk's pull
 * stage and its store stage. Counted in trades, so the pull side can be held to a look-ahead
 * bound, and drained whole by the store side, so a slow commit takes everything that queued up
 * meanwhile in one go. One waiter on each side at most (one pump, one store loop).
 */
export interface BatchQueue {
  /** Batches waiting for the store. */
  readonly size: number;
  /** Trades pulled and not stored yet (being stored counts too, until settle). */
  readonly pendingTrades: number;
  /** The pull side ended: the source is done or failed, or nobody wants more. */
  readonly ended: boolean;
  /** What the pull side ended on, when it failed. */
  readonly failure: unknown;
  /** The store side gave up (failed, or the walk ends): the pull side stops. */
  readonly closed: boolean;
  /** The batch queued last, if any is waiting. */
  last(): HistoryBatch | undefined;
  push(b: HistoryBatch): void;
  /** The pull side is done, with the error it ended on, if any. */
  end(failure?: unknown): void;
  /** Everything waiting, oldest first, for one commit. */
  takeAll(): HistoryBatch[];
  /** `trades` taken earlier were stored (or their commit failed): room for the pull side again. */
  settle(trades: number): void;
  close(): void;
  /** Resolves at the next push or at the end of the pull side. */
  untilPushed(): Promise<void>;
  /** Resolves at the next settle or close. */
  untilRoom(): Promise<void>;
}

export function createBatchQueue(): BatchQueue {
  const batches: HistoryBatch[] = [];
  let pendingTrades = 0;
  let ended = false;
  let failure: unknown = null;
  let closed = false;
  let wakeStore: (() => void) | null = null;
  let wakePull: (() => void) | null = null;
  const signal = (side: 'store' | 'pull') => {
    const w = side === 'store' ? wakeStore : wakePull;
    if (side === 'store') wakeStore = null;
    else wakePull = null;
    w?.();
  };
  return {
    get size() {
      return batches.length;
    },
    get pendingTrades() {
      return pendingTrades;
    },
    get ended() {
      return ended;
    },
    get failure() {
      return failure;
    },
    get closed() {
      return closed;
    },
    last: () => batches.at(-1),
    push(b) {
      batches.push(b);
      pendingTrades += b.trades.length;
      signal('store');
    },
    end(e = null) {
      failure = e;
      ended = true;
      signal('store');
    },
    takeAll: () => batches.splice(0),
    settle(trades) {
      pendingTrades -= trades;
      signal('pull');
    },
    close() {
      closed = true;
      signal('pull');
    },
    untilPushed: () => new Promise<void>((r) => (wakeStore = r)),
    untilRoom: () => new Promise<void>((r) => (wakePull = r)),
  };
}
