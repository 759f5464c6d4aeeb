import type { ChainSource } from '../../../core/chain-source.js';
import type { StatisticsKeeper } from '../../store/statistics.js';
import type { LoaderCore } from '../loader/loader-core.js';
import type { StoreRetry } from '../loader/store-retry.js';
import type { WalletLoaderParameters } from '../wallet-loader.js';
import type { WalkLease } from './walk-lease.js';

export interface WalkerParameters extends WalletLoaderParameters {
  source: ChainSource;
  /** Told of every insert, to keep the planner's statistics fresh during bulk loads. */
  statistics?: StatisticsKeeper;
}

/** What the walker's parts (tail walk, refresh, commits, the loop) share about one wallet. */
export interface Walker {
  readonly core: LoaderCore;
  readonly source: ChainSource;
  /** Whether this loader may walk now, and what its commits prove (several instances on one database). */
  readonly lease: WalkLease;
  readonly retry: StoreRetry;
  readonly statistics?: StatisticsKeeper;
  readonly refresh: RefreshState;
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
}
