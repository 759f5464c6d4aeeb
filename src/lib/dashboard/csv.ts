/** CSV export of stored trades: the eight contract fields, amounts as their exact decimal text. */
import type { Trade } from '../core/trade.js';
import { csvField } from '../pnl/export-csv.js';

export const CSV_COLUMNS = ['blockTime', 'side', 'token', 'tokenMint', 'amount', 'amountSol', 'dex', 'signature'] as const;

export function tradesToCsv(trades: Iterable<Trade>): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const t of trades) lines.push(CSV_COLUMNS.map((c) => csvField(t[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}
