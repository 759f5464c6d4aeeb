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
}

export interface ChainSource {
  /** Chain slug, e.g. `sol`, `eth`. */
  readonly chain: string;
  history(parameters: HistoryParameters): AsyncIterable<HistoryBatch>;
}

/** Symbols and decimals of tokens, cached where the source runs (the store on the server, IndexedDB in the browser). */
export interface TokenInfo {
  symbol: string;
  decimals: number;
}

export interface TokenCache {
  get(chain: string, mints: readonly string[]): Promise<Map<string, TokenInfo>>;
  put(chain: string, entries: ReadonlyMap<string, TokenInfo>): Promise<void>;
}

/** A TokenCache in memory, for the browser's first pass and for tests that do not need a store. */
export function createMemoryTokenCache(): TokenCache {
  const m = new Map<string, TokenInfo>();
  return {
    async get(chain, mints) {
      const out = new Map<string, TokenInfo>();
      for (const mint of mints) {
        const v = m.get(`${chain}:${mint}`);
        if (v) out.set(mint, v);
      }
      return out;
    },
    async put(chain, entries) {
      for (const [mint, v] of entries) m.set(`${chain}:${mint}`, v);
    },
  };
}
