import type { ChainSource, HistoryBatch } from '../../core/chain-source.js';
import { HistoryError, isHistoryError, isRequestFault } from '../../core/errors.js';
import type { SourceTrade } from '../../core/trade.js';
import type { Database } from '../store/database.js';
import type { StatisticsKeeper } from '../store/statistics.js';
import { storeBatch } from '../store/trades.js';
import { getWalletById, recordDemand, setLoadAll, type WalletState } from '../store/wallets.js';
import type { WalletLeases } from './wallet-leases.js';
import { sleep } from '../../core/wait.js';

/**
 * The one loader of a (chain, wallet): however many requests arrive, one walk runs.
 *
 * It walks toward older history only while someone wants it: a stream wants the whole history
 * (and keeps wanting it after the client left), a page wants "N more trades". Between batches it
 * checks the demand, so `limit=10` costs at most the batch that crossed 10. Each batch is stored
 * with the position reached in one transaction: a crash loses at most the batch in flight.
 * A refresh walks from the newest point down to the stored head and is stored as a whole, so a
 * reader never sees new trades with a gap below them.
 */
export interface WalletLoader {
  readonly state: Readonly<WalletState>;
  /** The error that stopped the last walk, until a walk succeeds again. */
  readonly lastError: HistoryError | null;
  readonly running: boolean;
  /** Grows at every change; pass it to nextChange so a change between a read and the wait is not missed. */
  readonly version: number;
  /** Store work of this loader: commits, trades stored, milliseconds inside commits. */
  readonly stats: { commits: number; trades: number; commitMs: number };
  /** Load the whole history, in the background if need be. */
  wantAll(): Promise<void>;
  /** Load `count` more trades below what is stored. Cancel when the request ends. */
  wantMore(count: number): { cancel(): void; readonly remaining: number };
  /** When the head was checked longer ago than the staleness window, fetch it now; resolves when done or failed. */
  refreshIfStale(): Promise<void>;
  /** Resolves at the next change after `since` (a stored batch, an error, the walk stopping) or after `ms`. */
  nextChange(ms: number, since?: number): Promise<void>;
  /** Stops the walk (at a batch boundary) and waits for it; used at shutdown. */
  stop(): Promise<void>;
}

export interface CreateWalletLoaderParameters {
  db: Database;
  source: ChainSource;
  wallet: WalletState;
  headStaleMs: number;
  /** Told of every insert, to keep the planner's statistics fresh during bulk loads. */
  statistics?: StatisticsKeeper;
  /** Called with errors a walk ended on (logging). */
  onError?: (e: HistoryError) => void;
  now?: () => number;
  /**
   * Several instances on one database: walk only while holding the wallet's lease; otherwise
   * follow the instance that holds it (its commits wake this loader).
   */
  leases?: WalletLeases;
  /**
   * False on an API-only instance (ROLE=api): it never walks; what requests want is recorded in
   * the database for the workers, and what they store is read as it comes.
   */
  walks?: boolean;
}

const REFRESH_RETRY_MS = 30_000;

/** Look-ahead bound of a walk: about 7 MB of trades waiting for the store at most. */
const MAX_PENDING_TRADES = 20_000;

interface Fill {
  remaining: number;
}

