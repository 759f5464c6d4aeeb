import { describe, expect, it } from 'vitest';
import type { PnlTrade } from '../../src/lib/pnl/pnl-engine.js';
import { computePnl } from '../../src/lib/pnl/pnl-engine.js';
import { byRealized, reverseByTransaction, openPositions, pnlWithSeries, RealizedSeries, thinSeries } from '../../src/lib/dashboard/pnl.js';
import { fromScaled, mulDiv, mulDivHalfEven, roundScaled, toScaled } from '../../src/lib/core/exact.js';

/**
 * The dashboard's part of PnL: the order the engine reads (oldest transaction first, legs in
 * order) and the chart's series from the engine's lot entries. Expectations worked by hand.
 */
let n = 0;
function t(
  side: 'buy' | 'sell',
  amount: string | null,
  amountSol: string | null,
  mint = 'M',
  o: { sig?: string; minute?: number; usd?: string | null } = {},
): PnlTrade {
  const minute = o.minute ?? ++n;
  return {
    signature: o.sig ?? `s${minute}`,
    side,
    token: mint === 'M' ? 'MEME' : mint,
    tokenMint: mint,
    amount,
    amountSol,
    dex: 'pumpfun',
    blockTime: new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString().replace('.000Z', 'Z'),
    ...(o.usd !== undefined && { valueUsd: o.usd }),
  };
}

describe('oldest first by transaction', () => {
  it('reverses transactions but keeps each one’s legs in leg order', () => {
    const x = (sig: string, leg: number) => ({ signature: sig, leg });
    // Delivery order: tx3 (legs 0, 1), tx2, tx1 (legs 0, 1, 2).
    const delivered = [x('tx3', 0), x('tx3', 1), x('tx2', 0), x('tx1', 0), x('tx1', 1), x('tx1', 2)];
    expect(reverseByTransaction(delivered).map((r) => `${r.signature}/${r.leg}`)).toEqual(['tx1/0', 'tx1/1', 'tx1/2', 'tx2/0', 'tx3/0', 'tx3/1']);
    expect(reverseByTransaction([])).toEqual([]);
    // Only neighbours are one transaction: the same signature apart is two groups.
    expect(reverseByTransaction([x('a', 0), x('b', 0), x('a', 1)]).map((r) => `${r.signature}/${r.leg}`)).toEqual(['a/1', 'b/0', 'a/0']);
  });

  it('changes the figures where a plain reverse would put a transaction’s sell after its buy', () => {
    // tx1: buy 10 for 1. tx2: leg 0 sells the 10 for 2, leg 1 buys 10 again for 3.
    // In leg order: the sell closes the position (realized 2 - 1 = 1), the buy opens 10 at cost 3.
    // Reversed legs: 20 held at cost 4, the sell takes half (2): realized 0, 10 left at cost 2.
    const newestFirst = [
      t('sell', '10', '2', 'M', { sig: 'tx2', minute: 2 }),
      t('buy', '10', '3', 'M', { sig: 'tx2', minute: 2 }),
      t('buy', '10', '1', 'M', { sig: 'tx1', minute: 1 }),
    ];
    const right = computePnl(reverseByTransaction(newestFirst)).tokens[0];
    expect(right).toMatchObject({ realized: '1', open: '10', openCost: '3', closedPositions: 1, winningPositions: 1 });
    const wrong = computePnl([...newestFirst].reverse()).tokens[0];
    expect(wrong).toMatchObject({ realized: '0', open: '10', openCost: '2' });
  });
});

