import { describe, expect, it } from 'vitest';
import { serializeTrade, type Trade } from '../../src/lib/core/trade.js';
import { usdRun } from '../../src/lib/prices/usd-run.js';

/**
 * include=usd over stored runs (usd-run.ts), by hand: the eight fields' text kept byte for byte,
 * each leg its own figures, a transaction cut by the run's bounds priced whole.
 */
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const at = (sig: string, side: 'buy' | 'sell', tokenMint: string, amountSol: string | null, amount: string): Trade => ({
  signature: sig,
  side,
  token: tokenMint === USDC ? 'USDC' : 'X',
  tokenMint,
  amountSol,
  amount,
  dex: 'jupiter',
  blockTime: '2024-10-27T03:00:00Z',
});
const price = async (times: readonly number[]) => times.map(() => ({ price: '150.5', roundTime: 1_730_000_000, round: '1' }));
const fields = (json: string) => json.split('},{"signature":').map((t) => /"nativeUsd":(\S+?),"valueUsd":(\S+?)\}?$/.exec(t)!.slice(1));

describe('usdRun', () => {
  it('gives two legs of one transaction with the same side and token their own values, the text kept', async () => {
    const legs = [at('a', 'buy', 'MintX', '1', '10'), at('a', 'buy', 'MintX', '2', '25')];
    const json = legs.map(serializeTrade).join(',');
    const out = await usdRun(json, { chain: 'sol', pricesAt: price, legsOf: async () => [] });
    expect(out.complete).toBe(true);
    // 1 × 150.5 and 2 × 150.5.
    expect(fields(out.json)).toEqual([
      ['150.5', '150.5'],
      ['150.5', '301'],
    ]);
    expect(out.json.startsWith(serializeTrade(legs[0]).slice(0, -1) + ',"nativeUsd":150.5')).toBe(true);
  });

  it('reads the rest of a transaction the run cuts: a token sold for USDC in the next line is worth the USDC', async () => {
    const sell = at('b', 'sell', 'MintX', null, '7');
    const buyUsdc = at('b', 'buy', USDC, null, '12.345678912');
    const asked: string[][] = [];
    const out = await usdRun(serializeTrade(sell), {
      chain: 'sol',
      pricesAt: price,
      legsOf: async (sigs) => (asked.push([...sigs]), [serializeTrade(sell), serializeTrade(buyUsdc)]),
    });
    expect(asked).toEqual([['b']]);
    // 12.345678912 rounded half-even to 6 places.
    expect(fields(out.json)).toEqual([['150.5', '12.345679']]);
  });

  it('when the transaction is gone from the store, prices the run’s own legs; without prices, nulls and not complete', async () => {
    const sell = at('c', 'sell', 'MintX', null, '7');
    const gone = await usdRun(serializeTrade(sell), { chain: 'sol', pricesAt: price, legsOf: async () => [] });
    expect(fields(gone.json)).toEqual([['150.5', 'null']]);
    const late = await usdRun(serializeTrade(at('d', 'buy', 'MintX', '0.5', '3')), { chain: 'sol', pricesAt: async () => null, legsOf: async () => [] });
    expect(late.complete).toBe(false);
    expect(fields(late.json)).toEqual([['null', 'null']]);
  });
});
