/**
 * Solana positions. A trade's is `{slot:12}.{counter:5}`: its slot, then its place in the slot
 * counted down from 99,999 in the order getSignaturesForAddress lists signatures (newest first),
 * so that positions sort like the history. A walk's is `sol1:{slot}:{counter}:{signature}`: the
 * last signature reached, with what is needed to go on numbering the signatures after it
 * (`before` on the next getSignaturesForAddress page).
 */
import { HistoryError } from '../../core/errors.js';

/** Within-slot numbers count down from here: the first signature of a slot (newest) is largest. */
export const SLOT_COUNTER_TOP = 99_999;
const SLOT_WIDTH = 12;
const COUNTER_WIDTH = 5;
const POSITION_PREFIX = 'sol1';
/** Position of a walk that found no signature at all: resuming from it finds nothing. */
export const END_POSITION = `${POSITION_PREFIX}:end`;

/** Where a walk is: the last signature numbered, its slot and its number in the slot. */
export interface WalkState {
  signature: string;
  slot: number;
  counter: number;
}

export function tradePosition(slot: number, counter: number): string {
  return `${String(slot).padStart(SLOT_WIDTH, '0')}.${String(counter).padStart(COUNTER_WIDTH, '0')}`;
}

export function encodeState(s: WalkState): string {
  return `${POSITION_PREFIX}:${s.slot}:${s.counter}:${s.signature}`;
}

export function decodeState(p: string, what: string): WalkState | 'end' {
  if (p === END_POSITION) return 'end';
  const m = /^sol1:(\d{1,15}):(\d{1,5}):([1-9A-HJ-NP-Za-km-z]{32,90})$/.exec(p);
  if (!m) throw new HistoryError('invalid_position', `not a Solana ${what} position`, { context: { [what]: p } });
  return { slot: Number(m[1]), counter: Number(m[2]), signature: m[3] };
}
