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
