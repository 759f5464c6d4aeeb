import type { SourceTrade } from '../../../src/lib/core/trade.js';
import type { GoldenTrade } from './types.js';

/** A trade as compared: the fields a golden states, the mint lowercase (addresses compare case-insensitively). */
export interface TradeRow {
  side: 'buy' | 'sell';
  token: string;
  tokenMint: string;
  amount: string | null;
  amountSol: string | null;
  dex: string;
}

export const rowOfTrade = (t: SourceTrade): TradeRow => ({
  side: t.side,
  token: t.token,
  tokenMint: t.tokenMint.toLowerCase(),
  amount: t.amount,
  amountSol: t.amountSol,
  dex: t.dex,
});

export const rowOfGolden = (t: GoldenTrade): TradeRow => ({
  side: t.side,
  token: t.token,
  tokenMint: t.tokenMint.toLowerCase(),
  amount: t.amount,
  amountSol: t.amountSol,
  dex: t.dex,
});

const name = (r: TradeRow) => `${r.side} ${r.token || r.tokenMint.slice(0, 10)}`;
const brief = (r: TradeRow) => `${name(r)} ${r.amount ?? '?'} sol=${r.amountSol ?? 'null'} ${r.dex}`;
const FIELDS = ['token', 'amount', 'amountSol', 'dex'] as const;

/**
 * One line saying how `got` differs from `want` (null when equal, order included): a missing or
 * extra trade, or the fields of a trade that differ as `got≠want`.
 */
export function diffReason(got: readonly TradeRow[], want: readonly TradeRow[]): string | null {
  if (JSON.stringify(got) === JSON.stringify(want)) return null;
  if (!got.length) return `no trade; want ${want.map(brief).join(', ')}`;
  if (!want.length) return `want none; got ${got.map(brief).join(', ')}`;
  const parts: string[] = [];
  const used = new Set<number>();
  for (const w of want) {
    const i = got.findIndex((g, j) => !used.has(j) && g.side === w.side && g.tokenMint === w.tokenMint);
    if (i < 0) {
      parts.push(`missing ${brief(w)}`);
      continue;
    }
    used.add(i);
    const g = got[i];
    const off = FIELDS.filter((f) => g[f] !== w[f]).map((f) => `${f} ${g[f] ?? 'null'}≠${w[f] ?? 'null'}`);
    if (off.length) parts.push(`${name(w)}: ${off.join(', ')}`);
  }
  got.forEach((g, j) => {
    if (!used.has(j)) parts.push(`extra ${brief(g)}`);
  });
  return parts.length ? parts.join('; ') : 'same trades in another order';
}
