import type { SourceUnexplained } from '../../core/activity.js';
import type { SourceTrade } from '../../core/trade.js';

/**
 * Where a transaction sits and where a trade sorts, shared by every stage of the source: discovery
 * finds transactions (a hash and its place), trades-of.ts turns them into trades. A trade's
 * position is `{block:12}.{txIndex:6}`, fixed width so that positions sort as strings.
 */

const pad = (n: number, w: number) => String(n).padStart(w, '0');
export const evmPosition = (block: number, txIndex: number) => `${pad(block, 12)}.${pad(txIndex, 6)}`;

/** A transaction found: its block, its index in the block, and its block's time when the finder had it. */
export interface TxPlace {
  block: number;
  index: number;
  ts?: number;
}

/** Found transactions by hash (lowercase). */
export type TxMap = Map<string, TxPlace>;

/** The order of a batch: newest position first, a transaction's legs in order. */
export const newestFirst = (a: SourceTrade, b: SourceTrade) => (a.position === b.position ? a.leg - b.leg : a.position < b.position ? 1 : -1);

/** The order of a batch's unexplained transactions: newest position first. */
export const newestListed = (a: SourceUnexplained, b: SourceUnexplained) => (a.position < b.position ? 1 : a.position > b.position ? -1 : 0);
