import { describe, expect, it } from 'vitest';
import type { Trade } from '../../src/lib/core/trade.js';
import { computePnl, computePnlNewestFirst } from '../../src/lib/dashboard/pnl.js';
import { fromScaled, mulDiv, roundScaled, toScaled } from '../../src/lib/core/exact.js';

let n = 0;
function t(side: 'buy' | 'sell', amount: string | null, amountSol: string | null, mint = 'M', minute = ++n): Trade {
  return {
    signature: `s${minute}`,
    side,
    token: mint === 'M' ? 'MEME' : 'OTHER',
    tokenMint: mint,
    amount,
    amountSol,
    dex: 'pumpfun',
    blockTime: new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString().replace('.000Z', 'Z'),
  };
}

describe('average-cost PnL', () => {
  it('buys at different prices then a partial sell', () => {
    // Buy 100 for 1 SOL (0.01 each), buy 100 for 3 SOL (0.03 each): 200 held at average 0.02.
    // Sell 50 for 2 SOL: basis 50 * 0.02 = 1, realized 1. Left: 150 held, basis 3.
    const r = computePnl([t('buy', '100', '1'), t('buy', '100', '3'), t('sell', '50', '2')]);
    const m = r.tokens[0];
    expect(m).toMatchObject({
      tokenMint: 'M',
      trades: 3,
      buys: 2,
      sells: 1,
      bought: '200',
      sold: '50',
      spent: '4',
      received: '2',
      held: '150',
      costBasis: '3',
      averageCost: '0.02',
      realized: '1',
      unknownBasisAmount: '0',
      unknownBasisProceeds: '0',
      skipped: 0,
    });
    expect(r.realized).toBe('1');
    expect(r.series.map((p) => p.cumulative)).toEqual(['1']);
  });

  it('sells everything at a loss and leaves no dust', () => {
    // 3 buys of 1 token for 1 SOL each = cost 3 over 3 tokens (1/3 each when split by thirds);
    // sell 1 for 0.5 (basis 1, -0.5), sell 2 for 1 (basis 2, -1): realized -1.5, nothing left.
    const r = computePnl([t('buy', '1', '1'), t('buy', '1', '1'), t('buy', '1', '1'), t('sell', '1', '0.5'), t('sell', '2', '1')]);
    expect(r.tokens[0]).toMatchObject({ held: '0', costBasis: '0', averageCost: null, realized: '-1.5' });
    expect(r.series.map((p) => p.cumulative)).toEqual(['-0.5', '-1.5']);
  });

  it('rounds a third exactly at 36 places and closes the position to zero', () => {
    // Buy 3 for 1: sell 1 for 1: basis 1/3 -> realized 0.666...667; sell 2 for 0: basis = the rest exactly.
    const r = computePnl([t('buy', '3', '1'), t('sell', '1', '1'), t('sell', '2', '0')]);
    expect(r.tokens[0].held).toBe('0');
    expect(r.tokens[0].costBasis).toBe('0');
    // 1 - 0.333... + (0 - 0.666...) = 0 exactly: the two basis parts add to the cost.
    expect(r.realized).toBe('0');
    expect(r.series[0].cumulative).toBe('0.666666666666666666666666666666666667');
  });

  it('gives the excess of an oversold position an unknown basis', () => {
    // Bought 100 for 1; sold 150 for 3. Covered 100 -> proceeds 2, basis 1, realized 1.
    // Excess 50 tokens with proceeds 1 have no known basis and stay out of realized PnL.
    const r = computePnl([t('buy', '100', '1'), t('sell', '150', '3')]);
    expect(r.tokens[0]).toMatchObject({ realized: '1', unknownBasisAmount: '50', unknownBasisProceeds: '1', held: '0', costBasis: '0' });
    expect(r.unknownBasisProceeds).toBe('1');
    // A sell with no buy at all in the history: everything is unknown basis.
    const s = computePnl([t('sell', '10', '0.7', 'X')]);
    expect(s.tokens[0]).toMatchObject({ realized: '0', unknownBasisAmount: '10', unknownBasisProceeds: '0.7' });
  });

  it('leaves out trades with a null amount and counts them', () => {
    const r = computePnl([t('buy', '10', '1'), t('buy', null, '5'), t('sell', '5', null), t('sell', '5', '2')]);
    expect(r.tokens[0]).toMatchObject({ trades: 4, skipped: 2, bought: '10', sold: '5', realized: '1.5', held: '5', costBasis: '0.5' });
    expect(r.skipped).toBe(2);
  });

  it('is exact with 18-decimal amounts that a float would round', () => {
    const r = computePnl([t('buy', '1', '0.100000000000000001'), t('sell', '1', '0.300000000000000002')]);
    expect(r.realized).toBe('0.200000000000000001');
  });

  it('keeps tokens apart by mint and reads newest-first input', () => {
    const a = [t('buy', '10', '1', 'A'), t('buy', '4', '2', 'B'), t('sell', '10', '3', 'A'), t('sell', '2', '0.5', 'B')];
    const r = computePnlNewestFirst([...a].reverse());
    const byMint = Object.fromEntries(r.tokens.map((x) => [x.tokenMint, x]));
    expect(byMint.A.realized).toBe('2');
    expect(byMint.B.realized).toBe('-0.5');
    expect(r.realized).toBe('1.5');
    expect(r.series.map((p) => p.cumulative)).toEqual(['2', '1.5']);
  });
});

describe('exact helpers', () => {
  it('round trips and rounds for display', () => {
    expect(fromScaled(toScaled('-12.5'))).toBe('-12.5');
    expect(roundScaled(toScaled('1.23456'), 4)).toBe('1.2346');
    expect(roundScaled(toScaled('-0.00001'), 4)).toBe('0.0000');
    expect(mulDiv(-5n, 1n, 2n)).toBe(-3n);
  });
});
