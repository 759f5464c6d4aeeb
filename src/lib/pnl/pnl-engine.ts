import { fromScaled as fromUnits, mulDivHalfEven, toScaled as toUnits } from '../core/exact.js';
import type { Trade } from '../core/trade.js';

/**
 * Profit and loss per token (issue 25, decisions.md "PnL and exports"): one pure engine for the
 * server and the dashboard's worker. Exact: every figure is a bigint of 1e-36 units (36 places
 * cover an ERC-20's 18 decimals twice over); the one division, average cost's `cost × sold / held`,
 * rounds half-even at the 36th place. No float anywhere.
 *
 * Two methods:
 *  - `average`: one pooled position per token; a sell takes cost in proportion to the quantity it
 *    removes, and the whole remaining cost when it closes the position (no dust left);
 *  - `fifo`: lots in buy order; a sell consumes the oldest first.
 * In native units (`amountSol`) and in USD (`valueUsd`, each trade valued at its own time): two
 * figures kept side by side on the same lots. A trade whose native or USD amount is unknown (a
 * token-to-token trade has no `amountSol`; a trade may have no price) makes the figures it would
 * enter unknown rather than silently zero: a lot bought without a native cost has an unknown
 * native cost, and a sell that consumes it has an unknown native realized PnL; such sells are
 * counted apart (`unpricedSells`), never added as if free.
 *
 * A sell of more than the history shows held (tokens that arrived by transfer, or before the
 * history starts) is `uncovered` for the excess: that quantity and its share of the proceeds are
 * reported apart, and never counted as profit against a zero cost.
 */
export type PnlMethod = 'average' | 'fifo';

/** A trade as the engine reads it: the eight fields, and its USD value where known (include=usd). */
export interface PnlTrade extends Trade {
  valueUsd?: string | null;
}

/** What a sell took from one lot (FIFO: a buy's lot; average: the pool), with the lot as it stood before. */
export interface LotTake {
  /** The buy that made the lot (FIFO), null for the average pool. */
  lot: string | null;
  boughtAt: string | null;
  amount: string;
  cost: string | null;
  costUsd: string | null;
  /** The lot before the take: `cost = lotCost × amount / lotAmount` (half-even), or all of it when it empties. */
  lotAmount: string;
  lotCost: string | null;
  lotCostUsd: string | null;
}

/** One trade's part in a token's figures (`lots: true`): what explains each figure of TokenPnl. */
export interface LotEntry {
  signature: string;
  blockTime: string;
  side: 'buy' | 'sell';
  amount: string;
  /** A buy's cost or a sell's proceeds, native and USD, as the trade says them. */
  native: string | null;
  usd: string | null;
  /** Sells: what came out of the lots, the part beyond them, the cost taken and the realized PnL (null: unknown). */
  takes?: LotTake[];
  uncovered?: string;
  costOfSold?: string | null;
  costOfSoldUsd?: string | null;
  realized?: string | null;
  realizedUsd?: string | null;
  /** The quantity held after this trade. */
  heldAfter: string;
}

/** An open lot: what is still held from one buy (FIFO) or the pool (average). */
export interface OpenLot {
  lot: string | null;
  boughtAt: string | null;
  amount: string;
  cost: string | null;
  costUsd: string | null;
}

export interface TokenPnl {
  tokenMint: string;
  /** The symbol of the token's newest trade (symbols change and collide; the mint is the key). */
  token: string;
  trades: number;
  buys: number;
  sells: number;
  /** Trades with no token amount: left out entirely, counted. */
  skipped: number;
  bought: string;
  sold: string;
  /** Native paid on buys and received on sells, over the trades that say it; USD likewise. */
  spent: string;
  received: string;
  spentUsd: string;
  receivedUsd: string;
  /** Quantity still held by what the history shows, and its cost (null when some of it is unknown). */
  open: string;
  openCost: string | null;
  openCostUsd: string | null;
  /** Realized PnL over the sells whose proceeds and consumed cost are both known. */
  realized: string;
  realizedUsd: string;
  /** Sells whose native (or USD) realized PnL is unknown: their figures are not in `realized` (`realizedUsd`). */
  unpricedSells: number;
  unpricedSellsUsd: number;
  /** Sold beyond what the history shows bought: the quantity, and that part's share of the proceeds. */
  uncovered: string;
  uncoveredProceeds: string;
  uncoveredProceedsUsd: string;
  /** Positions opened and closed back to zero by a sell, and how many of them made money (native, else USD). */
  closedPositions: number;
  winningPositions: number;
  /** Mean seconds from a position's first buy to the sell that closed it; null with none closed. */
  meanHoldingSeconds: number | null;
  /** With `lots: true`: every counted trade's part, oldest first, and the lots still open. */
  lots?: LotEntry[];
  openLots?: OpenLot[];
}

