import type { ChainSource } from '../../../core/chain-source.js';
import type { HistoryError } from '../../../core/errors.js';
import type { StatisticsKeeper } from '../../store/statistics.js';
import type { LoaderCore } from '../loader/loader-core.js';
import type { StoreRetry } from '../loader/store-retry.js';
import type { WalletLoaderParameters } from '../wallet-loader.js';
import type { WalkLease } from './walk-lease.js';

export interface WalkerParameters extends WalletLoaderParameters {
  source: ChainSource;
  /** Told of every insert, to keep the planner's statistics fresh during bulk loads. */
  statistics?: StatisticsKeeper;
  /** Stored trades per re-decode batch (default 100): their transactions go to the source's `redecode` in one call. */
  redecodeTrades?: number;
}

/** What the walker's parts (tail walk, refresh, re-decode, commits, the loop) share about one wallet. */
export interface Walker {
  readonly core: LoaderCore;
  readonly source: ChainSource;
  /** Whether this loader may walk now, and what its commits prove (several instances on one database). */
  readonly lease: WalkLease;
  readonly retry: StoreRetry;
  readonly statistics?: StatisticsKeeper;
  readonly refresh: RefreshState;
  readonly redecode: RedecodeState;
  /** Errors a re-decode ended on (logging); they do not end a read. */
  readonly onError?: (e: HistoryError) => void;
  /** Told of each batch of trades stored. */
  readonly onStored?: WalletLoaderParameters['onStored'];
  /** Resolves at the next wake(): the loop waiting on a re-decode hears of a request's demand. */
  woken(): Promise<void>;
  wake(): void;
}

/** A head refresh: wanted by a request, run by the loop between tail batches. */
export interface RefreshState {
  /** A request asked for one; the loop runs it before the next tail batch. */
  wanted: boolean;
  /** Refreshes tried (stored, failed, or left to another instance): what a waiting request watches. */
  attempts: number;
  /** When the last one failed: requests do not wait on another one for a while. */
  failedAt: number;
  /** The requests' shared wait for the one wanted now. */
  pending: Promise<void> | null;
  /**
   * A forced refresh asked while one runs: that one may have read the head before the activity
   * it was asked for, so one more runs after it (shared by every such ask meanwhile).
   */
  queued: Promise<void> | null;
}

/**
 * The re-decode of a wallet stored by an older decoder (redecode-wallet.ts): wanted at a read,
 * run by the loop beside the tail walk and refreshes, under the same lease.
 */
export interface RedecodeState {
  /** A read found the wallet older than the source's decoder; the loop starts it when it may walk. */
  wanted: boolean;
  /** The re-decode running now. */
  task: Promise<void> | null;
  /** Stops the one running (the loop ends, the walk failed). */
  abort: AbortController | null;
  /** How the last one ended; the loop acts on lease_lost. */
  outcome: 'done' | 'stopped' | 'lease_lost' | 'failed' | null;
  /** When the last one failed: a read asks again only 30 s later. */
  failedAt: number;
  /** Stored trades per batch. */
  readonly batchTrades: number;
}
