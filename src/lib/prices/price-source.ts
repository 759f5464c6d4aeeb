import type { ChainKeyedCache } from '../core/chain-source.js';

/**
 * USD prices of a chain's native coin (issue 22, decisions.md "USD values"): one small interface
 * whatever serves them (a Chainlink feed read over an EVM chain's JSON-RPC, or a public candle
 * source an operator chooses instead).
 */

/** The price in force at a time: the latest round (or candle) at or before it. */
export interface PricePoint {
  /** USD per native coin, an exact decimal literal (the feed's answer scaled by its decimals). */
  price: string;
  /** Unix seconds of the round's update: when this price came into force. */
  roundTime: number;
  /** The source's id of the round (Chainlink: the proxy's round id in decimal). */
  round: string;
}

export interface PriceSource {
  /** The coin priced, e.g. `ETH`, `SOL`. */
  readonly coin: string;
  /**
   * The price in force at each of `times` (unix seconds), in the same order; null where none is
   * known (before the feed's first round, or the round in force was too old or nonsense there).
   * Batched: many times cost about as much as one.
   */
  pricesAt(times: readonly number[], signal?: AbortSignal): Promise<(PricePoint | null)[]>;
}

/** A feed round as kept: its raw answer (decimal digits, may be negative) and update time; `answer` null when the feed has no such round. */
export interface StoredRound {
  answer: string | null;
  updatedAt: number;
}

/**
 * Rounds read, kept where the source runs (the store on the server, memory in tests) and shared
 * by every wallet: keyed by the feed (`<chain>:<proxy>`) and the round id in decimal. A round
 * never changes once published, so it is never read twice.
 */
export type RoundCache = ChainKeyedCache<StoredRound>;
