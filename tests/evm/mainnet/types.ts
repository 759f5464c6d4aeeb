/**
 * Expectations for the real mainnet EVM set (tests/fixtures/evm-mainnet/), derived by hand from each
 * transaction's logs under decisions.md's rules, never from the decoder's output. `why` says how
 * every figure was derived, so a failure can be checked against the chain itself.
 */
export interface GoldenTrade {
  side: 'buy' | 'sell';
  /** Symbol as the token's symbol() gives it (tokens.json). */
  token: string;
  /** Lowercase contract address. */
  tokenMint: string;
  /** Exact decimal literal: the raw integer with the point inserted. */
  amount: string;
  /** Exact decimal literal in the chain's native unit, or null (decisions.md: token-to-token without a native leg, settlements between tokens). */
  amountSol: string | null;
  dex: string;
}

/** A pool or venue contract as the chain knows it: what a replay answers for its factory(), token0(), token1(), fee(). */
export interface GoldenVenueFact {
  address: string;
  kind: 'v2' | 'v3' | 'solidly' | 'v4' | 'balancer-v2' | 'balancer-v3' | 'curve' | 'other';
  factory?: string;
  token0?: string;
  token1?: string;
  fee?: number;
  /** Where the fact comes from (CREATE2 computation, a verified contract page, ...). */
  source?: string;
}

export interface MainnetGolden {
  hash: string;
  chain: string;
  /** Lowercase address whose history these trades belong to. */
  wallet: string;
  trades: GoldenTrade[];
  why: string;
  /** Where the transaction can be read more than one way: the readings, and why this one. */
  ambiguous?: string;
  venues?: GoldenVenueFact[];
}
