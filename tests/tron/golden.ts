/**
 * Expected trades of the real Tron captures, worked out by hand from the raw data (events,
 * logs, internal transactions, call values), never from the decoder's output. Amounts are raw
 * integers over the token's decimals (tests/support/tron-replay/fixtures.ts, loadTronTokens) and
 * TRX in sun over 1e6.
 */
export interface GoldenTrade {
  side: 'buy' | 'sell';
  token: string;
  tokenMint: string;
  amountSol: string | null;
  amount: string;
  dex: string;
}

export interface GoldenTx {
  txid: string;
  /** The sender (base58). */
  wallet: string;
  blockTime: string;
  trades: GoldenTrade[];
  why: string;
}

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const A = 'TJ7ozAvfPwxpNANWfMnAhVwGBYkwTjuscJ';
const B = 'TEBtHHE5Ve2vneTpcKo4UevB2tw1M8D7GN';
const C = 'TPoQq65NQYpYTBcxCUozQPUDKSHHdXuTLi';

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

export const GOLDEN: GoldenTx[] = [
  {
    txid: 'f0e3a0992ecef757bf7e17b182dabd8a20add414b63eb9c1211707f52f38befe',
    wallet: A,
    blockTime: iso(1599560502000),
    why: 'V1 exact-output TRX->JST: call_value 3,483,576 sun, TokenPurchase trx_sold 3,433,463 (the rest refunded), 3e18 JST to the wallet',
    trades: [{ side: 'buy', token: 'JST', tokenMint: 'TCFLL5dx5ZJdKnWuesXxi1VPwjLVmWZZy9', amountSol: '3.433463', amount: '3', dex: 'sunswap-v1' }],
  },
  {
    txid: 'c96f0d6a',
    wallet: A,
    blockTime: iso(1600281093000),
    why: 'V1 TRX->USDT: trx_sold 139,000,000,000 sun, Transfer 3,664,354,797 USDT (6 decimals) exchange->wallet',
    trades: [{ side: 'buy', token: 'USDT', tokenMint: USDT, amountSol: '139000', amount: '3664.354797', dex: 'sunswap-v1' }],
  },
  {
    txid: '807e5694',
    wallet: A,
    blockTime: iso(1601339013000),
    why: 'V1 SUNOLD->TRX: Transfer 94,712,852,088,814,279 (18 decimals) wallet->exchange, TrxPurchase trx_bought 51,771,057 sun',
    trades: [
      {
        side: 'sell',
        token: 'SUNOLD',
        tokenMint: 'TKkeiboTkxXKJpbmVFbv4a8ov5rAfRDMf9',
        amountSol: '51.771057',
        amount: '0.094712852088814279',
        dex: 'sunswap-v1',
      },
    ],
  },
  {
    txid: 'a107cc97',
    wallet: A,
    blockTime: iso(1601420310000),
    why: 'V1 USDT->USDJ through two exchanges: 50,569,549 USDT in, TrxPurchase 1,940,689,572 sun out, TokenPurchase of the same into the USDJ exchange, 50e18 USDJ out',
    trades: [
      { side: 'sell', token: 'USDT', tokenMint: USDT, amountSol: '1940.689572', amount: '50.569549', dex: 'sunswap-v1' },
      { side: 'buy', token: 'USDJ', tokenMint: 'TMwFHYXLJaRUPeW6421aqXL4ZEzPRFGkGT', amountSol: '1940.689572', amount: '50', dex: 'sunswap-v1' },
    ],
  },
  {
    txid: '90713085',
    wallet: A,
    blockTime: iso(1601413605000),
    why: 'V1 TSTA->USDT: 59,127 TSTA (test decimals 6) in, trx_bought 799,800,211 sun = trx_sold into the USDT exchange, 20,587,889 USDT out',
    trades: [
      { side: 'sell', token: 'TSTA', tokenMint: 'TSNWgunSeGUQqBKK4bM31iLw3bn9SBWWTG', amountSol: '799.800211', amount: '0.059127', dex: 'sunswap-v1' },
      { side: 'buy', token: 'USDT', tokenMint: USDT, amountSol: '799.800211', amount: '20.587889', dex: 'sunswap-v1' },
    ],
  },
  {
    txid: '4493595f',
    wallet: B,
    blockTime: iso(1600074753000),
    why: 'V1 fee-on-transfer TSTB->USDT: 2,881,200 to the exchange and 58,800 burnt (to 0x0) left the wallet = tokens_sold 2,940,000; 935,696 sun between the legs; 28,627 USDT out',
    trades: [
      { side: 'sell', token: 'TSTB', tokenMint: 'TJASWoyYgUw2M1jvDje7zYLooDCzWYRdkm', amountSol: '0.935696', amount: '2.94', dex: 'sunswap-v1' },
      { side: 'buy', token: 'USDT', tokenMint: USDT, amountSol: '0.935696', amount: '0.028627', dex: 'sunswap-v1' },
    ],
  },
  {
    txid: 'd6a9f0cb',
    wallet: B,
    blockTime: iso(1599907518000),
    why: 'V1 exact-output USDT->TRX: 3,362,339,482 USDT in, trx_bought 103,500,000,000 sun',
    trades: [{ side: 'sell', token: 'USDT', tokenMint: USDT, amountSol: '103500', amount: '3362.339482', dex: 'sunswap-v1' }],
  },
  {
    txid: 'e69eb9c4',
    wallet: B,
    blockTime: iso(1599896007000),
    why: 'V1 USDT->TRX: 1,000,000,000 USDT in, trx_bought 30,307,606,441 sun',
    trades: [{ side: 'sell', token: 'USDT', tokenMint: USDT, amountSol: '30307.606441', amount: '1000', dex: 'sunswap-v1' }],
  },
  {
    txid: '29f1b423',
    wallet: B,
    blockTime: iso(1600135869000),
    why: 'V1 USDT->TSTC: 4,000 USDT in, 133,438 sun between the exchanges, 3,945,640,559,881,641 TSTC (test decimals 18) from the second exchange',
    trades: [
      { side: 'sell', token: 'USDT', tokenMint: USDT, amountSol: '0.133438', amount: '0.004', dex: 'sunswap-v1' },
      { side: 'buy', token: 'TSTC', tokenMint: 'TYYCs9CDMbptKEJoCnmdv9zii4hZ6Ksu8A', amountSol: '0.133438', amount: '0.003945640559881641', dex: 'sunswap-v1' },
    ],
  },
  {
    txid: 'e41f064b2a06b08d4b27c1bc03f2e38bf9e417a768dfdb4afa8b568c5ddd97fc',
    wallet: C,
    blockTime: iso(1781188956000),
    why: 'Universal Router, V3 pool TSUUVjys: 1,000,000 USDT wallet->pool, 3,111,255 WTRX pool->router (unwrapped, sent on as TRX)',
    trades: [{ side: 'sell', token: 'USDT', tokenMint: USDT, amountSol: '3.111255', amount: '1', dex: 'sunswap-v3' }],
  },
  {
    txid: 'c9628c039de74951fd8f71305b517aefa5e2c9f1c4b201c0497007ae8a9a9d61',
    wallet: C,
    blockTime: iso(1783074375000),
    why: 'Universal Router, V4 PoolManager TVjuTE3V: 2e18 SUN wallet->manager, 105,375 sun manager->router (internal transaction), Swap amount0 +105,375',
    trades: [{ side: 'sell', token: 'SUN', tokenMint: 'TSSMHYeV2uE9qYH95DqyoCuNCzEL1NvU3S', amountSol: '0.105375', amount: '2', dex: 'sunswap-v4' }],
  },
  {
    txid: '7b6589b22ca801e35fd5d98186e019757875d3fb52c0bdc38a7cf4b2f24d9808',
    wallet: 'TSjRgk9kUDiAykRVC3EodS3U8cK8gRHkPQ',
    blockTime: iso(1763586027000),
    why: "Wallet contract then smart router: 10 TRX in, 87,500 sun the wallet contract's fee, 9,912,500 sun into V1 exchange TQcia2 (TRX->USDJ), Curve USDJ->TUSD, V3 pool TW7pbp4p TUSD->USDT, 2,916,449 USDT to the wallet",
    trades: [{ side: 'buy', token: 'USDT', tokenMint: USDT, amountSol: '9.9125', amount: '2.916449', dex: 'sunswap-v3' }],
  },
  {
    txid: 'bccd5365674cd7b193adbbb37b247bd84d41ae5c73be98ac3fc4150c2a1369fb',
    wallet: 'TPLmeaAZkdJP99MXCaeK4xgt6kTrvTW4Vd',
    blockTime: iso(Date.UTC(2024, 7, 20)),
    why: 'SunPump TokenPurchased: trxAmount 9,900,000 sun (fee 100,000 left out), tokenAmount 302,571,558,330,643,617,948,066 (18 decimals)',
    trades: [
      { side: 'buy', token: 'BULL', tokenMint: 'TRyymKZC1pQLKdqL9kgosmviZLEa4ef5Cr', amountSol: '9.9', amount: '302571.558330643617948066', dex: 'sunpump' },
    ],
  },
];

/** Transactions of the captures that are not trades: liquidity, a failed call, transfers, votes, freezes. */
export const NOT_TRADES = {
  liquidity: ['bcf3eecd', '48050008', '2233a3c9', 'b5347459'],
  failed: 'fb1ba8f0',
  usdtTransfer: '09ced888',
};
