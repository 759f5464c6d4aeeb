/**
 * A portfolio of stored wallets (issue 25): each wallet's PnL by the one engine, and the figures
 * added up across them. Native amounts add up per chain only (SOL and TRX do not add); USD adds up
 * across every chain. Exact: the sums are of the engine's decimal literals as bigints.
 */
import { fromScaled, toScaled } from '../core/exact.js';
import type { PnlMethod, PnlSummary } from '../pnl/pnl-engine.js';
import { openPositions } from './pnl.js';

/** One wallet's line of the portfolio. */
export interface WalletPnlLine {
  walletId: string;
  chain: string;
  address: string;
  trades: number;
  tokens: number;
  realized: string;
  realizedUsd: string;
  /** Sold beyond what was bought: proceeds left out of realized PnL. */
  uncoveredProceeds: string;
  uncoveredProceedsUsd: string;
  /** Sells whose native (USD) realized figure is unknown, so not in `realized` (`realizedUsd`). */
  unpricedSells: number;
  unpricedSellsUsd: number;
  openPositions: number;
  closedPositions: number;
  winningPositions: number;
  winRate: number | null;
}

export interface PortfolioSummary {
  method: PnlMethod;
  wallets: number;
  trades: number;
  realizedUsd: string;
  /** Per chain: the native realized PnL, its uncovered proceeds, and the chain's wallets. */
  byChain: { chain: string; realized: string; uncoveredProceeds: string; wallets: number }[];
  uncoveredProceedsUsd: string;
  unpricedSells: number;
  unpricedSellsUsd: number;
  openPositions: number;
  closedPositions: number;
  winningPositions: number;
  /** Winning over closed positions of every wallet (not the mean of the wallets' rates). */
  winRate: number | null;
}

export function walletLine(w: { id: string; chain: string; address: string }, trades: number, s: PnlSummary): WalletPnlLine {
  let unpriced = 0;
  let unpricedUsd = 0;
  for (const t of s.tokens) {
    unpriced += t.unpricedSells;
    unpricedUsd += t.unpricedSellsUsd;
  }
  return {
    walletId: w.id,
    chain: w.chain,
    address: w.address,
    trades,
    tokens: s.tokens.length,
    realized: s.realized,
    realizedUsd: s.realizedUsd,
    uncoveredProceeds: s.uncoveredProceeds,
    uncoveredProceedsUsd: s.uncoveredProceedsUsd,
    unpricedSells: unpriced,
    unpricedSellsUsd: unpricedUsd,
    openPositions: openPositions(s),
    closedPositions: s.closedPositions,
    winningPositions: s.winningPositions,
    winRate: s.winRate,
  };
}

export function summarizePortfolio(method: PnlMethod, lines: readonly WalletPnlLine[]): PortfolioSummary {
  let usd = 0n;
  let uncoveredUsd = 0n;
  const chains = new Map<string, { realized: bigint; uncovered: bigint; wallets: number }>();
  const out = { trades: 0, unpricedSells: 0, unpricedSellsUsd: 0, openPositions: 0, closedPositions: 0, winningPositions: 0 };
  for (const l of lines) {
    usd += toScaled(l.realizedUsd);
    uncoveredUsd += toScaled(l.uncoveredProceedsUsd);
    let c = chains.get(l.chain);
    if (!c) chains.set(l.chain, (c = { realized: 0n, uncovered: 0n, wallets: 0 }));
    c.realized += toScaled(l.realized);
    c.uncovered += toScaled(l.uncoveredProceeds);
    c.wallets++;
    out.trades += l.trades;
    out.unpricedSells += l.unpricedSells;
    out.unpricedSellsUsd += l.unpricedSellsUsd;
    out.openPositions += l.openPositions;
    out.closedPositions += l.closedPositions;
    out.winningPositions += l.winningPositions;
  }
  return {
    method,
    wallets: lines.length,
    ...out,
    realizedUsd: fromScaled(usd),
    uncoveredProceedsUsd: fromScaled(uncoveredUsd),
    byChain: [...chains].map(([chain, c]) => ({ chain, realized: fromScaled(c.realized), uncoveredProceeds: fromScaled(c.uncovered), wallets: c.wallets })),
    winRate: out.closedPositions ? out.winningPositions / out.closedPositions : null,
  };
}

/** Who is in the portfolio: every stored wallet unless the person took it out. */
export function inPortfolio(w: { inPortfolio?: boolean }): boolean {
  return w.inPortfolio !== false;
}

/** A download's file name: `<label-or-short-address>-<chain>-<format>.csv`, safe on any file system. */
export function exportFileName(w: { label?: string; address: string; chain: string }, format: string): string {
  const who = w.label?.trim() || `${w.address.slice(0, 6)}-${w.address.slice(-4)}`;
  const safe = (s: string) =>
    s
      .replace(/[^\p{L}\p{N}._-]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'wallet';
  return `${safe(who)}-${safe(w.chain)}-${format}.csv`;
}
