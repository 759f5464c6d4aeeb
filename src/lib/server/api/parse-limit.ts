import { HistoryError } from '../../core/errors.js';

/**
 * `limit` as decisions.md defines it: a positive integer in decimal digits, no maximum.
 * Returns null when absent (stream mode); a limit above 2^53-1 is unbounded (Infinity).
 */
export function parseLimit(raw: string | null): number | null {
  if (raw === null) return null;
  if (!/^[0-9]+$/.test(raw) || /^0+$/.test(raw)) {
    throw new HistoryError('invalid_limit', `limit must be a positive whole number written in digits, got "${raw}".`);
  }
  const n = Number(raw.replace(/^0+/, ''));
  return n > Number.MAX_SAFE_INTEGER ? Infinity : n;
}