export interface PnlOptions {
  /** Keep each trade's part and the open lots (the figures' explanation); off, the engine keeps none. */
  lots?: boolean;
  /**
   * Told of each sell's native realized PnL as it is counted, in the order of the trades (null:
   * unknown, so left out of `realized`; 0 for a sell wholly uncovered): the dashboard's chart
   * from the same pass as the figures, where a second pass with lot entries cost more than the first.
   */
  onSell?: (trade: PnlTrade, realized: bigint | null) => void;
}

export interface PnlSummary {
  method: PnlMethod;
  tokens: TokenPnl[];
  realized: string;
  realizedUsd: string;
  uncoveredProceeds: string;
  uncoveredProceedsUsd: string;
  closedPositions: number;
  winningPositions: number;
  /** winningPositions / closedPositions, null with none closed (a ratio for display, not money). */
  winRate: number | null;
}

/** A pool of the token held: its quantity and its cost, native and USD (null: some of it unknown). */
interface Lot {
  /** The buy that opened it (FIFO); null for the average pool. */
  signature: string | null;
  blockTime: string | null;
  amount: bigint;
  cost: bigint | null;
  costUsd: bigint | null;
}

interface Ledger {
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
  spentUsd: bigint;
  receivedUsd: bigint;
  /**
   * FIFO: lots oldest first from `first` (used-up lots are skipped by moving `first`, not shifted
   * out: a shift per sell made FIFO quadratic in open lots); average: at most one pooled lot.
   */
  lots: Lot[];
  first: number;
  /** What the lots hold together, kept as they change (summing them at every trade was quadratic too). */
  held: bigint;
  realized: bigint;
  realizedUsd: bigint;
  unpricedSells: number;
  unpricedSellsUsd: number;
  uncovered: bigint;
  uncoveredProceeds: bigint;
  uncoveredProceedsUsd: bigint;
  /** The open position: when it was opened (ms) and what it has realized so far (null: unknown). */
  positionSince: number | null;
  positionRealized: bigint | null;
  positionRealizedUsd: bigint | null;
  closedPositions: number;
  winningPositions: number;
  holdingMs: number;
  /** With `lots: true` only. */
  entries: LotEntry[] | null;
}

const sum = (a: bigint | null, b: bigint | null): bigint | null => (a === null || b === null ? null : a + b);
const share = (v: bigint | null, part: bigint, whole: bigint): bigint | null => (v === null ? null : part === whole ? v : mulDivHalfEven(v, part, whole));

const text = (v: bigint | null): string | null => (v === null ? null : fromUnits(v));

function newLedger(t: Trade, lots: boolean): Ledger {
  return {
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
    spentUsd: 0n,
    receivedUsd: 0n,
    lots: [],
    first: 0,
    held: 0n,
    realized: 0n,
    realizedUsd: 0n,
    unpricedSells: 0,
    unpricedSellsUsd: 0,
    uncovered: 0n,
    uncoveredProceeds: 0n,
    uncoveredProceedsUsd: 0n,
    positionSince: null,
    positionRealized: 0n,
    positionRealizedUsd: 0n,
    closedPositions: 0,
    winningPositions: 0,
    holdingMs: 0,
    entries: lots ? [] : null,
  };
}

/** The lots still open, oldest first. */
const openLots = (l: Ledger): Lot[] => (l.first ? l.lots.slice(l.first) : l.lots);

function buy(l: Ledger, method: PnlMethod, t: Trade, amount: bigint, cost: bigint | null, costUsd: bigint | null): void {
  l.buys++;
  l.bought += amount;
  l.held += amount;
  if (cost !== null) l.spent += cost;
  if (costUsd !== null) l.spentUsd += costUsd;
  if (l.positionSince === null) {
    l.positionSince = Date.parse(t.blockTime);
    l.positionRealized = 0n;
    l.positionRealizedUsd = 0n;
  }
  if (method === 'average' && l.lots.length > l.first) {
    const pool = l.lots[l.first];
    pool.amount += amount;
    pool.cost = sum(pool.cost, cost);
    pool.costUsd = sum(pool.costUsd, costUsd);
  } else {
    const own = method === 'fifo';
    l.lots.push({ signature: own ? t.signature : null, blockTime: own ? t.blockTime : null, amount, cost, costUsd });
  }
  l.entries?.push({
    signature: t.signature,
    blockTime: t.blockTime,
    side: 'buy',
    amount: fromUnits(amount),
    native: text(cost),
    usd: text(costUsd),
    heldAfter: fromUnits(l.held),
  });
}

