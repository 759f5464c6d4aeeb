import { describe, expect, it } from 'vitest';
import { computePnl } from '../../src/lib/pnl/pnl-engine.js';
import { exportFileName, inPortfolio, summarizePortfolio, walletLine, type WalletPnlLine } from '../../src/lib/dashboard/portfolio.js';
import { formatDuration, formatPercent, formatUsd, walletName } from '../../src/lib/dashboard/format.js';

function line(o: Partial<WalletPnlLine> & Pick<WalletPnlLine, 'walletId' | 'chain'>): WalletPnlLine {
  return {
    address: o.walletId.split(':')[1],
    trades: 0,
    tokens: 0,
    realized: '0',
    realizedUsd: '0',
    uncoveredProceeds: '0',
    uncoveredProceedsUsd: '0',
    unpricedSells: 0,
    unpricedSellsUsd: 0,
    openPositions: 0,
    closedPositions: 0,
    winningPositions: 0,
    winRate: null,
    ...o,
  };
}

describe('portfolio summary', () => {
  it('adds USD across chains, native per chain only, and rates wins over all closed positions', () => {
    const lines = [
      line({
        walletId: 'sol:A',
        chain: 'sol',
        trades: 10,
        realized: '1.5',
        realizedUsd: '10.5',
        openPositions: 2,
        closedPositions: 4,
        winningPositions: 2,
        winRate: 0.5,
      }),
      line({ walletId: 'tron:T', chain: 'tron', trades: 3, realized: '100', realizedUsd: '-3.25', closedPositions: 2, winningPositions: 1, winRate: 0.5 }),
      line({
        walletId: 'sol:B',
        chain: 'sol',
        trades: 5,
        realized: '-0.25',
        realizedUsd: '0.000000000000000001',
        uncoveredProceeds: '0.7',
        uncoveredProceedsUsd: '70',
        unpricedSellsUsd: 2,
        openPositions: 1,
      }),
    ];
    const s = summarizePortfolio('fifo', lines);
    // USD: 10.5 - 3.25 + 1e-18, exact. SOL: 1.5 - 0.25; TRX alone. Wins: (2 + 1) / (4 + 2 + 0).
    expect(s).toMatchObject({
      method: 'fifo',
      wallets: 3,
      trades: 18,
      realizedUsd: '7.250000000000000001',
      uncoveredProceedsUsd: '70',
      unpricedSellsUsd: 2,
      openPositions: 3,
      closedPositions: 6,
      winningPositions: 3,
      winRate: 0.5,
    });
    expect(s.byChain).toEqual([
      { chain: 'sol', realized: '1.25', uncoveredProceeds: '0.7', wallets: 2 },
      { chain: 'tron', realized: '100', uncoveredProceeds: '0', wallets: 1 },
    ]);
  });

  it('has no win rate with no closed position, and nothing at all with no wallet', () => {
    expect(summarizePortfolio('average', [line({ walletId: 'sol:A', chain: 'sol', openPositions: 1 })]).winRate).toBeNull();
    expect(summarizePortfolio('average', [])).toMatchObject({ wallets: 0, realizedUsd: '0', byChain: [], winRate: null });
  });

  it('takes a wallet’s line from the engine’s figures', () => {
    // M: buy 2 for 1 ($10), sell 2 for 3 ($33): realized 2 / $23, closed and won.
    // N: buy 5 for 1, nothing sold: open. O: a sell with no buy: uncovered 0.4, no position.
    const at = (m: number) => `2025-01-01T00:0${m}:00Z`;
    const base = { token: 'X', dex: 'pumpfun' };
    const s = computePnl([
      { ...base, signature: 'a', side: 'buy', tokenMint: 'M', amount: '2', amountSol: '1', blockTime: at(1), valueUsd: '10' },
      { ...base, signature: 'b', side: 'buy', tokenMint: 'N', amount: '5', amountSol: '1', blockTime: at(2), valueUsd: '10' },
      { ...base, signature: 'c', side: 'sell', tokenMint: 'M', amount: '2', amountSol: '3', blockTime: at(3), valueUsd: '33' },
      { ...base, signature: 'd', side: 'sell', tokenMint: 'O', amount: '1', amountSol: '0.4', blockTime: at(4), valueUsd: null },
    ]);
    const l = walletLine({ id: 'sol:W', chain: 'sol', address: 'W' }, 4, s);
    expect(l).toMatchObject({
      walletId: 'sol:W',
      trades: 4,
      tokens: 3,
      realized: '2',
      realizedUsd: '23',
      uncoveredProceeds: '0.4',
      uncoveredProceedsUsd: '0',
      openPositions: 1,
      closedPositions: 1,
      winningPositions: 1,
      winRate: 1,
    });
  });
});

describe('portfolio membership, names and files', () => {
  it('keeps every stored wallet in unless taken out', () => {
    expect(inPortfolio({})).toBe(true);
    expect(inPortfolio({ inPortfolio: true })).toBe(true);
    expect(inPortfolio({ inPortfolio: false })).toBe(false);
  });

  it('names export files by label or short address, chain and format', () => {
    const address = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
    expect(exportFileName({ address, chain: 'sol' }, 'koinly')).toBe('9WzDXw-AWWM-sol-koinly.csv');
    expect(exportFileName({ address, chain: 'sol', label: '  Main / trading  ' }, 'csv')).toBe('Main-trading-sol-csv.csv');
    expect(exportFileName({ address, chain: 'sol', label: '../..' }, 'cointracker')).toBe('..-..-sol-cointracker.csv');
    expect(walletName({ address, label: 'Main' })).toBe('Main');
    expect(walletName({ address })).toBe('9WzD…AWWM');
  });

  it('formats rates and holding times for the eye', () => {
    expect(formatPercent(null)).toBe('—');
    expect(formatPercent(2 / 3)).toBe('67%');
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(90)).toBe('1.5 min');
    expect(formatDuration(5400)).toBe('1.5 h');
    expect(formatDuration(86_400 * 12)).toBe('12 d');
  });
});

describe('USD for the eye', () => {
  it('puts a loss’s sign ahead of the dollar and keeps small values readable', () => {
    expect(formatUsd('-12976.3449')).toBe('-$12,976.34');
    expect(formatUsd('1234.5')).toBe('$1,234.5');
    expect(formatUsd('-0.001')).toBe('-$0.001');
    expect(formatUsd('-0.000000001')).toBe('-$0.000000001');
    expect(formatUsd('-0.004')).toBe('-$0.004');
    expect(formatUsd(null)).toBe('—');
  });
});