export function createWalletLoader({
  db,
  source,
  wallet,
  headStaleMs,
  statistics,
  onError,
  now = Date.now,
  leases,
  walks = true,
}: CreateWalletLoaderParameters): WalletLoader {
  let state: WalletState = { ...wallet };
  let lastError: HistoryError | null = null;
  let running: Promise<void> | null = null;
  let refreshWanted = false;
  let refreshing: Promise<void> | null = null;
  let refreshAttempts = 0;
  /** When the last refresh failed: requests do not wait on another one for a while. */
  let refreshFailedAt = -Infinity;
  /** An API-only instance: when it last asked the workers for a refresh. */
  let refreshAskedAt = -Infinity;
  let stopping = false;
  const abort = new AbortController();
  const fills = new Set<Fill>();
  let waiters: (() => void)[] = [];
  let version = 0;
  const stats = { commits: 0, trades: 0, commitMs: 0 };

  const notify = () => {
    version++;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  /** Demand left once `pending` trades pulled but not yet stored are counted toward the pages' wants. */
  const hasDemand = (pending = 0) => state.loadAll || [...fills].some((f) => f.remaining - pending > 0);

  // What ends a walk is never the client's fault: a source's error with a request code is
  // reported as the upstream's, keeping the original as the cause.
  const toHistoryError = (e: unknown): HistoryError =>
    isHistoryError(e) && !isRequestFault(e.code)
      ? e
      : new HistoryError('upstream_unavailable', `The ${source.chain} source failed: ${(e as Error)?.message ?? e}`, { cause: e });

  /**
   * Stores trades and the state they move the wallet to, in one statement. `patch` is applied
   * over the state as it is when the write finishes, so a change made meanwhile (loadAll) stays.
   */
  async function commit(patch: Partial<WalletState>, trades: readonly SourceTrade[]): Promise<number> {
    const t0 = performance.now();
    // The count as stored, not ours plus what this batch added: rows stored by another process
    // on the same database (or by a commit whose answer was lost) count too, and a stream's first
    // wait skips reading while this says 0.
    const { inserted, tradeCount } = await storeBatch(db, { ...state, ...patch }, trades, lease ? leases?.fence(lease.generation) : undefined);
    state = { ...state, ...patch, tradeCount };
    stats.commits++;
    stats.trades += inserted;
    stats.commitMs += performance.now() - t0;
    statistics?.inserted(inserted);
    return inserted;
  }

  async function storeTailBatch(b: HistoryBatch): Promise<void> {
    const oldest = b.trades.at(-1);
    const first = state.headMarker === null;
    const inserted = await commit(
      {
        tailPosition: b.position,
        headMarker: state.headMarker ?? b.head ?? null,
        headCheckedAt: first ? new Date(now()) : state.headCheckedAt,
        firstTrade: oldest ? oldest.blockTime : state.firstTrade,
        complete: b.done,
      },
      b.trades,
    );
    for (const f of fills) f.remaining -= inserted;
    lastError = null;
    storeRetryMs = 0;
    notify();
  }

  /**
   * Walks toward older history. A pump pulls batches from the source while there is demand and
   * the store consumes whatever has queued up in one transaction: a commit costs about as much
   * for 100 trades as for 1,000 on PGlite (measured 8k vs 18k trades/s), so when fetching runs
   * ahead of storing, commits grow instead of falling behind. Everything pulled is stored before
   * the walk ends, also when the source fails.
   */
  async function walkTail(): Promise<void> {
    const it = source.history({ wallet: state.address, before: state.tailPosition ?? undefined, signal: abort.signal })[Symbol.asyncIterator]();
    const queue: HistoryBatch[] = [];
    // Trades pulled and not stored yet, for this walk only: whatever happens, it ends with the walk.
    let pendingTrades = 0;
    let ended = false;
    let consumerFailed = false;
    let failure: unknown = null;
    let wakeConsumer: (() => void) | null = null;
    let wakePump: (() => void) | null = null;
    const signalConsumer = () => {
      const w = wakeConsumer;
      wakeConsumer = null;
      w?.();
    };
    const pump = (async () => {
      try {
        while (!stopping && !refreshWanted && !consumerFailed && hasDemand(pendingTrades)) {
          if (pendingTrades >= MAX_PENDING_TRADES) {
            await new Promise<void>((r) => (wakePump = r));
            continue;
          }
          const r = await it.next();
          // A source that ends without a `done` batch has still reached the start of the history.
          const b: HistoryBatch = r.done ? { trades: [], position: queue.at(-1)?.position ?? state.tailPosition ?? '', done: true } : r.value;
          queue.push(b);
          pendingTrades += b.trades.length;
          signalConsumer();
          if (b.done) break;
        }
      } catch (e) {
        failure = e;
      } finally {
        ended = true;
        signalConsumer();
      }
    })();
    try {
      for (;;) {
        if (queue.length === 0) {
          if (ended) break;
          await new Promise<void>((r) => (wakeConsumer = r));
          continue;
        }
        const batches = queue.splice(0);
        const merged: HistoryBatch = {
          trades: batches.length === 1 ? batches[0].trades : batches.flatMap((b) => b.trades),
          position: batches.at(-1)!.position,
          head: batches[0].head,
          done: batches.at(-1)!.done,
        };
        try {
          await storeTailBatch(merged);
        } catch (e) {
          // The store failed: stop pulling; the position stored is still the last committed one.
          consumerFailed = true;
          throw e;
        } finally {
          pendingTrades -= merged.trades.length;
          const w = wakePump;
          wakePump = null;
          (w as (() => void) | null)?.();
        }
        if (merged.done) break;
      }
      await pump;
      if (failure) throw failure;
    } finally {
      consumerFailed = true;
      (wakePump as (() => void) | null)?.();
      await it.return?.().catch(() => {});
    }
  }

  async function refresh(): Promise<void> {
    if (state.headMarker === null) return;
    const collected: SourceTrade[] = [];
    let head: string | undefined;
    for await (const b of source.history({ wallet: state.address, until: state.headMarker, signal: abort.signal })) {
      head ??= b.head;
      collected.push(...b.trades);
      if (b.done || stopping) break;
    }
    if (stopping) return;
    await commit(
      {
        headMarker: head ?? state.headMarker,
        headCheckedAt: new Date(now()),
        firstTrade: state.firstTrade ?? collected.at(-1)?.blockTime ?? null,
      },
      collected,
    );
    notify();
  }

  /** The generation of the wallet's lease this loader holds (several instances on one database). */
  let lease: { generation: number } | null = null;
  let releasing: Promise<void> = Promise.resolve();

  /**
   * The state as stored: another instance walked the wallet meanwhile. What it stored counts
   * toward the pages waiting here, as this loader's own batches would.
   */
  async function reloadState(): Promise<void> {
    const fresh = await getWalletById(db, state.id);
    const added = fresh.tradeCount - state.tradeCount;
    state = { ...fresh, loadAll: state.loadAll || fresh.loadAll };
    if (added > 0) for (const f of fills) f.remaining -= added;
  }

  /**
   * True when this loader may walk: no leases (one process), or it holds the wallet's lease (and
   * has read the state its last holder left). Otherwise it follows: waits for the holder's next
   * commit or hand-back, or for the lease to run out, reads the state, and says false.
   */
  async function mayWalk(): Promise<boolean> {
    if (!walks) {
      // An API-only instance: a worker walks; wake at its commits (or every 5 s) and read.
      await (leases ? leases.nextChange(state.id, 5_000, abort.signal) : sleep(5_000, abort.signal).catch(() => {}));
      if (stopping) return false;
      await reloadState();
      notify();
      return false;
    }
    if (!leases || lease) return true;
    const got = await leases.acquire(state.id);
    if ('generation' in got) {
      lease = got;
      await reloadState();
      return true;
    }
    await leases.nextChange(state.id, got.until - now() + 50, abort.signal);
    if (stopping) return false;
    await reloadState();
    notify();
    return false;
  }

  function releaseLease(): void {
    if (!leases || !lease) return;
    const g = lease.generation;
    lease = null;
    releasing = leases.release(state.id, g).catch(() => {});
  }

  /** Runs refreshes and walks while there is work; resolves true when it stopped on an error. */
  async function loop(): Promise<boolean> {
    try {
      while (!stopping) {
        if (refreshWanted && !(await mayWalk())) {
          // Another instance walks the wallet: what it stores is read as it comes; its refresh is its own.
          refreshWanted = false;
          refreshAttempts++;
          notify();
          continue;
        }
        if (refreshWanted) {
          refreshWanted = false;
          try {
            await refresh();
          } catch (e) {
            if (isHistoryError(e, 'lease_lost')) {
              lease = null;
              refreshAttempts++;
              continue;
            }
            lastError = toHistoryError(e);
            refreshFailedAt = now();
            onError?.(lastError);
          }
          refreshAttempts++;
          notify();
          continue;
        }
        if (state.complete || !hasDemand()) return false;
        if (!(await mayWalk())) continue;
        if (state.complete || !hasDemand()) return false;
        try {
          await walkTail();
        } catch (e) {
          if (stopping) return false;
          if (isHistoryError(e, 'lease_lost')) {
            // Another instance took the wallet over (this one stalled past the lease): follow it.
            lease = null;
            continue;
          }
          lastError = toHistoryError(e);
          onError?.(lastError);
          return true;
        }
      }
      return false;
    } catch (e) {
      lastError = toHistoryError(e);
      onError?.(lastError);
      return true;
    }
  }

  /**
   * The database went away under a walk that still has demand: try again after 1 s, doubling to
   * 30 s, until it answers (then the walk goes on from the last position it committed).
   */
  let storeRetryMs = 0;
  let storeRetry: ReturnType<typeof setTimeout> | null = null;
  function retryWhenStoreIsBack(): void {
    if (storeRetry || stopping || lastError?.code !== 'store_unavailable' || state.complete || !hasDemand()) return;
    storeRetryMs = Math.min(30_000, storeRetryMs ? storeRetryMs * 2 : 1_000);
    storeRetry = setTimeout(() => {
      storeRetry = null;
      kick();
    }, storeRetryMs);
    storeRetry.unref?.();
  }

  function kick(): void {
    if (running || stopping) return;
    // `.finally` always runs after this assignment, even when the loop has nothing to do and
    // returns at once, so `running` can never be left pointing at a finished loop.
    running = loop().then((failed) => {
      running = null;
      // Nothing more to walk here: hand the wallet back so another instance's demand can take it.
      releaseLease();
      // Work that arrived while the loop was returning (a refresh wanted, a page's demand) found
      // it still marked running; pick it up now, unless the loop just stopped on an error.
      if (!failed && !stopping && (refreshWanted || (!state.complete && hasDemand()))) kick();
      if (failed) retryWhenStoreIsBack();
      notify();
    });
  }

  return {
    get state() {
      return state;
    },
    get lastError() {
      return lastError;
    },
    get running() {
      return running !== null;
    },
    get version() {
      return version;
    },
    stats,
    async wantAll() {
      if (!state.loadAll && !state.complete) {
        state = { ...state, loadAll: true };
        if (walks) {
          // The walk starts before the flag is written: the flag only matters after a restart,
          // and the walk's first request leaves a store write earlier (0.5-4 ms on PGlite).
          kick();
          await setLoadAll(db, state.id);
        } else {
          // An API-only instance: the flag is the demand a worker serves.
          await recordDemand(db, state.id, { loadAll: true });
        }
      }
      kick();
    },
    wantMore(count) {
      const fill: Fill = { remaining: count };
      fills.add(fill);
      if (!walks) void recordDemand(db, state.id, { more: count }).catch(() => {});
      kick();
      return {
        cancel: () => fills.delete(fill),
        get remaining() {
          return fill.remaining;
        },
      };
    },
    refreshIfStale() {
      if (state.headMarker === null || stopping) return Promise.resolve();
      const checked = state.headCheckedAt?.getTime() ?? 0;
      if (now() - checked < headStaleMs) return Promise.resolve();
      // An RPC that just failed a refresh is not waited on again by every request for 30 s.
      if (now() - refreshFailedAt < REFRESH_RETRY_MS) return Promise.resolve();
      if (!walks) {
        // A worker refreshes; what it finds is read as it is stored. Asked once per 30 s at most.
        if (now() - refreshAskedAt < REFRESH_RETRY_MS) return Promise.resolve();
        refreshAskedAt = now();
        return recordDemand(db, state.id, { refresh: true }).catch(() => {});
      }
      if (!refreshing) {
        refreshWanted = true;
        const attempt = refreshAttempts;
        refreshing = (async () => {
          kick();
          // Done when the refresh was tried (stored, or failed with lastError set), or the loop stopped.
          while (refreshAttempts === attempt && running && !stopping) await new Promise<void>((r) => waiters.push(r));
        })().finally(() => {
          refreshing = null;
        });
      }
      return refreshing;
    },
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
    async stop() {
      stopping = true;
      if (storeRetry) clearTimeout(storeRetry);
      abort.abort();
      notify();
      await running;
      await releasing;
    },
  };
}
