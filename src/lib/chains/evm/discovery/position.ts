import type { HistoryBatch } from '../../../core/chain-source.js';
import { HistoryError } from '../../../core/errors.js';

/**
 * The one position every walk starts from and resumes at, whichever path finds the transactions:
 * a walk goes down from `top` and yields batches whose `position` (a block number) parses back
 * into one, so a walk refused midway hands its position to the next path unchanged.
 */
export interface WalkPosition {
  /** Highest block to scan. */
  top: number;
  /** Trades must sort strictly below this position (a partly scanned top block), if set. */
  below?: string;
}

/** `before` = "B" resumes below block B; a trade position resumes strictly older than that transaction. */
export function parseBefore(before: string): WalkPosition {
  if (/^\d{1,15}$/.test(before)) return { top: Number(before) - 1 };
  const m = /^(\d{12})\.(\d{6})$/.exec(before);
  if (m) return { top: Number(m[1]), below: before };
  throw new HistoryError('invalid_position', 'EVM position is not a block number or a trade position');
}

/** `until` = "H" stops above block H. */
export function parseUntil(until: string): number {
  if (/^\d{1,15}$/.test(until)) return Number(until);
  throw new HistoryError('invalid_position', 'EVM head marker is not a block number');
}

export interface WalkInput {
  /** Lowercase 0x address. */
  wallet: string;
  from: WalkPosition;
  /** Lowest block scanned (0, or just above `until`). */
  floor: number;
  /** Given to the walk's first batch (the confirmation point a fresh walk started from). */
  head?: string;
  signal?: AbortSignal;
}

/** A discovery walk: batches newest first, down to `floor`, the last one `done`. */
export type Walk = (input: WalkInput) => AsyncIterable<HistoryBatch>;
