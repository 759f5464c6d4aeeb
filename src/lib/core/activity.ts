import { formatSigned } from './decimal.js';
import { isDecimalLiteral } from './trade.js';

/**
 * What a transaction did to a wallet's balances, beside the trades decoded from it: the ground
 * for "unexplained activity" (decisions.md). Every family's decoder computes it from what it
 * already fetched (Solana's pre/post balances; EVM's Transfer logs, value, wraps and a call trace
 * where one was fetched; Tron's TRC-20 logs, call value and internal transactions); the rule that
 * judges it is the same for all of them and lives here.
 */

/** One asset's change in the wallet's balances over one transaction. */
export interface BalanceDelta {
  /**
   * The token in the same form the family's decoded trades name it (so the two compare as
   * strings), or null for the native coin (its wrapped form counts as the native coin).
   */
  tokenMint: string | null;
  /** Signed, in the asset's smallest unit: positive when the wallet received it. Never 0. */
  raw: bigint;
  /** Decimals when the transaction itself states them (Solana's token balances, the native coin), else null. */
  decimals: number | null;
}

export interface TransactionActivity {
  /** The wallet's full balance changes, the network fee excluded: the native coin first, then tokens in the order first seen. */
  changes: BalanceDelta[];
  /**
   * Native coin the wallet paid that is neither side of an exchange: rent deposits for accounts
   * the transaction created, a priority tip paid by transfer. A native decrease up to this much
   * does not count as "gave" (decisions.md: fees and rent never make a transaction unexplained).
   */
  incidentalNative: bigint;
  /** Programs (Solana) or contracts (EVM, Tron) the transaction touched, in the chain's form, each once. */
  programs: string[];
  /**
   * The family knows the transaction as a non-trade (decisions.md): liquidity added or removed, a
   * wrap, a deposit, withdrawal, borrow or repayment against a receipt or debt token minted to or
   * burnt from the wallet, a 1:1 migration, a fee payer's fee.
   */
  knownNonTrade: boolean;
}

/**
 * decisions.md: a transaction is unexplained when the wallet gave at least one asset and received
 * a different one (fees, tips and rent apart), a token given or received is named by no trade
 * (any slug, `unknown` included, explains its token; the native coin is never "named": the
 * native figure a trade carries is the venue's, so fee and rent noise never count), and the
 * family does not know it as a non-trade. `tradeMints`: the tokens of the transaction's trades,
 * in the form `BalanceDelta.tokenMint` uses.
 */
export function isUnexplained(activity: TransactionActivity, tradeMints: Iterable<string>): boolean {
  if (activity.knownNonTrade) return false;
  const gave: (string | null)[] = [];
  const received: (string | null)[] = [];
  for (const c of activity.changes) {
    if (c.raw > 0n) received.push(c.tokenMint);
    else if (c.tokenMint !== null || -c.raw > activity.incidentalNative) gave.push(c.tokenMint);
  }
  const swapShaped = gave.some((g) => received.some((r) => r !== g));
  if (!swapShaped) return false;
  const named = new Set(tradeMints);
  return [...gave, ...received].some((m) => m !== null && !named.has(m));
}

/** One listed balance change of an unexplained transaction, as the API gives it. */
export interface UnexplainedChange {
  /** The token's symbol where known, '' otherwise; the chain's native symbol for the native coin. */
  token: string;
  /** The token in the chain's display form (as a trade's `tokenMint`), null for the native coin. */
  tokenMint: string | null;
  /** Signed exact decimal (`-1.5`), or null when the token's decimals are unknown. */
  amount: string | null;
}

/**
 * A transaction's balance changes as the API lists them: the native coin under its symbol, each
 * token in the chain's display form with its symbol, signed amounts scaled by the decimals known
 * (null where they are not). `tokenOf` says, for a token as BalanceDelta names it, its display
 * form, symbol and decimals.
 */
export function displayChanges(
  changes: readonly BalanceDelta[],
  native: { symbol: string; decimals: number },
  tokenOf: (delta: BalanceDelta & { tokenMint: string }) => { tokenMint: string; symbol?: string; decimals: number | null },
): UnexplainedChange[] {
  return changes.map((c) => {
    if (c.tokenMint === null) return { token: native.symbol, tokenMint: null, amount: formatSigned(c.raw, native.decimals) };
    const t = tokenOf(c as BalanceDelta & { tokenMint: string });
    return { token: t.symbol ?? '', tokenMint: t.tokenMint, amount: t.decimals === null ? null : formatSigned(c.raw, t.decimals) };
  });
}

/** An unexplained transaction as a chain source yields it, beside its trades in a batch. */
export interface SourceUnexplained {
  signature: string;
  /** ISO 8601 UTC, as a trade's. */
  blockTime: string;
  /** The transaction's place, the same position its trades would have: newest first sorts by it. */
  position: string;
  changes: UnexplainedChange[];
  programs: string[];
}

/** The API's JSON of an unexplained transaction (amounts as exact number literals, as trades' are). */
export function serializeUnexplained(u: SourceUnexplained): string {
  const changes = u.changes.map((c) => {
    if (c.amount !== null && !isDecimalLiteral(c.amount.startsWith('-') ? c.amount.slice(1) : c.amount))
      throw new RangeError(`amount is not a signed decimal literal: ${c.amount}`);
    return `{"token":${JSON.stringify(c.token)},"tokenMint":${JSON.stringify(c.tokenMint)},"amount":${c.amount ?? 'null'}}`;
  });
  return (
    `{"signature":${JSON.stringify(u.signature)},"blockTime":${JSON.stringify(u.blockTime)}` +
    `,"changes":[${changes.join(',')}],"programs":${JSON.stringify(u.programs)}}`
  );
}

/** The order of a batch's unexplained transactions: newest position first. */
export const newestListed = (a: SourceUnexplained, b: SourceUnexplained): number => (a.position < b.position ? 1 : a.position > b.position ? -1 : 0);
