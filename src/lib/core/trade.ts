import { quoteAmountLiterals } from './amount-literals.js';
/**
 * The Trade object of the v1 contract, exactly its eight fields (decisions.md: nothing is added).
 * Amounts are exact decimal strings here (`"1234.000000000000000001"`); they are written to JSON
 * as number literals by `serializeTrade`, because a float64 cannot hold 18-decimal amounts.
 */
export type TradeSide = 'buy' | 'sell';

export interface Trade {
  signature: string;
  side: TradeSide;
  token: string;
  tokenMint: string;
  /** Native amount exchanged with the venue, exact decimal string, or null when unknown. */
  amountSol: string | null;
  /** Token quantity moved to or from the wallet's own accounts, exact decimal string, or null. */
  amount: string | null;
  dex: string;
  /** ISO 8601 UTC, e.g. `2024-05-01T12:34:56Z`. */
  blockTime: string;
}

/**
 * A trade as a chain source yields it: the Trade plus where it sits in the chain's order.
 * `position` is a fixed-width string that sorts like the chain's order (larger = newer) and names
 * one transaction; `leg` is the trade's index within that transaction (0, 1, ...).
 */
export interface SourceTrade extends Trade {
  position: string;
  leg: number;
}

/** Width of the leg part of a trade key; a transaction never has 10,000 trades for one wallet. */
const LEG_WIDTH = 4;
const LEG_MAX = 9999;

/**
 * The store's total order key of a trade: descending key order is the delivery order
 * (newest transaction first, then leg 0, 1, ... within a transaction, hence the inverted leg).
 */
export function tradeKey(position: string, leg: number): string {
  if (!/^[0-9][0-9.]*$/.test(position)) throw new RangeError(`position must be digits and dots: ${position}`);
  if (!Number.isInteger(leg) || leg < 0 || leg > LEG_MAX) throw new RangeError(`leg out of range: ${leg}`);
  return `${position}:${String(LEG_MAX - leg).padStart(LEG_WIDTH, '0')}`;
}

/** Inverse of tradeKey. */
export function parseTradeKey(key: string): { position: string; leg: number } {
  const i = key.lastIndexOf(':');
  if (i < 0) throw new RangeError(`not a trade key: ${key}`);
  return { position: key.slice(0, i), leg: LEG_MAX - Number(key.slice(i + 1)) };
}

const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/;

/** True when `s` is an exact decimal literal as decisions.md writes amounts. */
export function isDecimalLiteral(s: string): boolean {
  return DECIMAL.test(s);
}

/**
 * One trade as JSON text with amounts as number literals. Field order is fixed so the same
 * trade always serialises to the same bytes (the store keeps this text and serves it as is).
 */
export function serializeTrade(t: Trade): string {
  for (const a of [t.amountSol, t.amount]) {
    if (a !== null && !DECIMAL.test(a)) throw new RangeError(`amount is not a decimal literal: ${a}`);
  }
  return (
    `{"signature":${JSON.stringify(t.signature)},"side":${JSON.stringify(t.side)}` +
    `,"token":${JSON.stringify(t.token)},"tokenMint":${JSON.stringify(t.tokenMint)}` +
    `,"amountSol":${t.amountSol ?? 'null'},"amount":${t.amount ?? 'null'}` +
    `,"dex":${JSON.stringify(t.dex)},"blockTime":${JSON.stringify(t.blockTime)}}`
  );
}

/** A trade's text as serializeTrade wrote it (or the API sent it), back as a Trade with exact amounts. */
export function parseTradeText(text: string): Trade {
  return JSON.parse(quoteAmountLiterals(text)) as Trade;
}

/** Seconds since the epoch to the ISO form of the contract (no milliseconds, `Z`). */
export function isoFromUnixSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** The order of a batch: newest position first, a transaction's legs in order. */
export const newestFirst = (a: SourceTrade, b: SourceTrade): number => (a.position === b.position ? a.leg - b.leg : a.position < b.position ? 1 : -1);
