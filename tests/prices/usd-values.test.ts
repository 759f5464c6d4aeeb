import { readFileSync } from 'node:fs';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import type { Trade } from '../../src/lib/core/trade.js';
import { isUsdStablecoin, USD_STABLECOINS, usdOfTransaction, usdValue } from '../../src/lib/prices/usd-values.js';
import { loadTronTokens } from '../support/tron-replay/fixtures.js';

/**
 * A trade's USD figures (issue 22, decisions.md): values worked out by hand (checked with an
 * 80-digit decimal calculator), rounding half-even at 6 decimals, and the stablecoin legs rule.
 */
describe('USD values', () => {
  it('multiplies exactly and rounds half-even to 6 decimals', () => {
    expect(usdValue('1.5', '2000.12345678')).toBe('3000.185185'); // 3000.18518517
    expect(usdValue('123456789.123456789123456789', '3456.78901234')).toBe('426764072140.741848'); // ...741848400741...
    expect(usdValue('0.000000123', '150.5')).toBe('0.000019'); // 0.0000185115
    expect(usdValue('0.0000005', '1')).toBe('0'); // a half, to the even 0
    expect(usdValue('0.0000015', '1')).toBe('0.000002'); // a half, to the even 2
    expect(usdValue('0.0000025', '1')).toBe('0.000002');
    expect(usdValue('0.5', '150.25')).toBe('75.125');
    expect(usdValue('0', '150.25')).toBe('0');
    expect(() => usdValue('-1', '2')).toThrow(/decimal literal/);
  });

  const leg = (side: 'buy' | 'sell', tokenMint: string, amount: string, amountSol: string | null = null): Trade => ({
    signature: 's',
    side,
    token: '',
    tokenMint,
    amountSol,
    amount,
    dex: 'x',
    blockTime: '2024-05-01T00:00:00Z',
  });

  it('values a native trade at the price, a token-to-token trade by its stablecoin leg, and nothing it cannot know', () => {
    expect(usdOfTransaction('sol', [leg('buy', 'MintA', '10', '0.5')], '150.25')).toEqual([{ nativeUsd: '150.25', valueUsd: '75.125' }]);
    expect(usdOfTransaction('sol', [leg('buy', 'MintA', '10', '0.5')], null)).toEqual([{ nativeUsd: null, valueUsd: null }]);
    // Sell a token for USDC: both legs are worth the USDC received, price known or not.
    const usdc = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
    expect(usdOfTransaction('sol', [leg('sell', 'MintA', '10'), leg('buy', usdc, '1234.5678915')], null)).toEqual([
      { nativeUsd: null, valueUsd: '1234.567892' },
      { nativeUsd: null, valueUsd: '1234.567892' },
    ]);
    // EVM addresses in any case.
    expect(
      usdOfTransaction(
        'eth',
        [leg('buy', '0x1111111111111111111111111111111111111111', '5'), leg('sell', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', '20')],
        '3000',
      ),
    ).toEqual([
      { nativeUsd: '3000', valueUsd: '20' },
      { nativeUsd: '3000', valueUsd: '20' },
    ]);
    // Two stablecoin legs against it: which one paid is not known.
    const usdt = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
    expect(usdOfTransaction('sol', [leg('buy', 'MintA', '10'), leg('sell', usdc, '5'), leg('sell', usdt, '5')], null)[0]).toEqual({
      nativeUsd: null,
      valueUsd: null,
    });
    // Token to token with no stablecoin: unknown.
    expect(usdOfTransaction('sol', [leg('sell', 'MintA', '10'), leg('buy', 'MintB', '3')], '150')).toEqual([
      { nativeUsd: '150', valueUsd: null },
      { nativeUsd: '150', valueUsd: null },
    ]);
  });

  it('lists each stablecoin in its published form, and where the fixtures name one, as the USD coin they call it', () => {
    for (const [chain, list] of Object.entries(USD_STABLECOINS)) for (const a of list) if (a.startsWith('0x')) expect(getAddress(a), chain).toBe(a);
    const evm = JSON.parse(readFileSync(new URL('../fixtures/evm-mainnet/tokens.json', import.meta.url), 'utf8')) as Record<
      string,
      Record<string, { symbol: string }>
    >;
    const tron = new Map(loadTronTokens().map((t) => [t.address, t.symbol]));
    let seen = 0;
    for (const [chain, list] of Object.entries(USD_STABLECOINS)) {
      for (const a of list) {
        const symbol = chain === 'tron' ? tron.get(a) : evm[chain]?.[a.toLowerCase()]?.symbol;
        if (symbol === undefined) continue;
        seen++;
        expect(['USDC', 'USDT', 'DAI', 'USDbC'], `${chain} ${a}`).toContain(symbol);
        expect(isUsdStablecoin(chain, a)).toBe(true);
      }
    }
    expect(seen).toBeGreaterThanOrEqual(6);
    expect(isUsdStablecoin('tron', 'TMwFHYXLJaRUPeW6421aqXL4ZEzPRFGkGT')).toBe(false); // USDJ: not redeemable 1:1
  });
});
