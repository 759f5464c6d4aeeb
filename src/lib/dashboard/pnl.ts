/**
 * Per-token profit and loss by the average-cost method, in the chain's native currency, before
 * fees (amountSol is the venue amount, decisions.md). Exact: amounts are parsed from their decimal
 * strings into bigints of 1e-36 units (exact.ts); only the final display rounds.
 *
 * Rules (issue 5):
 *  - a buy adds its amount to the position and its amountSol to the cost basis;
 *  - a sell removes basis in proportion: basisOut = cost * sold / held, realized += proceeds - basisOut;
 *  - a sell of more than the history shows held has an unknown basis for the excess: that part of
 *    the quantity and its share of the proceeds are reported apart and are not in realized PnL;
 *  - a trade whose amount or amountSol is null is left out of the arithmetic and counted.
 */
import type { Trade } from '../core/trade.js';
import { fromScaled, mulDiv, scaledToNumber, toScaled } from '../core/exact.js';

export interface TokenPnl {
  tokenMint: string;
  /** Symbol of the newest trade of the token (symbols can change and collide; the mint is the key). */
  token: string;
  trades: number;
  buys: number;
  sells: number;
  /** Trades left out because amount or amountSol is null. */
  skipped: number;
  bought: string;
  sold: string;
  /** Native paid on buys and received on sells (counted trades only). */
  spent: string;
  received: string;
  /** Quantity still held by what the history shows, and its cost basis. */
  held: string;
  costBasis: string;
  /** Cost per token of what is held, null when nothing is held. */
  averageCost: string | null;
  realized: string;
  /** Sold beyond what the history shows bought: quantity and the proceeds of that part. */
  unknownBasisAmount: string;
  unknownBasisProceeds: string;
  firstTime: string;
  lastTime: string;
}

export interface PnlPoint {
  blockTime: string;
  /** Milliseconds since the epoch, for the chart's x axis. */
  t: number;
  /** Cumulative realized PnL after this sell, exact. */
  cumulative: string;
  /** The same as a float, for plotting only. */
  y: number;
}

export interface PnlReport {
  tokens: TokenPnl[];
  realized: string;
  skipped: number;
  unknownBasisProceeds: string;
  series: PnlPoint[];
}

interface Acc {
  tokenMint: string;
  token: string;
  trades: number;
  buys: number;
  sells: number;
  skipped: number;
  bought: bigint;
  sold: bigint;
  spent: bigint;
  received: bigint;
  held: bigint;
  cost: bigint;
  realized: bigint;
  unknownAmount: bigint;
  unknownProceeds: bigint;
  firstTime: string;
  lastTime: string;
}

/**
 * The PnL of trades given oldest first (chronological). The API and the store deliver newest first;
 * `computePnlNewestFirst` walks such an array backwards without copying it.
 */
export function computePnl(chronological: readonly Trade[]): PnlReport {
  return compute(chronological.length, (i) => chronological[i]);
}

export function computePnlNewestFirst(newestFirst: readonly Trade[]): PnlReport {
  const n = newestFirst.length;
  return compute(n, (i) => newestFirst[n - 1 - i]);
}

function compute(n: number, at: (i: number) => Trade): PnlReport {
  const byMint = new Map<string, Acc>();
  const series: PnlPoint[] = [];
  let total = 0n;
  let skipped = 0;
  let unknownTotal = 0n;
  for (let i = 0; i < n; i++) {
    const t = at(i);
    let a = byMint.get(t.tokenMint);
    if (!a) {
      a = {
        tokenMint: t.tokenMint,
        token: t.token,
        trades: 0,
        buys: 0,
        sells: 0,
        skipped: 0,
        bought: 0n,
        sold: 0n,
        spent: 0n,
        received: 0n,
        held: 0n,
        cost: 0n,
        realized: 0n,
        unknownAmount: 0n,
        unknownProceeds: 0n,
        firstTime: t.blockTime,
        lastTime: t.blockTime,
      };
      byMint.set(t.tokenMint, a);
    }
    a.trades++;
    if (t.token) a.token = t.token;
    a.lastTime = t.blockTime;
    if (t.side === 'buy') a.buys++;
    else a.sells++;
    if (t.amount === null || t.amountSol === null) {
      a.skipped++;
      skipped++;
      continue;
    }
    const q = toScaled(t.amount);
    const v = toScaled(t.amountSol);
    if (t.side === 'buy') {
      a.bought += q;
      a.spent += v;
      a.held += q;
      a.cost += v;
      continue;
    }
    a.sold += q;
    a.received += v;
    const covered = q < a.held ? q : a.held;
    // Proceeds split by quantity; a zero-quantity sell is all covered (nothing to attribute it to).
    const coveredProceeds = q > 0n ? mulDiv(v, covered, q) : v;
    const excessProceeds = v - coveredProceeds;
    // covered === held takes the whole cost exactly, so a closed position leaves no rounding dust.
    const basisOut = a.held > 0n ? (covered === a.held ? a.cost : mulDiv(a.cost, covered, a.held)) : 0n;
    const gain = coveredProceeds - basisOut;
    a.realized += gain;
    a.cost -= basisOut;
    a.held -= covered;
    a.unknownAmount += q - covered;
    a.unknownProceeds += excessProceeds;
    unknownTotal += excessProceeds;
    total += gain;
    series.push({ blockTime: t.blockTime, t: Date.parse(t.blockTime), cumulative: fromScaled(total), y: scaledToNumber(total) });
  }
  const tokens = [...byMint.values()].map((a): TokenPnl => ({
    tokenMint: a.tokenMint,
    token: a.token,
    trades: a.trades,
    buys: a.buys,
    sells: a.sells,
    skipped: a.skipped,
    bought: fromScaled(a.bought),
    sold: fromScaled(a.sold),
    spent: fromScaled(a.spent),
    received: fromScaled(a.received),
    held: fromScaled(a.held),
    costBasis: fromScaled(a.cost),
    averageCost: a.held > 0n ? fromScaled(mulDiv(a.cost, 10n ** 36n, a.held)) : null,
    realized: fromScaled(a.realized),
    unknownBasisAmount: fromScaled(a.unknownAmount),
    unknownBasisProceeds: fromScaled(a.unknownProceeds),
    firstTime: a.firstTime,
    lastTime: a.lastTime,
  }));
  // Largest absolute realized PnL first: what people look for first.
  tokens.sort((x, y) => {
    const dx = absCmp(toScaled(y.realized), toScaled(x.realized));
    return dx !== 0 ? dx : y.trades - x.trades;
  });
  return { tokens, realized: fromScaled(total), skipped, unknownBasisProceeds: fromScaled(unknownTotal), series };
}

function absCmp(a: bigint, b: bigint): number {
  const x = a < 0n ? -a : a;
  const y = b < 0n ? -b : b;
  return x === y ? 0 : x > y ? 1 : -1;
}
