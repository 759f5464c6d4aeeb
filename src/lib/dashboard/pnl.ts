/**
 * What the dashboard adds on top of the one PnL engine (`src/lib/pnl/pnl-engine.ts`, shared with
 * the server's `/pnl`): the trades put in the order the engine reads, the chart's series, and the
 * figures cut down to what crosses from the worker to the page. No arithmetic of its own beyond
 * adding the engine's exact per-sell figures for the chart.
 */
import { fromScaled, scaledToNumber, toScaled } from '../core/exact.js';
import type { PnlMethod, PnlSummary, TokenPnl } from '../pnl/pnl-engine.js';

export type { PnlMethod } from '../pnl/pnl-engine.js';
export const PNL_METHODS: readonly PnlMethod[] = ['average', 'fifo'];

/**
 * Trades in delivery order (newest transaction first, a transaction's legs 0, 1, ... in order) put
 * oldest transaction first with each transaction's legs still in leg order: what the engine and
 * the export read. A plain reverse would also reverse the legs, so a swap's sell and buy of one
 * token would swap places. Only consecutive trades with the same signature are one transaction
 * (that is how the API and the store deliver them).
 */
export function oldestFirstByTransaction<T extends { signature: string }>(newestFirst: readonly T[]): T[] {
  const n = newestFirst.length;
  const out: T[] = new Array<T>(n);
  let w = 0;
  let end = n - 1;
  while (end >= 0) {
    let start = end;
    const sig = newestFirst[end].signature;
    while (start > 0 && newestFirst[start - 1].signature === sig) start--;
    for (let j = start; j <= end; j++) out[w++] = newestFirst[j];
    end = start - 1;
  }
  return out;
}

export interface PnlPoint {
  blockTime: string;
  /** Milliseconds since the epoch, for the chart's x axis. */
  t: number;
  /** Cumulative realized PnL (native) after this sell, exact. */
  cumulative: string;
  /** The same as a float, for plotting only. */
  y: number;
}

/**
 * Cumulative realized PnL in the native coin, one point per sell whose realized figure is known,
 * in time order: from the engine's lot entries (`lots: true`), each token's already oldest first.
 * Sells whose native figure is unknown add nothing (the engine leaves them out of `realized` too),
 * so the last point equals the summary's `realized`.
 */
export function realizedSeries(summary: { tokens: readonly TokenPnl[] }): PnlPoint[] {
  const sells: { t: number; blockTime: string; realized: bigint; seq: number }[] = [];
  let seq = 0;
  for (const token of summary.tokens) {
    for (const e of token.lots ?? []) {
      if (e.side === 'sell' && e.realized !== null && e.realized !== undefined) {
        sells.push({ t: Date.parse(e.blockTime), blockTime: e.blockTime, realized: toScaled(e.realized), seq: seq++ });
      }
    }
  }
  // Same-time sells of different tokens keep the engine's token order: the total is the same either way.
  sells.sort((a, b) => a.t - b.t || a.seq - b.seq);
  let total = 0n;
  return sells.map((s) => {
    total += s.realized;
    return { blockTime: s.blockTime, t: s.t, cumulative: fromScaled(total), y: scaledToNumber(total) };
  });
}

/**
 * At most `max` points, evenly spaced, the last always kept: the chart draws about two points per
 * pixel column, and 30,000 points cloned to the page and turned into a path cost frames there.
 */
export function thinSeries(points: readonly PnlPoint[], max = 4000): PnlPoint[] {
  if (points.length <= max) return [...points];
  const step = points.length / (max - 1);
  const out: PnlPoint[] = [];
  for (let i = 0; i < max - 1; i++) out.push(points[Math.floor(i * step)]);
  out.push(points[points.length - 1]);
  return out;
}

/** Largest absolute realized PnL first (what people look for first), then the most traded. */
export function byRealized(tokens: readonly TokenPnl[]): TokenPnl[] {
  const abs = (s: string) => {
    const v = toScaled(s);
    return v < 0n ? -v : v;
  };
  const keyed = tokens.map((t) => ({ t, k: abs(t.realized) }));
  keyed.sort((a, b) => (a.k === b.k ? b.t.trades - a.t.trades : a.k > b.k ? -1 : 1));
  return keyed.map((x) => x.t);
}

/** Tokens still held by what the history shows (an open position). */
export function openPositions(summary: Pick<PnlSummary, 'tokens'>): number {
  let n = 0;
  for (const t of summary.tokens) if (t.open !== '0') n++;
  return n;
}
