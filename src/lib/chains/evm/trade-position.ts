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
