import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromScaled as fromUnits, mulDivHalfEven, toScaled as toUnits } from '../../src/lib/core/exact.js';
import { computePnl, type PnlMethod, type PnlTrade } from '../../src/lib/pnl/pnl-engine.js';

/**
 * The PnL engine (issue 25, decisions.md "PnL and exports"): hand-worked cases for both methods,
 * and properties over any sequence of buys and sells: what was sold cost plus what is open costs
 * equals what was spent; realized is proceeds less the cost of what was sold; FIFO and average
 * agree once every position is closed. Figures are compared as exact 1e-36 integers.
 */
let n = 0;
const trade = (side: 'buy' | 'sell', amount: string, amountSol: string | null, valueUsd?: string | null, day = n): PnlTrade => ({
  signature: `s${n++}`,
  side,
  token: 'X',
  tokenMint: 'MintX',
  amount,
  amountSol,
  dex: 'raydium-amm',
  blockTime: new Date(Date.UTC(2024, 0, 1) + day * 86_400_000).toISOString().replace('.000Z', 'Z'),
  valueUsd,
});
const only = (trades: PnlTrade[], method: PnlMethod) => computePnl(trades, method).tokens[0];

describe('by hand', () => {
  it('average and FIFO over two buys at different prices and a partial sell', () => {
    // Buy 10 for 1 SOL, buy 10 for 3 SOL, sell 5 for 2 SOL.
    const trades = [trade('buy', '10', '1'), trade('buy', '10', '3'), trade('sell', '5', '2')];
    // Average: cost 4 for 20, the 5 sold cost 1: realized 1; 15 open at 3.
    expect(only(trades, 'average')).toMatchObject({ realized: '1', open: '15', openCost: '3', bought: '20', sold: '5', spent: '4', received: '2' });
    // FIFO: the 5 sold come from the first lot (0.1 each): realized 1.5; 15 open at 3.5.
    expect(only(trades, 'fifo')).toMatchObject({ realized: '1.5', open: '15', openCost: '3.5' });
  });

  it('a sell beyond what was bought is uncovered: its share of the proceeds is apart, not profit', () => {
    // Buy 1 for 1, sell 3 for 6: 1 covered (proceeds 2, realized 1), 2 uncovered with proceeds 4.
    for (const method of ['average', 'fifo'] as const) {
      expect(only([trade('buy', '1', '1', '150'), trade('sell', '3', '6', '900')], method)).toMatchObject({
        realized: '1',
        uncovered: '2',
        uncoveredProceeds: '4',
        realizedUsd: '150',
        uncoveredProceedsUsd: '600',
        open: '0',
        closedPositions: 1,
        winningPositions: 1,
      });
    }
  });

  it('a buy with no native amount (token to token) leaves the native figure of the sell unknown, the USD one known', () => {
    const r = only([trade('buy', '4', null, '100'), trade('sell', '4', '2', '150')], 'fifo');
    expect(r).toMatchObject({ realized: '0', unpricedSells: 1, realizedUsd: '50', unpricedSellsUsd: 0, spent: '0', spentUsd: '100' });
    // The position closed and made money in USD.
    expect(r).toMatchObject({ closedPositions: 1, winningPositions: 1 });
  });

  it('average cost divides half-even at the 36th place, and a closing sell takes the remaining cost whole', () => {
    // Buy 3 for 1, sell 1 for 1: cost 1/3 = 0.333… (36 threes): realized 0.666…67; then sell 2 for 1.
    const trades = [trade('buy', '3', '1'), trade('sell', '1', '1'), trade('sell', '2', '1')];
    const r = computePnl(trades, 'average');
    expect(r.tokens[0].realized).toBe('1');
    const partial = only(trades.slice(0, 2), 'average');
    expect(partial.realized).toBe('0.' + '6'.repeat(35) + '7');
    expect(partial.openCost).toBe('0.' + '6'.repeat(35) + '7');
    expect(mulDivHalfEven(5n, 1n, 2n)).toBe(2n);
    expect(mulDivHalfEven(7n, 1n, 2n)).toBe(4n);
    expect(mulDivHalfEven(-5n, 1n, 2n)).toBe(-2n);
  });

  it('win rate and holding time over closed positions', () => {
    const trades = [
      trade('buy', '1', '1', null, 0),
      trade('sell', '1', '2', null, 2), // closed after 2 days, won
      trade('buy', '1', '1', null, 10),
      trade('sell', '1', '0.5', null, 14), // closed after 4 days, lost
      trade('buy', '1', '1', null, 20), // still open
    ];
    const r = computePnl(trades);
    expect(r).toMatchObject({ closedPositions: 2, winningPositions: 1, winRate: 0.5, realized: '0.5' });
    expect(r.tokens[0].meanHoldingSeconds).toBe(3 * 86_400);
    expect(r.tokens[0].open).toBe('1');
  });
});