/** Takes `amount` out of the lots (oldest first; the pool in proportion): the cost taken out, native and USD. */
function consume(l: Ledger, amount: bigint): { cost: bigint | null; costUsd: bigint | null; takes: LotTake[] | null } {
  let cost: bigint | null = 0n;
  let costUsd: bigint | null = 0n;
  let left = amount;
  const takes: LotTake[] | null = l.entries ? [] : null;
  while (left > 0n && l.first < l.lots.length) {
    const lot = l.lots[l.first];
    const take = left < lot.amount ? left : lot.amount;
    // The whole lot's cost when it is used up: no rounding dust stays behind.
    const c = share(lot.cost, take, lot.amount);
    const u = share(lot.costUsd, take, lot.amount);
    takes?.push({
      lot: lot.signature,
      boughtAt: lot.blockTime,
      amount: fromUnits(take),
      cost: text(c),
      costUsd: text(u),
      lotAmount: fromUnits(lot.amount),
      lotCost: text(lot.cost),
      lotCostUsd: text(lot.costUsd),
    });
    cost = sum(cost, c);
    costUsd = sum(costUsd, u);
    lot.amount -= take;
    if (lot.cost !== null) lot.cost -= c!;
    if (lot.costUsd !== null) lot.costUsd -= u!;
    l.held -= take;
    if (lot.amount === 0n) {
      l.first++;
      // Now and then the used-up head is dropped, so memory follows the open lots.
      if (l.first > 1_024 && l.first * 2 > l.lots.length) {
        l.lots = l.lots.slice(l.first);
        l.first = 0;
      }
    }
    left -= take;
  }
  return { cost, costUsd, takes };
}

function sell(l: Ledger, t: Trade, amount: bigint, proceeds: bigint | null, proceedsUsd: bigint | null, onSell?: PnlOptions['onSell']): void {
  l.sells++;
  l.sold += amount;
  if (proceeds !== null) l.received += proceeds;
  if (proceedsUsd !== null) l.receivedUsd += proceedsUsd;
  const held = l.held;
  const covered = amount < held ? amount : held;
  if (covered < amount) {
    // Beyond what the history shows held: its share of the proceeds is reported apart.
    const excess = amount - covered;
    l.uncovered += excess;
    l.uncoveredProceeds += share(proceeds, excess, amount) ?? 0n;
    l.uncoveredProceedsUsd += share(proceedsUsd, excess, amount) ?? 0n;
  }
  const entry: LotEntry | undefined = l.entries
    ? {
        signature: t.signature,
        blockTime: t.blockTime,
        side: 'sell',
        amount: fromUnits(amount),
        native: text(proceeds),
        usd: text(proceedsUsd),
        heldAfter: '0',
      }
    : undefined;
  if (entry) {
    entry.uncovered = fromUnits(amount - covered);
    entry.takes = [];
    l.entries!.push(entry);
  }
  if (covered === 0n) {
    if (entry) Object.assign(entry, { costOfSold: '0', costOfSoldUsd: '0', realized: '0', realizedUsd: '0' });
    onSell?.(t, 0n);
    return;
  }
  const taken = consume(l, covered);
  const coveredProceeds = share(proceeds, covered, amount);
  const coveredProceedsUsd = share(proceedsUsd, covered, amount);
  const pnl = coveredProceeds === null || taken.cost === null ? null : coveredProceeds - taken.cost;
  const pnlUsd = coveredProceedsUsd === null || taken.costUsd === null ? null : coveredProceedsUsd - taken.costUsd;
  if (pnl === null) l.unpricedSells++;
  else l.realized += pnl;
  if (pnlUsd === null) l.unpricedSellsUsd++;
  else l.realizedUsd += pnlUsd;
  onSell?.(t, pnl);
  if (entry) {
    Object.assign(entry, {
      takes: taken.takes,
      costOfSold: text(taken.cost),
      costOfSoldUsd: text(taken.costUsd),
      realized: text(pnl),
      realizedUsd: text(pnlUsd),
    });
    entry.heldAfter = fromUnits(l.held);
  }
  l.positionRealized = sum(l.positionRealized, pnl);
  l.positionRealizedUsd = sum(l.positionRealizedUsd, pnlUsd);
  if (l.held === 0n && l.positionSince !== null) {
    l.closedPositions++;
    const result = l.positionRealized ?? l.positionRealizedUsd;
    if (result !== null && result > 0n) l.winningPositions++;
    l.holdingMs += Date.parse(t.blockTime) - l.positionSince;
    l.positionSince = null;
  }
}

