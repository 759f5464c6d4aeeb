/** CSV export of stored trades: the eight contract fields, amounts as their exact decimal text. */
import type { Trade } from '../core/trade.js';

export const CSV_COLUMNS = ['blockTime', 'side', 'token', 'tokenMint', 'amount', 'amountSol', 'dex', 'signature'] as const;

/** RFC 4180 quoting; a leading = + - @ is prefixed with ' so a spreadsheet never runs a symbol as a formula. */
export function csvField(v: string | null): string {
  if (v === null) return '';
  let s = v;
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function tradesToCsv(trades: Iterable<Trade>): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const t of trades) lines.push(CSV_COLUMNS.map((c) => csvField(t[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}