/** Amounts of 0 to 6 decimals, up to a million: sequences with partial sells, closes and excess sells. */
const amount = fc
  .tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 6 }))
  .map(([v, places]) => fromUnits((BigInt(v) * 10n ** 36n) / 10n ** BigInt(places)));
const step = fc.record({ side: fc.constantFrom<'buy' | 'sell'>('buy', 'buy', 'sell'), amount, native: amount, usd: amount });
const sequence = fc.array(step, { minLength: 1, maxLength: 40 }).map((steps) => steps.map((s, i) => trade(s.side, s.amount, s.native, s.usd, i)));
const u = toUnits;

describe('lots: each figure explained by the lots that made it', () => {
  it('FIFO: a sell that spans two buys lists both takes, their costs and what is left open', () => {
    // Buy 10 for 1, buy 10 for 3, sell 15 for 6: 10 from the first lot (cost 1) and 5 of the
    // second's 10 (cost 1.5): cost of sold 2.5, realized 3.5; open 5 of the second lot at 1.5.
    const trades = [trade('buy', '10', '1', '100'), trade('buy', '10', '3', '330'), trade('sell', '15', '6', '700')];
    const [a, b, s] = trades.map((t) => t.signature);
    const r = computePnl(trades, 'fifo', { lots: true }).tokens[0];
    expect(r.lots![2]).toEqual({
      signature: s,
      blockTime: trades[2].blockTime,
      side: 'sell',
      amount: '15',
      native: '6',
      usd: '700',
      uncovered: '0',
      takes: [
        { lot: a, boughtAt: trades[0].blockTime, amount: '10', cost: '1', costUsd: '100', lotAmount: '10', lotCost: '1', lotCostUsd: '100' },
        { lot: b, boughtAt: trades[1].blockTime, amount: '5', cost: '1.5', costUsd: '165', lotAmount: '10', lotCost: '3', lotCostUsd: '330' },
      ],
      costOfSold: '2.5',
      costOfSoldUsd: '265',
      realized: '3.5',
      realizedUsd: '435',
      heldAfter: '5',
    });
    expect(r.lots![0]).toMatchObject({ side: 'buy', amount: '10', native: '1', heldAfter: '10' });
    expect(r.openLots).toEqual([{ lot: b, boughtAt: trades[1].blockTime, amount: '5', cost: '1.5', costUsd: '165' }]);
    // Without the option the engine keeps no lots.
    expect(computePnl(trades, 'fifo').tokens[0].lots).toBeUndefined();
  });

  it('average: the sell takes from the pool in proportion, and an uncovered part is listed with no take', () => {
    // Pool of 20 for 4; sell 25 for 10: 20 covered (proceeds 8, all the cost 4: realized 4), 5 uncovered.
    const trades = [trade('buy', '10', '1'), trade('buy', '10', '3'), trade('sell', '25', '10')];
    const r = computePnl(trades, 'average', { lots: true }).tokens[0];
    expect(r.lots![2]).toMatchObject({
      uncovered: '5',
      takes: [{ lot: null, amount: '20', cost: '4', lotAmount: '20', lotCost: '4' }],
      costOfSold: '4',
      realized: '4',
      heldAfter: '0',
    });
    expect(r.openLots).toEqual([]);
  });

  it('the entries add up to the figures, and each take follows its lot, for any sequence', () => {
    fc.assert(
      fc.property(sequence, fc.constantFrom<PnlMethod>('average', 'fifo'), (trades, method) => {
        const r = computePnl(trades, method, { lots: true }).tokens[0];
        const sells = r.lots!.filter((e) => e.side === 'sell');
        expect(sells.reduce((n, e) => n + u(e.realized ?? '0'), 0n)).toBe(u(r.realized));
        expect(sells.reduce((n, e) => n + u(e.uncovered!), 0n)).toBe(u(r.uncovered));
        for (const e of sells) {
          for (const t of e.takes!) {
            const whole = t.amount === t.lotAmount;
            if (t.lotCost !== null) expect(u(t.cost!)).toBe(whole ? u(t.lotCost) : mulDivHalfEven(u(t.lotCost), u(t.amount), u(t.lotAmount)));
          }
          expect(e.takes!.reduce((n, t) => n + u(t.amount), 0n) + u(e.uncovered!)).toBe(u(e.amount));
        }
        expect(r.openLots!.reduce((n, l) => n + u(l.amount), 0n)).toBe(u(r.open));
      }),
      { numRuns: 200 },
    );
  });
});

