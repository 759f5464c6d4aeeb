/**
 * Tron positions. TronGrid gives no index within a block, so a trade's position is its block,
 * then its transaction id read as a number: `{block:12}.{txid as 78 decimal digits}`
 * (decisions.md: block number, then transaction id). A fingerprint only lives as long as
 * TronGrid's cursor, so a batch's position is durable instead: `{block}.{block timestamp ms}`,
 * meaning "every block above this one is delivered; resume with this block", which a later walk
 * turns into `max_timestamp`. The head marker has the same form: the newest block the walk saw
 * (`0.0` for none); a refresh walks down to it, exclusive.
 */
import { HistoryError } from '../../core/errors.js';

const pad = (n: number, w: number) => String(n).padStart(w, '0');

export function tronTradePosition(block: number, txid: string): string {
  return `${pad(block, 12)}.${BigInt('0x' + txid)
    .toString()
    .padStart(78, '0')}`;
}

/** A batch position or head marker: a block and its timestamp (ms). */
export interface Marker {
  block: number;
  ts: number;
}

export function parseMarker(s: string, what: string): Marker {
  const m = /^(\d{1,12})\.(\d{1,15})$/.exec(s);
  if (!m) throw new HistoryError('invalid_position', `Tron ${what} is not a block and timestamp (block.ms)`);
  return { block: Number(m[1]), ts: Number(m[2]) };
}

export const marker = (m: Marker) => `${m.block}.${m.ts}`;

/** The position of the walk's last batch: nothing older is left. */
export const END_MARKER = '0.0';