/** PnL per token of trades given oldest first (the order they happened; a transaction's legs in order). */
export function computePnl(trades: Iterable<PnlTrade>, method: PnlMethod = 'average', options: PnlOptions = {}): PnlSummary {
  const ledgers = new Map<string, Ledger>();
  for (const t of trades) {
    let l = ledgers.get(t.tokenMint);
    if (!l) ledgers.set(t.tokenMint, (l = newLedger(t, options.lots === true)));
    l.trades++;
    l.token = t.token;
    if (t.amount === null) {
      l.skipped++;
      continue;
    }
    const amount = toUnits(t.amount);
    if (amount <= 0n) {
      l.skipped++;
      continue;
    }
    const native = t.amountSol === null ? null : toUnits(t.amountSol);
    const usd = t.valueUsd === null || t.valueUsd === undefined ? null : toUnits(t.valueUsd);
    // The time is parsed only where a position opens or closes: most trades do neither.
    if (t.side === 'buy') buy(l, method, t, amount, native, usd);
    else sell(l, t, amount, native, usd, options.onSell);
  }
  const tokens = [...ledgers.values()].map(report);
  const total = (f: (t: Ledger) => bigint) => fromUnits([...ledgers.values()].reduce((n, l) => n + f(l), 0n));
  const closed = tokens.reduce((n, t) => n + t.closedPositions, 0);
  const winning = tokens.reduce((n, t) => n + t.winningPositions, 0);
  return {
    method,
    tokens,
    realized: total((l) => l.realized),
    realizedUsd: total((l) => l.realizedUsd),
    uncoveredProceeds: total((l) => l.uncoveredProceeds),
    uncoveredProceedsUsd: total((l) => l.uncoveredProceedsUsd),
    closedPositions: closed,
    winningPositions: winning,
    winRate: closed ? winning / closed : null,
  };
}

function report(l: Ledger): TokenPnl {
  const open = openLots(l);
  const openCost = open.reduce<bigint | null>((n, lot) => sum(n, lot.cost), 0n);
  const openCostUsd = open.reduce<bigint | null>((n, lot) => sum(n, lot.costUsd), 0n);
  return {
    tokenMint: l.tokenMint,
    token: l.token,
    trades: l.trades,
    buys: l.buys,
    sells: l.sells,
    skipped: l.skipped,
    bought: fromUnits(l.bought),
    sold: fromUnits(l.sold),
    spent: fromUnits(l.spent),
    received: fromUnits(l.received),
    spentUsd: fromUnits(l.spentUsd),
    receivedUsd: fromUnits(l.receivedUsd),
    open: fromUnits(l.held),
    openCost: openCost === null ? null : fromUnits(openCost),
    openCostUsd: openCostUsd === null ? null : fromUnits(openCostUsd),
    realized: fromUnits(l.realized),
    realizedUsd: fromUnits(l.realizedUsd),
    unpricedSells: l.unpricedSells,
    unpricedSellsUsd: l.unpricedSellsUsd,
    uncovered: fromUnits(l.uncovered),
    uncoveredProceeds: fromUnits(l.uncoveredProceeds),
    uncoveredProceedsUsd: fromUnits(l.uncoveredProceedsUsd),
    closedPositions: l.closedPositions,
    winningPositions: l.winningPositions,
    meanHoldingSeconds: l.closedPositions ? Math.round(l.holdingMs / l.closedPositions / 1000) : null,
    ...(l.entries && {
      lots: l.entries,
      openLots: open.map((lot) => ({
        lot: lot.signature,
        boughtAt: lot.blockTime,
        amount: fromUnits(lot.amount),
        cost: text(lot.cost),
        costUsd: text(lot.costUsd),
      })),
    }),
  };
}
