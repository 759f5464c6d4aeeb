import type { HistoryError } from '../../core/errors.js';
import type { SourceTrade } from '../../core/trade.js';
import type { Database } from '../store/database.js';
import type { WalletState } from '../store/wallets.js';
import type { WalletLeases } from './wallet-leases.js';

/**
 * The one loader of a (chain, wallet) in a process: however many requests arrive, one walk runs.
 *
 * Two implementations, chosen by the loader registry from the instance's role:
 * - the walker (walker/create-walker.ts, ROLE=all and ROLE=worker) loads older history while
 *   someone wants it: a stream wants the whole history (and keeps wanting it after the
 *   client left), a page wants "N more trades". Between batches it checks the demand, so
 *   `limit=10` costs at most the batch that crossed 10. Each batch is stored with the position
 *   reached in one transaction: a crash loses at most the batch in flight. A refresh reads from
 *   the newest point down to the stored head and is stored as a whole, so a reader never sees new
 *   trades with a gap below them. With several instances on one database it loads only while
 *   holding the wallet's lease, and follows the holder otherwise. A wallet stored by an older
 *   decoder is decoded again beside that, under the same lease (walker/redecode-wallet.ts).
 * - the follower (follower/create-follower.ts, ROLE=api) does not walk: it records what requests want in the
 *   database for the workers and reads what they store as it comes.
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
  wantMore(count: number): PageDemand;
  /** When the head was checked longer ago than the staleness window, fetch it now; resolves when done or failed. */
  refreshIfStale(): Promise<void>;
  /**
   * Fetch the head now, however fresh it is (the realtime stage heard of new activity); resolves
   * when done or failed. A refresh that failed is not tried again for 30 s.
   */
  refresh(): Promise<void>;
  /**
   * A read: when the wallet's trades were decoded by an older version than the source's, decode
   * them again in the background (the walker; the follower asks the workers). The registry calls
   * it at every read.
   */
  redecodeIfBehind(): void;
  /** Resolves at the next change after `since` (a stored batch, an error, the walk stopping) or after `ms`. */
  nextChange(ms: number, since?: number): Promise<void>;
  /** Stops the walk (at a batch boundary) and waits for it; used at shutdown. */
  stop(): Promise<void>;
}

/** A page's demand: trades still wanted below what is stored (≤ 0 once met). */
export interface PageDemand {
  cancel(): void;
  readonly remaining: number;
}

/** What every loader of a wallet is built from, whatever its role. */
export interface WalletLoaderParameters {
  db: Database;
  wallet: WalletState;
  headStaleMs: number;
  /** Called with errors a walk ended on (logging). */
  onError?: (e: HistoryError) => void;
  /** Called with the trades of each batch stored by this loader's walks (the background pricing of issue 22), and the webhook deliveries its statement wrote. */
  onStored?: (walletId: number, trades: readonly SourceTrade[], announced: number) => void;
  now?: () => number;
  /**
   * Several instances on one database (PostgreSQL): the walker may walk only while holding the
   * wallet's lease; every loader is woken by the holder's commits (NOTIFY).
   */
  leases?: WalletLeases;
}

/** Requests do not wait on a head refresh for this long after one failed (or, on ROLE=api, was asked for). */
export const REFRESH_RETRY_MS = 30_000;
