/// <reference lib="webworker" />
/**
 * PnL, the portfolio and the exports off the main thread and off the loader: the engine's exact
 * bigints over 100,000 trades take hundreds of ms, which on the page would drop frames and in the
 * loader worker would stall ingestion. It reads the wallets from IndexedDB itself, so only the
 * figures cross threads (a wallet's lots only for the token the person opens).
 */
import * as Comlink from 'comlink';
import { computePnl, type PnlMethod, type PnlTrade, type TokenPnl } from '../pnl/pnl-engine.js';
import { exportCsv, type ExportFormat } from '../pnl/export-csv.js';
import { getDb, walletBatches, type StoredTrade } from './db.js';
import { byRealized, oldestFirstByTransaction, openPositions, realizedSeries, type PnlPoint } from './pnl.js';
import { summarizePortfolio, walletLine, type PortfolioSummary, type WalletPnlLine } from './portfolio.js';

const db = getDb();

export interface WalletPnl {
  walletId: string;
  method: PnlMethod;
  /** The engine's figures, tokens without their lots, largest realized PnL first. */
  tokens: TokenPnl[];
  realized: string;
  realizedUsd: string;
  uncoveredProceeds: string;
  uncoveredProceedsUsd: string;
  closedPositions: number;
  winningPositions: number;
  winRate: number | null;
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

/** A wallet's trades oldest first, kept while its stored rows have not changed (the load row says when they do). */
interface Cached {
  key: string;
  trades: PnlTrade[];
}
const cache = new Map<string, Cached>();
/** Wallets kept in memory: the one on screen and a portfolio's few. */
const CACHE_WALLETS = 6;

async function tradesOf(id: string): Promise<{ trades: PnlTrade[]; readMs: number }> {
  const load = await db.loads.get(id);
  const key = load ? `${load.tradeCount}:${load.generation ?? 0}:${load.headFp ?? load.head}:${load.tailFp}` : 'none';
  const hit = cache.get(id);
  if (hit && hit.key === key) {
    // Most recently used last: the first entry is the one to drop.
    cache.delete(id);
    cache.set(id, hit);
    return { trades: hit.trades, readMs: 0 };
  }
  const t0 = performance.now();
  const batches = await walletBatches(db, id).reverse().toArray();
  const newestFirst: StoredTrade[] = [];
  for (const b of batches) for (const t of b.trades) newestFirst.push(t);
  const trades = oldestFirstByTransaction(newestFirst);
  cache.delete(id);
  cache.set(id, { key, trades });
  while (cache.size > CACHE_WALLETS) cache.delete(cache.keys().next().value!);
  return { trades, readMs: performance.now() - t0 };
}

const exposed = {
  async compute(walletId: string, method: PnlMethod): Promise<WalletPnl> {
    const { trades, readMs } = await tradesOf(walletId);
    const t0 = performance.now();
    const s = computePnl(trades, method);
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
    return {
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
  },

  /** The chart's points: the engine again with its lot entries (slower than the figures, so asked after them). */
  async series(walletId: string, method: PnlMethod): Promise<PnlPoint[]> {
    const { trades } = await tradesOf(walletId);
    return realizedSeries(computePnl(trades, method, { lots: true }));
  },

  /** One token's figures with the lots behind them: only its trades go through the engine (tokens never mix). */
  async tokenLots(walletId: string, method: PnlMethod, tokenMint: string): Promise<TokenPnl | null> {
    const { trades } = await tradesOf(walletId);
    return (
      computePnl(
        trades.filter((t) => t.tokenMint === tokenMint),
        method,
        { lots: true },
      ).tokens[0] ?? null
    );
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
