import { describe, expect, it } from 'vitest';
import { formatUnits, parseUnits } from '../../src/lib/core/decimal.js';
import { isDecimalLiteral, serializeTrade, tradeKey, parseTradeKey } from '../../src/lib/core/trade.js';

describe('formatUnits', () => {
  it.each([
    [0n, 9, '0'],
    [1n, 9, '0.000000001'],
    [1_000_000_000n, 9, '1'],
    [1_230_000n, 6, '1.23'],
    [1234000000000000000001n, 18, '1234.000000000000000001'],
    [42n, 0, '42'],
  ])('%s at %s decimals is %s', (raw, d, want) => {
    expect(formatUnits(raw, d)).toBe(want);
    expect(parseUnits(want, d)).toBe(raw);
  });
  it('refuses negative amounts', () => expect(() => formatUnits(-1n, 2)).toThrow(RangeError));
  it('writes the contract literal (viem underneath) and round-trips, for 5,000 random amounts', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 5000; i++) {
      const digits = Array.from({ length: 1 + rand(40) }, () => rand(10)).join('');
      const raw = BigInt(digits);
      const d = rand(37);
      const s = formatUnits(raw, d);
      expect(isDecimalLiteral(s)).toBe(true);
      expect(parseUnits(s, d)).toBe(raw);
    }
  });
});

describe('serializeTrade', () => {
  it('writes amounts as exact number literals that survive a decimal parse', () => {
    const text = serializeTrade({
      signature: 's',
      side: 'buy',
      token: 'T"x',
      tokenMint: 'm',
      amountSol: '1234.000000000000000001',
      amount: null,
      dex: 'pumpfun',
      blockTime: '2024-05-01T12:34:56Z',
    });
    expect(text).toBe(
      '{"signature":"s","side":"buy","token":"T\\"x","tokenMint":"m","amountSol":1234.000000000000000001,"amount":null,"dex":"pumpfun","blockTime":"2024-05-01T12:34:56Z"}',
    );
    expect(JSON.parse(text).token).toBe('T"x');
  });
  it('refuses an amount that is not a decimal literal', () => {
    expect(() => serializeTrade({ signature: 's', side: 'buy', token: '', tokenMint: 'm', amountSol: '1e3', amount: '1', dex: 'x', blockTime: 't' })).toThrow();
  });
});

describe('tradeKey', () => {
  it('orders legs ascending inside a transaction when keys sort descending', () => {
    const keys = [tradeKey('000000000010', 1), tradeKey('000000000010', 0), tradeKey('000000000011', 2)];
    expect([...keys].sort().reverse()).toEqual([tradeKey('000000000011', 2), tradeKey('000000000010', 0), tradeKey('000000000010', 1)]);
    expect(parseTradeKey(tradeKey('000000000010.000003', 7))).toEqual({ position: '000000000010.000003', leg: 7 });
    // Positions are digits and dots only, so a key can never sort above the store's "newest" sentinel.
    expect(() => tradeKey('abc', 0)).toThrow(RangeError);
    expect(() => tradeKey('1', 10_000)).toThrow(RangeError);
  });
});