describe('figures by the engine, worked by hand', () => {
  it('average and FIFO differ on a partial sell after buys at two prices', () => {
    // Buy 100 for 1 (0.01 each), buy 100 for 3 (0.03 each), sell 50 for 2.
    // Average: 200 at 4, the sell takes 4 x 50/200 = 1: realized 1, open 150 at cost 3.
    // FIFO: the sell takes 50 of the first lot, cost 0.5: realized 1.5, open 150 at 0.5 + 3 = 3.5.
    const trades = [t('buy', '100', '1'), t('buy', '100', '3'), t('sell', '50', '2')];
    const avg = computePnl(trades, 'average', { lots: true });
    expect(avg.tokens[0]).toMatchObject({ bought: '200', sold: '50', spent: '4', received: '2', open: '150', openCost: '3', realized: '1' });
    expect(pnlWithSeries(trades, 'average').series.map((p) => p.cumulative)).toEqual(['1']);
    const fifo = computePnl(trades, 'fifo', { lots: true });
    expect(fifo.tokens[0]).toMatchObject({ open: '150', openCost: '3.5', realized: '1.5' });
    expect(pnlWithSeries(trades, 'fifo').series.map((p) => p.cumulative)).toEqual(['1.5']);
    // The lot behind the FIFO figure: 50 taken from the first buy, cost 1 x 50/100.
    const sell = fifo.tokens[0].lots!.find((e) => e.side === 'sell')!;
    expect(sell.takes).toEqual([expect.objectContaining({ lot: trades[0].signature, amount: '50', cost: '0.5', lotAmount: '100', lotCost: '1' })]);
    expect(fifo.tokens[0].openLots!.map((l) => [l.lot, l.amount, l.cost])).toEqual([
      [trades[0].signature, '50', '0.5'],
      [trades[1].signature, '100', '3'],
    ]);
  });

  it('reports a sell beyond what was bought as uncovered, its proceeds out of realized', () => {
    // Bought 100 for 1; sold 150 for 3: 100 covered (proceeds 2, cost 1, realized 1); 50 uncovered with proceeds 1.
    const trades = [t('buy', '100', '1'), t('sell', '150', '3')];
    const r = computePnl(trades, 'fifo', { lots: true });
    expect(r.tokens[0]).toMatchObject({ realized: '1', uncovered: '50', uncoveredProceeds: '1', open: '0' });
    expect(r.uncoveredProceeds).toBe('1');
    expect(pnlWithSeries(trades, 'fifo').series.map((p) => p.cumulative)).toEqual(['1']);
  });

  it('adds USD from each trade’s own value and counts a sell with no price apart', () => {
    // Buy 10 for 1 SOL worth $100; sell 4 for 1 SOL worth $60: USD cost 100 x 4/10 = 40, realized $20.
    // Sell 6 for 2 SOL with no USD price: native realized 2 - 0.6 = 1.4, USD unknown (not zero).
    const r = computePnl(
      [t('buy', '10', '1', 'M', { usd: '100' }), t('sell', '4', '1', 'M', { usd: '60' }), t('sell', '6', '2', 'M', { usd: null })],
      'average',
    );
    expect(r.tokens[0]).toMatchObject({ realized: '2', realizedUsd: '20', unpricedSells: 0, unpricedSellsUsd: 1 });
  });

  it('draws the series in time order across tokens, ending at the realized total', () => {
    // A: buy 10 for 1, sell 10 for 3 (+2). B: buy 4 for 2, sell 2 for 0.5 (cost 1, -0.5).
    const trades = [t('buy', '10', '1', 'A'), t('buy', '4', '2', 'B'), t('sell', '10', '3', 'A'), t('sell', '2', '0.5', 'B')];
    const { summary: r, series } = pnlWithSeries(trades, 'average');
    expect(series.map((p) => p.cumulative)).toEqual(['2', '1.5']);
    expect(series.map((p) => p.blockTime)).toEqual([trades[2].blockTime, trades[3].blockTime]);
    expect(r.realized).toBe('1.5');
    // A closed, B still open: one open position.
    expect(openPositions(r)).toBe(1);
    // The table's order: largest absolute realized first.
    expect(byRealized(r.tokens).map((x) => x.tokenMint)).toEqual(['A', 'B']);
  });

  it('leaves a sell of unknown native figure out of the series, as out of realized, and thins to the drawn points', () => {
    // Buy 10 for 1; sell 5 with no native amount (a token-to-token leg): no point; sell 5 for 2:
    // cost 1 x 5/10 = 0.5 (average), realized 1.5. A wholly uncovered sell of C is a point of 0.
    const trades = [t('buy', '10', '1'), t('sell', '5', null), t('sell', '5', '2'), t('sell', '3', '1', 'C')];
    const { summary, series } = pnlWithSeries(trades, 'average');
    expect(series.map((p) => [p.blockTime, p.cumulative])).toEqual([
      [trades[2].blockTime, '1.5'],
      [trades[3].blockTime, '1.5'],
    ]);
    expect(summary.realized).toBe('1.5');
    expect(summary.tokens.find((x) => x.tokenMint === 'M')!.unpricedSells).toBe(1);

    const many = new RealizedSeries();
    for (let i = 1; i <= 10; i++) many.add({ blockTime: `2025-01-01T00:00:${String(i).padStart(2, '0')}Z` }, 1n * 10n ** 36n);
    // 10 sells of 1 each, thinned to 4: indexes 0, 3, 6 and the last, totals 1, 4, 7, 10.
    expect(many.points(4).map((p) => p.cumulative)).toEqual(['1', '4', '7', '10']);
    expect(many.points(4).map((p) => p.y)).toEqual([1, 4, 7, 10]);
  });

  it('is exact with 18-decimal amounts that a float would round', () => {
    const r = computePnl([t('buy', '1', '0.100000000000000001'), t('sell', '1', '0.300000000000000002')]);
    expect(r.realized).toBe('0.200000000000000001');
  });
});

