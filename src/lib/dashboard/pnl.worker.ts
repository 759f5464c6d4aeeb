/// <reference lib="webworker" />
/**
 * PnL, the portfolio and the exports off the main thread and off the loader: the engine's exact
 * bigints over 100,000 trades take hundreds of ms, which on the page would drop frames and in the
 * loader worker would stall ingestion. It reads the wallets from IndexedDB itself, so only the
 * figures cross threads (a wallet's lots only for the token the person opens).
 */
import * as Comlink from 'comlink';
import { computePnl, type PnlMethod, type PnlSummary, type PnlTrade, type TokenPnl } from '../pnl/pnl-engine.js';
import { exportCsv, type ExportFormat } from '../pnl/export-csv.js';
import { getDb, walletBatches, type StoredTrade } from './db.js';
import { byRealized, reverseByTransaction, openPositions, pnlWithSeries, type PnlPoint } from './pnl.js';
import { summarizePortfolio, walletLine, type PortfolioSummary, type WalletPnlLine } from './portfolio.js';

const db = getDb();

/** The engine's summary (tokens without their lots, largest realized PnL first), and what the page adds. */
export interface WalletPnl extends PnlSummary {
  walletId: string;
  /** Sells whose native (USD) realized PnL is unknown, and trades with no token amount, over every token. */
  unpricedSells: number;
  unpricedSellsUsd: number;
  skipped: number;
  openPositions: number;
  trades: number;
  dexes: string[];
  /** Where the time went (ms): reading IndexedDB (0 when the worker still had the wallet), the engine. */
  readMs: number;
  computeMs: number;
}

/**
 * A wallet's trades oldest first, kept while its stored rows have not changed (the load row says
 * when they do), with what was computed from them: switching back to a method costs nothing.
 */
interface Cached {
  key: string;
  trades: PnlTrade[];
  /** The trades of each token, in order (the engine's figures of a token depend on its trades only). */
  byMint?: Map<string, PnlTrade[]>;
  figures: Map<PnlMethod, WalletPnl>;
  series: Map<PnlMethod, PnlPoint[]>;
}
const cache = new Map<string, Cached>();
/** Wallets kept in memory: the one on screen and a portfolio's few. */
const CACHE_WALLETS = 6;

async function tradesOf(id: string): Promise<{ trades: PnlTrade[]; readMs: number; entry: Cached }> {
  const load = await db.loads.get(id);
  const key = load ? `${load.tradeCount}:${load.generation ?? 0}:${load.headFp ?? load.head}:${load.tailFp}` : 'none';
  const hit = cache.get(id);
  if (hit && hit.key === key) {
    // Most recently used last: the first entry is the one to drop.
    cache.delete(id);
    cache.set(id, hit);
    return { trades: hit.trades, readMs: 0, entry: hit };
  }
  const t0 = performance.now();
  const batches = await walletBatches(db, id).reverse().toArray();
  const newestFirst: StoredTrade[] = [];
  for (const b of batches) for (const t of b.trades) newestFirst.push(t);
  const trades = reverseByTransaction(newestFirst);
  const entry: Cached = { key, trades, figures: new Map(), series: new Map() };
  cache.delete(id);
  cache.set(id, entry);
  while (cache.size > CACHE_WALLETS) cache.delete(cache.keys().next().value!);
  return { trades, readMs: performance.now() - t0, entry };
}

function byMint(entry: Cached): Map<string, PnlTrade[]> {
  if (entry.byMint) return entry.byMint;
  const groups = new Map<string, PnlTrade[]>();
  for (const t of entry.trades) {
    const g = groups.get(t.tokenMint);
    if (g) g.push(t);
    else groups.set(t.tokenMint, [t]);
  }
  return (entry.byMint = groups);
}

const exposed = {
  async compute(walletId: string, method: PnlMethod): Promise<WalletPnl> {
    const { trades, readMs, entry } = await tradesOf(walletId);
    const known = entry.figures.get(method);
    if (known) return { ...known, readMs: 0, computeMs: 0 };
    const t0 = performance.now();
    // The chart's points come from the same pass (the engine tells each sell's realized figure).
    const { summary: s, series } = pnlWithSeries(trades, method);
    const dexes = new Set<string>();
    for (const t of trades) dexes.add(t.dex);
    let unpricedSells = 0;
    let unpricedSellsUsd = 0;
    let skipped = 0;
    for (const t of s.tokens) {
      unpricedSells += t.unpricedSells;
      unpricedSellsUsd += t.unpricedSellsUsd;
      skipped += t.skipped;
    }
    const figures: WalletPnl = {
      walletId,
      method,
      realized: s.realized,
      realizedUsd: s.realizedUsd,
      uncoveredProceeds: s.uncoveredProceeds,
      uncoveredProceedsUsd: s.uncoveredProceedsUsd,
      closedPositions: s.closedPositions,
      winningPositions: s.winningPositions,
      winRate: s.winRate,
      tokens: byRealized(s.tokens),
      unpricedSells,
      unpricedSellsUsd,
      skipped,
      openPositions: openPositions(s),
      trades: trades.length,
      dexes: [...dexes].sort(),
      readMs,
      computeMs: performance.now() - t0,
    };
    entry.figures.set(method, figures);
    entry.series.set(method, series);
    return figures;
  },

  /** The chart's points, made with the figures (asked after them; computed with them when not yet). */
  async series(walletId: string, method: PnlMethod): Promise<PnlPoint[] | null> {
    await exposed.compute(walletId, method);
    return (await tradesOf(walletId)).entry.series.get(method) ?? null;
  },

  /** One token's figures with the lots behind them: only its trades go through the engine (tokens never mix). */
  async tokenLots(walletId: string, method: PnlMethod, tokenMint: string): Promise<TokenPnl | null> {
    const { entry } = await tradesOf(walletId);
    return computePnl(byMint(entry).get(tokenMint) ?? [], method, { lots: true }).tokens[0] ?? null;
  },

  async portfolio(walletIds: string[], method: PnlMethod): Promise<{ lines: WalletPnlLine[]; summary: PortfolioSummary }> {
    const lines: WalletPnlLine[] = [];
    for (const id of walletIds) {
      const w = await db.wallets.get(id);
      if (!w) continue;
      const { trades } = await tradesOf(id);
      lines.push(walletLine(w, trades.length, computePnl(trades, method)));
    }
    return { lines, summary: summarizePortfolio(method, lines) };
  },

  /** A wallet's stored trades as one of the export formats, oldest first (the server's `/export` writes the same). */
  async exportCsv(walletId: string, format: ExportFormat, nativeSymbol: string): Promise<string> {
    const w = await db.wallets.get(walletId);
    if (!w) throw new Error(`no wallet ${walletId} stored here`);
    const { trades } = await tradesOf(walletId);
    return exportCsv(trades, { format, chain: w.chain, wallet: w.address, nativeSymbol });
  },
};

export type PnlWorkerApi = typeof exposed;
Comlink.expose(exposed);
