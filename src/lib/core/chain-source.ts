import { sleep } from './wait.js';
import type { SourceUnexplained } from './activity.js';
import type { SourceTrade } from './trade.js';

/**
 * The one interface every chain implements and that the server loader and the browser worker
 * consume. It is fetch-based (no Node-only APIs), so the same code runs in a Web Worker.
 *
 * A walk goes newest first. Positions are opaque strings owned by the chain source:
 *  - `before`: resume strictly older than this position (from a previous batch's `position`);
 *  - `until`: stop when the walk reaches this head marker (a previous walk's `head`), for refreshes.
 */
export interface HistoryParameters {
  wallet: string;
  before?: string;
  until?: string;
  signal?: AbortSignal;
}

export interface HistoryBatch {
  /** Trades found since the previous batch, newest first (by position, then leg). May be empty. */
  trades: SourceTrade[];
  /** Resume point: pass as `before` to continue strictly older than everything scanned so far. */
  position: string;
  /**
   * Marker of the newest point this walk scanned; given on the first batch of a walk (possibly
   * with no trades). A later refresh passes it as `until`.
   */
  head?: string;
  /** True on the last batch: the walk reached the start of the history (or `until`). */
  done: boolean;
  /**
   * Transactions read since the previous batch whose balance changes no trade explains
   * (core/activity.ts), newest first; absent when there are none or the source does not tell.
   */
  unexplained?: SourceUnexplained[];
}

export interface ChainSource {
  /** Chain slug, e.g. `sol`, `eth`. */
  readonly chain: string;
  /** How the source finds a wallet's transactions, once it knows (EVM: `ots` or `logs`); shown in /v1/chains. */
  readonly discovery?: string;
  /**
   * The version of the rules this source decodes with; it grows whenever a decoder change could
   * change a stored history (a venue recognised, a figure corrected). A wallet stored by an older
   * version is decoded again in the background (`redecode`). Absent: never re-decoded.
   */
  readonly decoderVersion?: number;
  history(parameters: HistoryParameters): AsyncIterable<HistoryBatch>;
  /**
   * The wallet's trades in these transactions as this version decodes them (each transaction
   * fetched again, nothing else walked), and those of them no trade explains: what replaces a
   * stored history's trades and unexplained transactions of the same transactions. Each
   * transaction is named with the position of a trade or unexplained entry stored for it.
   */
  redecode?(parameters: RedecodeParameters): Promise<RedecodeResult>;
  /**
   * The realtime stage (issue 24): runs until `signal` aborts, telling which followed wallets may
   * have new confirmed transactions. It only wakes the wallet's walker, which fetches them as it
   * fetches history, so a missed notice costs latency, never a trade. Absent: the server polls
   * every followed wallet at its own pace.
   */
  realtime?(parameters: RealtimeParameters): Promise<void>;
}

export interface RealtimeParameters {
  /** The wallets followed now, as the source takes them (read at every step: they come and go). */
  wallets(): readonly string[];
  /** Wallets that may have new confirmed transactions. */
  onActivity(wallets: readonly string[]): void;
  signal: AbortSignal;
}

/**
 * A realtime stage for a chain that cannot push: every `everyMs`, each followed wallet may have
 * something new (its walker's refresh asks the chain from its head, one request when nothing is).
 */
export function pollingRealtime(everyMs: number): (parameters: RealtimeParameters) => Promise<void> {
  return async ({ wallets, onActivity, signal }) => {
    while (!signal.aborted) {
      // sleep's listener leaves the signal when the time is up (one added per tick would pile up).
      await sleep(everyMs, signal).catch(() => {});
      if (signal.aborted) return;
      const list = wallets();
      if (list.length) onActivity(list);
    }
  };
}

/** A re-decode's answer: both newest first (by position, then leg), each at the position it was named with. */
export interface RedecodeResult {
  trades: SourceTrade[];
  unexplained: SourceUnexplained[];
}

export interface RedecodeParameters {
  wallet: string;
  /** Transactions to decode again: signature and the stored position of one of its trades. */
  transactions: readonly { signature: string; position: string }[];
  signal?: AbortSignal;
}

/** Symbols and decimals of tokens, cached where the source runs (the store on the server, IndexedDB in the browser). */
export interface TokenInfo {
  symbol: string;
  decimals: number;
}

/**
 * Values looked up by key on one chain and cached where the source runs (the store on the server,
 * IndexedDB in the browser): token metadata, Uniswap V4 pool keys. `get` returns the known ones.
 */
export interface ChainKeyedCache<V> {
  get(chain: string, keys: readonly string[]): Promise<Map<string, V>>;
  put(chain: string, entries: ReadonlyMap<string, V>): Promise<void>;
}

export type TokenCache = ChainKeyedCache<TokenInfo>;

/** A cache in memory, for the browser's first pass, sources without a store, and tests. */
export function createMemoryCache<V>(): ChainKeyedCache<V> {
  const m = new Map<string, V>();
  return {
    async get(chain, keys) {
      const out = new Map<string, V>();
      for (const k of keys) {
        const v = m.get(`${chain}:${k}`);
        if (v !== undefined) out.set(k, v);
      }
      return out;
    },
    async put(chain, entries) {
      for (const [k, v] of entries) m.set(`${chain}:${k}`, v);
    },
  };
}

/** A TokenCache in memory. */
export const createMemoryTokenCache = (): TokenCache => createMemoryCache<TokenInfo>();