describe('properties', () => {
  it('what was sold cost plus what is open costs equals what was spent, exactly, in native and USD, both methods', () => {
    fc.assert(
      fc.property(sequence, fc.constantFrom<PnlMethod>('average', 'fifo'), (trades, method) => {
        const r = only(trades, method);
        // Cost of what was sold = covered proceeds - realized.
        const soldCost = u(r.received) - u(r.uncoveredProceeds) - u(r.realized);
        expect(soldCost + u(r.openCost!)).toBe(u(r.spent));
        const soldCostUsd = u(r.receivedUsd) - u(r.uncoveredProceedsUsd) - u(r.realizedUsd);
        expect(soldCostUsd + u(r.openCostUsd!)).toBe(u(r.spentUsd));
        // Quantities: bought - (sold - uncovered) = open.
        expect(u(r.bought) - u(r.sold) + u(r.uncovered)).toBe(u(r.open));
      }),
      { numRuns: 300 },
    );
  });

  it('FIFO and average agree on realized PnL once every position is closed', () => {
    fc.assert(
      fc.property(sequence, (trades) => {
        const bought = trades.filter((t) => t.side === 'buy').reduce((n, t) => n + u(t.amount!), 0n);
        const sold = trades.filter((t) => t.side === 'sell').reduce((n, t) => n + u(t.amount!), 0n);
        // Close whatever is open with one last sell.
        const open = only(trades, 'fifo').open;
        const closed = u(open) > 0n ? [...trades, trade('sell', open, '1', '1', trades.length)] : trades;
        const avg = only(closed, 'average');
        const fifo = only(closed, 'fifo');
        expect(avg.open).toBe('0');
        expect(avg.realized).toBe(fifo.realized);
        expect(avg.realizedUsd).toBe(fifo.realizedUsd);
        expect(avg.uncovered).toBe(fifo.uncovered);
        expect(bought >= 0n && sold >= 0n).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('writes every figure as an exact decimal literal, never a float form', () => {
    fc.assert(
      fc.property(sequence, fc.constantFrom<PnlMethod>('average', 'fifo'), (trades, method) => {
        const r = only(trades, method);
        for (const k of ['bought', 'sold', 'spent', 'received', 'open', 'realized', 'realizedUsd', 'uncovered', 'uncoveredProceeds'] as const) {
          expect(r[k]).toMatch(/^-?\d+(\.\d*[1-9])?$/);
        }
      }),
      { numRuns: 100 },
    );
  });
});
