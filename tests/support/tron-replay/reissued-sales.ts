import { loadTronCaptures, type TronReplayTx } from './fixtures.js';

/**
 * The wallet the Tron tests trade again with (follow, unsolidified): TPoQq65…'s, of the MetaMask
 * snap's Universal Router captures, with two sales in its history. New trades are those captures
 * issued again at newer blocks (append.ts: same calls, logs, internal transactions and amounts; a
 * new id, block and time), so they decode to the same trades, read by hand from the captures' raw
 * data (tests/tron/golden.ts has the same reading):
 *  - e41f064b, Universal Router into the SunSwap V3 pool TSUUVjys (b50b0276…): USDT Transfer
 *    wallet → pool 0x0f4240 = 1,000,000 (6 decimals: 1 USDT); WTRX Transfer pool → router
 *    0x2f7957 = 3,111,255, the pool's Swap amount0 -3,111,255 / amount1 +1,000,000, WTRX
 *    Withdrawal of 3,111,255 by the router, and internal TRX WTRX → router → wallet of 3,111,255
 *    sun: a sale of 1 USDT for 3.111255 TRX;
 *  - c9628c03, Universal Router into the SunSwap V4 PoolManager TVjuTE3V (pool TRX/SUN f4c7d55f…):
 *    SUN Transfer wallet → manager 0x1bc16d674ec80000 = 2e18 (18 decimals: 2 SUN), the Swap's
 *    amount0 +0x019b9f = +105,375 and amount1 -2e18, internal TRX manager → router → wallet of
 *    105,375 sun: a sale of 2 SUN for 0.105375 TRX.
 */
export const SALES_WALLET = 'TPoQq65NQYpYTBcxCUozQPUDKSHHdXuTLi';
export const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
export const SUN = 'TSSMHYeV2uE9qYH95DqyoCuNCzEL1NvU3S';

export const SOLD_1_USDT = { side: 'sell', token: 'USDT', tokenMint: USDT, amountSol: '3.111255', amount: '1', dex: 'sunswap-v3' };
export const SOLD_2_SUN = { side: 'sell', token: 'SUN', tokenMint: SUN, amountSol: '0.105375', amount: '2', dex: 'sunswap-v4' };

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The capture whose id starts with `prefix`. */
export function captureOf(prefix: string, captures: readonly TronReplayTx[] = loadTronCaptures()): TronReplayTx {
  const c = captures.find((t) => t.record.txID.startsWith(prefix));
  if (!c) throw new Error(`no capture ${prefix}`);
  return c;
}

/** The trade a re-issued sale must be delivered as: its own id and block time, the capture's trade. */
export const expectedSale = (tx: TronReplayTx, trade: typeof SOLD_1_USDT) => ({
  signature: tx.record.txID,
  ...trade,
  blockTime: iso(tx.record.block_timestamp),
});
