/**
 * What the dashboard adds on top of the one PnL engine (`src/lib/pnl/pnl-engine.ts`, shared with
 * the server's `/pnl`): the trades put in the order the engine reads, the chart's series, and the
 * figures cut down to what crosses from the worker to the page. No arithmetic of its own beyond
 * adding the engine's exact per-sell figures for the chart.
 */
import { fromScaled, scaledToNumber, toScaled } from '../core/exact.js';
import { computePnl, type PnlMethod, type PnlSummary, type PnlTrade, type TokenPnl } from '../pnl/pnl-engine.js';

export type { PnlMethod } from '../pnl/pnl-engine.js';

/**
 * Trades with their transactions in the other order and each transaction's legs still in leg
 * order: delivery order (newest transaction first) becomes what the engine and the export read
 * (oldest first), and a live line (oldest first) becomes what the store keeps. A plain reverse
 * would also reverse the legs, so a swap's sell and buy of one token would swap places. Only
 * consecutive trades with the same signature are one transaction (that is how the API and the
 * store deliver them).
 */
export function reverseByTransaction<T extends { signature: string }>(trades: readonly T[]): T[] {
  const n = trades.length;
  const out: T[] = new Array<T>(n);
  let w = 0;
  let end = n - 1;
  while (end >= 0) {
    let start = end;
    const sig = trades[end].signature;
    while (start > 0 && trades[start - 1].signature === sig) start--;
    for (let j = start; j <= end; j++) out[w++] = trades[j];
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
 * Cumulative realized PnL in the native coin, one point per sell the engine counts, in the order of
 * the trades (oldest first): the engine's `onSell` feeds it during the figures' own pass, so the
 * chart costs no second pass. A sell whose native figure is unknown adds no point (the engine
 * leaves it out of `realized` too), so the last point equals the summary's `realized`. Totals stay
 * bigints until the points are thinned: only the few thousand drawn are written out.
 */
export class RealizedSeries {
  readonly #times: string[] = [];
  readonly #totals: bigint[] = [];
  #total = 0n;

  /** The engine's `onSell`, bound. */
  readonly add = (trade: { blockTime: string }, realized: bigint | null): void => {
    if (realized === null) return;
    this.#total += realized;
    this.#times.push(trade.blockTime);
    this.#totals.push(this.#total);
  };

  /** At most `max` points, evenly spaced, the last always kept (thinSeries). */
  points(max?: number): PnlPoint[] {
    return thinIndexes(this.#totals.length, max).map((i) => ({
      blockTime: this.#times[i],
      t: Date.parse(this.#times[i]),
      cumulative: fromScaled(this.#totals[i]),
      y: scaledToNumber(this.#totals[i]),
    }));
  }
}

/** The figures and the chart's points in one pass of the engine. */
export function pnlWithSeries(trades: Iterable<PnlTrade>, method: PnlMethod): { summary: PnlSummary; series: PnlPoint[] } {
  const series = new RealizedSeries();
  const summary = computePnl(trades, method, { onSell: series.add });
  return { summary, series: series.points() };
}

/**
 * At most `max` points, evenly spaced, the last always kept: the chart draws about two points per
 * pixel column, and 30,000 points cloned to the page and turned into a path cost frames there.
 */
export function thinSeries<T>(points: readonly T[], max = 4000): T[] {
  return thinIndexes(points.length, max).map((i) => points[i]);
}

/** The indexes thinSeries keeps of `n` points. */
function thinIndexes(n: number, max = 4000): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const step = n / (max - 1);
  const out: number[] = [];
  for (let i = 0; i < max - 1; i++) out.push(Math.floor(i * step));
  out.push(n - 1);
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
