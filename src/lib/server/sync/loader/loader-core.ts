import { HistoryError, isHistoryError, isRequestFault } from '../../../core/errors.js';
import type { Database } from '../../store/database.js';
import { getWalletById, type WalletState } from '../../store/wallets.js';
import type { PageDemand, WalletLoaderParameters } from '../wallet-loader.js';

/**
 * What the walker and the follower of one wallet share: the wallet as this loader knows it, the
 * pages waiting on it, the change signal every reader waits on, and the error the last walk
 * ended on. One typed object handed to the loader's small parts instead of one closure holding
 * them all.
 */
export interface LoaderCore {
  readonly db: Database;
  readonly chain: string;
  readonly headStaleMs: number;
  readonly now: () => number;
  /** The wallet as this loader knows it; replaced, never mutated, so a reader's snapshot stays. */
  state: WalletState;
  lastError: HistoryError | null;
  /** Set once by stop(): every part ends at its next boundary. */
  stopping: boolean;
  /** Aborts the source's requests and the waits on other instances at stop(). */
  readonly abort: AbortController;
  /** Store work of this loader: commits, trades stored, milliseconds inside commits. */
  readonly stats: { commits: number; trades: number; commitMs: number };
  /** Grows at every notify(). */
  readonly version: number;
  /** Wakes everyone waiting for a change (a stored batch, an error, the walk stopping). */
  notify(): void;
  /** Resolves at the next notify(). */
  changed(): Promise<void>;
  /** Resolves at the next change after `since`, or after `ms`. */
  nextChange(ms: number, since?: number): Promise<void>;
  /** Demand left once `pending` trades pulled but not yet stored are counted toward the pages' wants. */
  hasDemand(pending?: number): boolean;
  /** A page's demand of `count` more trades, until it is cancelled. */
  addFill(count: number): PageDemand;
  /** Trades just stored for this wallet (here or by another instance) count toward every page waiting. */
  filled(trades: number): void;
  /**
   * The state as stored: another instance walked the wallet meanwhile. What it stored counts
   * toward the pages waiting here, as this loader's own batches would.
   */
  reloadState(): Promise<void>;
  /** Waits for `wake` (another instance's commit, or a timeout), then reads the state as stored and tells the readers. */
  catchUp(wake: Promise<void>): Promise<void>;
  /** The head was checked longer ago than the staleness window (and there is a head to refresh). */
  headIsStale(): boolean;
  /** Records the error a walk ended on (lastError, the onError log) and returns it. */
  fail(e: unknown): HistoryError;
}

interface Fill {
  remaining: number;
}

export function createLoaderCore({ db, wallet, headStaleMs, onError, now = Date.now }: WalletLoaderParameters): LoaderCore {
  const fills = new Set<Fill>();
  let waiters: (() => void)[] = [];
  let version = 0;

  // What ends a walk is never the client's fault: a source's error with a request code is
  // reported as the upstream's, keeping the original as the cause.
  const toHistoryError = (e: unknown): HistoryError =>
    isHistoryError(e) && !isRequestFault(e.code)
      ? e
      : new HistoryError('upstream_unavailable', `The ${wallet.chain} source failed: ${(e as Error)?.message ?? e}`, { cause: e });

  const core: LoaderCore = {
    db,
    chain: wallet.chain,
    headStaleMs,
    now,
    state: { ...wallet },
    lastError: null,
    stopping: false,
    abort: new AbortController(),
    stats: { commits: 0, trades: 0, commitMs: 0 },
    get version() {
      return version;
    },
    notify() {
      version++;
      const w = waiters;
      waiters = [];
      for (const f of w) f();
    },
    changed: () => new Promise<void>((r) => waiters.push(r)),
    nextChange(ms, since) {
      if (since !== undefined && since !== version) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const t = setTimeout(done, ms);
        function done() {
          clearTimeout(t);
          resolve();
        }
        waiters.push(done);
      });
    },
    hasDemand: (pending = 0) => core.state.loadAll || [...fills].some((f) => f.remaining - pending > 0),
    addFill(count) {
      const fill: Fill = { remaining: count };
      fills.add(fill);
      return {
        cancel: () => fills.delete(fill),
        get remaining() {
          return fill.remaining;
        },
      };
    },
    filled(trades) {
      for (const f of fills) f.remaining -= trades;
    },
    async reloadState() {
      const fresh = await getWalletById(db, core.state.id);
      const added = fresh.tradeCount - core.state.tradeCount;
      core.state = { ...fresh, loadAll: core.state.loadAll || fresh.loadAll };
      if (added > 0) core.filled(added);
    },
    async catchUp(wake) {
      await wake;
      if (core.stopping) return;
      await core.reloadState();
      core.notify();
    },
    headIsStale() {
      if (core.state.headMarker === null || core.stopping) return false;
      const checked = core.state.headCheckedAt?.getTime() ?? 0;
      return now() - checked >= headStaleMs;
    },
    fail(e) {
      core.lastError = toHistoryError(e);
      onError?.(core.lastError);
      return core.lastError;
    },
  };
  return core;
}