describe('exact helpers', () => {
  it('round trips and rounds for display', () => {
    expect(fromScaled(toScaled('-12.5'))).toBe('-12.5');
    expect(roundScaled(toScaled('1.23456'), 4)).toBe('1.2346');
    expect(roundScaled(toScaled('-0.00001'), 4)).toBe('0.0000');
    expect(mulDiv(-5n, 1n, 2n)).toBe(-3n);
  });

  it('parses decimals to 36 places, exactly, and refuses what is not a plain decimal', () => {
    expect(toScaled('7')).toBe(7n * 10n ** 36n);
    expect(toScaled('-0.5')).toBe(-5n * 10n ** 35n);
    expect(toScaled('0.000000000000000001')).toBe(10n ** 18n);
    expect(toScaled('123456789012345678901234567890.1')).toBe(1234567890123456789012345678901n * 10n ** 35n);
    // Past 36 places the digits are cut, not rounded.
    expect(toScaled(`0.${'0'.repeat(35)}19`)).toBe(1n);
    for (const bad of ['', '1e5', '.5', '5.', '1,5', ' 1', '0x10', '--1']) expect(() => toScaled(bad), bad).toThrow(RangeError);
  });

  it('rounds average cost half to even with one division', () => {
    expect(mulDivHalfEven(5n, 1n, 2n)).toBe(2n);
    expect(mulDivHalfEven(7n, 1n, 2n)).toBe(4n);
    expect(mulDivHalfEven(-5n, 1n, 2n)).toBe(-2n);
    expect(mulDivHalfEven(-7n, 1n, 2n)).toBe(-4n);
    expect(mulDivHalfEven(10n, 2n, 3n)).toBe(7n);
    expect(mulDivHalfEven(-10n, 2n, 3n)).toBe(-7n);
    expect(mulDivHalfEven(9n, 2n, 3n)).toBe(6n);
  });
});

describe('the chart’s points', () => {
  it('keeps at most the given number, evenly spaced, with the last (the realized total)', () => {
    const points = Array.from({ length: 10 }, (_, i) => ({ blockTime: '', t: i, cumulative: String(i), y: i }));
    // 10 points into 4: step 10/3, so indexes 0, 3, 6, then the last (9).
    expect(thinSeries(points, 4).map((p) => p.t)).toEqual([0, 3, 6, 9]);
    expect(thinSeries(points, 10).map((p) => p.t)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
