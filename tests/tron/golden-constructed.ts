/**
 * Expected trades of the CONSTRUCTED Tron transactions (tests/support/tron-replay/constructed.ts:
 * real captures with the listed changes, for routes no public capture shows), worked out by hand
 * from the logs and internal transactions each builder writes, under decisions.md ("Trades",
 * "Tron", and "Real routes on EVM": SunSwap V4's Swap amounts give the TRX middle leg; a hook's
 * fee is part of the venue's price wherever the hook sends it). Never the decoder's output.
 */
import type { GoldenTrade } from './golden.js';

export interface ConstructedGolden {
  /** The builder's name (constructed.ts). */
  name: string;
  wallet: string;
  blockTime: string;
  trades: GoldenTrade[];
  why: string;
}

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const SUN = 'TSSMHYeV2uE9qYH95DqyoCuNCzEL1NvU3S';
const C = 'TPoQq65NQYpYTBcxCUozQPUDKSHHdXuTLi';
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
/** c9628c03's block time, 3 s a block after it. */
const afterC9628 = (n: number) => iso(1783074375000 + n * 3000);

const sellSun = (amountSol: string): GoldenTrade => ({ side: 'sell', token: 'SUN', tokenMint: SUN, amountSol, amount: '2', dex: 'sunswap-v4' });
const buyUsdt = (amountSol: string, amount: string): GoldenTrade => ({ side: 'buy', token: 'USDT', tokenMint: USDT, amountSol, amount, dex: 'sunswap-v4' });

export const CONSTRUCTED_GOLDEN: ConstructedGolden[] = [
  {
    name: 'sun-trx-usdt',
    wallet: C,
    blockTime: afterC9628(1),
    why: '2e18 SUN wallet->manager; Swap TRX/SUN amount0 +105,375 (TRX out of hop 1); Swap TRX/USDT amount0 -105,375 (into hop 2), amount1 +32,561; 32,561 USDT manager->wallet; no TRX leaves the manager: both legs 105,375 sun',
    trades: [sellSun('0.105375'), buyUsdt('0.105375', '0.032561')],
  },
  {
    name: 'sun-trx-usdt-hook-on-sell',
    wallet: C,
    blockTime: afterC9628(2),
    why: "hop 1's hook took 1,375 of its 105,375 sun output (manager->treasury 1,375); hop 2 swapped 104,000 in: the sell's venue paid out 105,375 - 1,375 = 104,000, the buy's took in 104,000",
    trades: [sellSun('0.104'), buyUsdt('0.104', '0.032136')],
  },
  {
    name: 'sun-trx-usdt-hook-on-buy',
    wallet: C,
    blockTime: afterC9628(3),
    why: "hop 1 paid out 105,375 sun; hop 2's hook took 1,375 of it (manager->hook 1,375) and its pool swapped 104,000: the buy's venue took in 104,000 + 1,375 = 105,375",
    trades: [sellSun('0.105375'), buyUsdt('0.105375', '0.032136')],
  },
  {
    name: 'sun-trx-usdt-hookfee-event',
    wallet: C,
    blockTime: afterC9628(4),
    why: "as above, the hook's 1,375 sun stated by HookFee(feeAmount0 1,375) and kept in the manager (no TRX moves): the buy's venue took in 104,000 + 1,375 = 105,375",
    trades: [sellSun('0.105375'), buyUsdt('0.105375', '0.032136')],
  },
  {
    name: 'usdt-trx-sun',
    wallet: C,
    blockTime: afterC9628(5),
    why: '500,000 USDT wallet->manager; Swap TRX/USDT amount0 +1,617,000 amount1 -500,000; Swap TRX/SUN amount0 -1,617,000 amount1 +30.7e18; 30.7e18 SUN manager->wallet: both legs 1,617,000 sun',
    trades: [
      { side: 'sell', token: 'USDT', tokenMint: USDT, amountSol: '1.617', amount: '0.5', dex: 'sunswap-v4' },
      { side: 'buy', token: 'SUN', tokenMint: SUN, amountSol: '1.617', amount: '30.7', dex: 'sunswap-v4' },
    ],
  },
  {
    name: 'sun-trx-hook-single-hop',
    wallet: C,
    blockTime: afterC9628(6),
    why: "one hop (Swap amount0 +105,375): the hook's 375 sun went manager->treasury, 105,000 manager->router->wallet: the venue paid the route 105,000",
    trades: [sellSun('0.105')],
  },
  {
    name: 'okx-called',
    wallet: C,
    blockTime: iso(1781188956000 + 11 * 3000),
    why: "e41f064b at OKX's router: 1,000,000 USDT wallet->V3 pool, 3,111,255 WTRX pool->router: the transaction called OKX's router",
    trades: [{ side: 'sell', token: 'USDT', tokenMint: USDT, amountSol: '3.111255', amount: '1', dex: 'okx' }],
  },
  {
    name: 'okx-passed-through',
    wallet: 'TSjRgk9kUDiAykRVC3EodS3U8cK8gRHkPQ',
    blockTime: iso(1763586027000 + 12 * 3000),
    why: "7b6589b2 with OKX's previous router in place of the smart router: the wallet's swap contract sent it 9,912,500 sun, the route went on through it (V1, Curve, V3) to 2,916,449 USDT",
    trades: [{ side: 'buy', token: 'USDT', tokenMint: USDT, amountSol: '9.9125', amount: '2.916449', dex: 'okx' }],
  },
];
