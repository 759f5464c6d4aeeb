import { describe, expect, it } from 'vitest';
import { keccak256, toHex } from 'viem';
import { isUnexplained, type TransactionActivity } from '../../src/lib/core/activity.js';
import { hexToTron, toInternalHex, tronToHex } from '../../src/lib/chains/tron/address.js';
import { tronActivity, WTRX_DEPOSIT_TOPIC, WTRX_WITHDRAWAL_TOPIC, type TronActivityRecord } from '../../src/lib/chains/tron/decode/activity.js';
import type { TronAccountTransaction } from '../../src/lib/chains/tron/rpc-methods.js';
import { decodeTronTransaction, WTRX, type TronCall } from '../../src/lib/chains/tron/decode/decode-transaction.js';
import { ERC20_TRANSFER_TOPIC } from '../../src/lib/chains/shared/uniswap-v2-events.js';
import { loadTronCaptures, senderOf, type TronReplayTx } from '../support/tron-replay/fixtures.js';
import { NOT_TRADES } from './golden.js';

/**
 * Balance changes of the real Tron captures (tests/fixtures/tron/), each figure read by hand off
 * the capture's logs, call value and internal transactions (the comment beside it says which),
 * never from the function's output. Tokens are named in the decoder's internal form (`0x` + the
 * 20 bytes of the log's address), TRX is null.
 */

const captures = loadTronCaptures();
const byId = (prefix: string): TronReplayTx => {
  const found = captures.filter((c) => c.record.txID.startsWith(prefix));
  expect(found, prefix).toHaveLength(1);
  return found[0];
};
const senderHex = (tx: TronReplayTx) => tronToHex(senderOf(tx))!;
/** The source's records (`DecodedCall.record`) are what the function takes: checked by the compiler. */
const _recordFits = (r: TronAccountTransaction): TronActivityRecord => r;

const activity = (tx: TronReplayTx, wallet = senderHex(tx)) => tronActivity(tx.record, tx.info, wallet);

function callOf(tx: TronReplayTx): TronCall {
  const v = tx.record.raw_data.contract[0].parameter.value;
  return { owner: toInternalHex(v.owner_address), contract: toInternalHex(v.contract_address), callValue: BigInt(v.call_value ?? 0) };
}
/** The tokens of the decoder's trades, in the form they carry them (`token`: internal hex). */
const tradeTokens = (tx: TronReplayTx) => decodeTronTransaction(callOf(tx), tx.info, senderHex(tx)).map((t) => t.token);

const trx = (raw: bigint) => ({ tokenMint: null, raw, decimals: 6 });
const tok = (tokenMint: string, raw: bigint) => ({ tokenMint, raw, decimals: null });

const USDT = '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c'; // TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t
const USDJ = '0x834295921a488d9d42b4b3021ed1a3c39fb0f03e'; // TMwFHYXLJaRUPeW6421aqXL4ZEzPRFGkGT
const SUN = '0xb4a428ab7092c2f1395f376ce297033b3bb446c1'; // TSSMHYeV2uE9qYH95DqyoCuNCzEL1NvU3S
const TSTB = '0x59e0dca594d0318e73862dbe816f81729d80c1b2';
/** SunSwap's Universal Router TQqgNg13s2DjvXhW1ky4v6TsR8wZGvb7Y4 (MANIFEST.tsv). */
const UNIVERSAL_ROUTER = '0xa31d689a84244bc01be56e07aeafb7686f56bb89';

describe('Tron activity: the topics it reads', () => {
  it('are WETH9’s Deposit and Withdrawal, as WTRX emits them', () => {
    expect(WTRX_DEPOSIT_TOPIC).toBe(keccak256(toHex('Deposit(address,uint256)')));
    expect(WTRX_WITHDRAWAL_TOPIC).toBe(keccak256(toHex('Withdrawal(address,uint256)')));
    // the real unwrap in e41f064b: a Withdrawal log from WTRX's address with one indexed topic
    const unwrap = byId('e41f064b').info.log.find((l: any) => '0x' + l.topics[0] === WTRX_WITHDRAWAL_TOPIC);
    expect(toInternalHex(unwrap.address)).toBe(WTRX);
    expect(unwrap.topics).toHaveLength(2);
  });
});

describe('Tron activity: swaps', () => {
  it('c96f0d6a, SunSwap V1 TRX->USDT: the call value out, the exchange’s Transfer in', () => {
    const tx = byId('c96f0d6a');
    const a = activity(tx)!;
    // call_value 139,000,000,000 sun wallet -> exchange a2726afb (read back from raw_data_hex);
    // Transfer log 1: USDT exchange -> wallet, data 0xda699ded = 3,664,354,797
    expect(a.changes).toEqual([trx(-139_000_000_000n), tok(USDT, 3_664_354_797n)]);
    expect(a.incidentalNative).toBe(0n);
    expect(a.knownNonTrade).toBe(false);
    // the exchange called, then the emitters in log order: USDT, then the exchange again (once)
    expect(a.programs).toEqual([hexToTron('a2726afbecbd8e936000ed684cef5e2f5cf43008'), 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t']);
    expect(tradeTokens(tx)).toEqual([USDT]);
    expect(isUnexplained(a, tradeTokens(tx))).toBe(false);
    // the venue taken out of the tables: no trade, the same balance changes, unexplained
    expect(isUnexplained(a, [])).toBe(true);
  });

  it('7b6589b2, TRX->USDT through a wallet contract and the smart router: 10 TRX out, USDT in', () => {
    const tx = byId('7b6589b2');
    const a = activity(tx)!;
    // call_value 10,000,000 sun wallet -> wallet contract f742f458 (the capture's record: 87,500 + 9,912,500);
    // the last log: USDT f742f458 -> wallet b7dee733, data 0x2c8061 = 2,916,449. The internal
    // transactions (f742 -> 70b0 87,500; f742 -> 18ff 9,912,500; 18ff -> V1 exchange) do not touch the wallet.
    expect(a.changes).toEqual([trx(-10_000_000n), tok(USDT, 2_916_449n)]);
    expect(a.programs[0]).toBe('TYWc7X6YHpp2YrFXwLRsofdiL78JRvDd6u'); // the wallet contract called (MANIFEST.tsv)
    expect(a.programs).toContain('TW7pbp4pD38qv6kSaw44i4uVzthz2bBpYc'); // the V3 pool that emitted the Swap
    expect(new Set(a.programs).size).toBe(a.programs.length);
    expect(isUnexplained(a, tradeTokens(tx))).toBe(false);
    expect(isUnexplained(a, [])).toBe(true);
  });

  it('e41f064b, USDT->TRX through the Universal Router (V3 pool, WTRX unwrapped by the router)', () => {
    const tx = byId('e41f064b');
    const a = activity(tx)!;
    // Transfer log 2: USDT wallet 97b77996 -> pool b50b0276, data 0xf4240 = 1,000,000;
    // internal transaction router a31d689a -> wallet, callValue 3,111,255. The WTRX Transfer
    // (pool -> router) and the Withdrawal (src router) are the router's, not the wallet's.
    expect(a.changes).toEqual([trx(3_111_255n), tok(USDT, -1_000_000n)]);
    // router called; emitters in log order: WTRX, USDT, the V3 pool (WTRX again, once)
    expect(a.programs).toEqual([
      'TQqgNg13s2DjvXhW1ky4v6TsR8wZGvb7Y4',
      'TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR',
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      'TSUUVjysXV8YqHytSNjfkNXnnB49QDvZpx',
    ]);
    expect(a.knownNonTrade).toBe(false);
    expect(isUnexplained(a, tradeTokens(tx))).toBe(false);
    expect(isUnexplained(a, [])).toBe(true);
  });

  it('e41f064b seen by the router: WTRX in, unwrapped, TRX paid on: no change at all', () => {
    const tx = byId('e41f064b');
    // WTRX Transfer pool -> router +3,111,255 (counts as TRX), Withdrawal(src router) -3,111,255,
    // internal WTRX -> router +3,111,255, internal router -> wallet -3,111,255: net 0
    const a = activity(tx, UNIVERSAL_ROUTER)!;
    expect(a.changes).toEqual([]);
    expect(isUnexplained(a, [])).toBe(false);
  });

  it('c9628c03, SUN->TRX through the Universal Router (SunSwap V4 PoolManager)', () => {
    const tx = byId('c9628c03');
    const a = activity(tx)!;
    // Transfer log 1: SUN wallet -> manager d8de7589, data 0x1bc16d674ec80000 = 2e18;
    // internal transactions: manager -> router 105,375 (not the wallet's), router -> wallet 105,375
    expect(a.changes).toEqual([trx(105_375n), tok(SUN, -2_000_000_000_000_000_000n)]);
    expect(a.programs).toEqual(['TQqgNg13s2DjvXhW1ky4v6TsR8wZGvb7Y4', 'TSSMHYeV2uE9qYH95DqyoCuNCzEL1NvU3S', 'TVjuTE3V5bMVdpfNhid8kD2v35T2k1u1Br']);
    expect(isUnexplained(a, tradeTokens(tx))).toBe(false);
    expect(isUnexplained(a, [])).toBe(true);
  });

  it('a107cc97, USDT->USDJ through two V1 exchanges: a token out, another in, no TRX', () => {
    const tx = byId('a107cc97');
    const a = activity(tx)!;
    // Transfer log 1: USDT wallet -> exchange a2726afb, 0x303a14d = 50,569,549;
    // Transfer log 2: USDJ exchange a0a9d57e -> wallet, 0x2b5e3af16b1880000 = 50e18. No call value;
    // the TRX between the exchanges is theirs
    expect(a.changes).toEqual([tok(USDT, -50_569_549n), tok(USDJ, 50_000_000_000_000_000_000n)]);
    expect(tradeTokens(tx)).toEqual([USDT, USDJ]);
    expect(isUnexplained(a, tradeTokens(tx))).toBe(false);
    expect(isUnexplained(a, [])).toBe(true);
    // a trade naming only one side leaves the other token named by no trade
    expect(isUnexplained(a, [USDT])).toBe(true);
  });

  it('4493595f, fee-on-transfer TSTB->USDT: both TSTB Transfers count, and the tax burn is no liquidity', () => {
    const tx = byId('4493595f');
    const a = activity(tx)!;
    // TSTB wallet -> exchange 9b60e46a 2,881,200 and wallet -> zero 58,800 (the token's burn):
    // -2,940,000; USDT exchange a2726afb -> wallet 0x6fd3 = 28,627
    expect(a.changes).toEqual([tok(TSTB, -2_940_000n), tok(USDT, 28_627n)]);
    // burnt from the wallet, but TSTB's contract moved no other asset: not an LP token
    expect(a.knownNonTrade).toBe(false);
    expect(isUnexplained(a, tradeTokens(tx))).toBe(false);
    expect(isUnexplained(a, [])).toBe(true);
  });

  it('bccd5365, SunPump buy: the launchpad’s event stands in for the Transfer the capture lacks', () => {
    const tx = byId('bccd5365');
    const a = activity(tx)!;
    // call_value 10,000,000 sun (the capture's record: trxAmount 9,900,000 + fee 100,000);
    // TokenPurchased(token afa76101, buyer wallet) word 2 = tokenAmount 302,571,558,330,643,617,948,066
    expect(a.changes).toEqual([trx(-10_000_000n), tok('0xafa761010e3d6180661ff902a70a265733d3b1f6', 302_571_558_330_643_617_948_066n)]);
    expect(isUnexplained(a, tradeTokens(tx))).toBe(false);
    expect(isUnexplained(a, [])).toBe(true);
  });
});

describe('Tron activity: what is not a trade', () => {
  it('SunSwap V1 liquidity added and removed: LP minted or burnt with the other side, a known non-trade', () => {
    // bcf3eecd add: call_value 34,457,223 sun to exchange a0a9d57e; USDJ wallet -> exchange
    // 999,999,991,790,055,141; Transfer of the exchange's own LP token zero -> wallet 32,840,352
    const add = activity(byId('bcf3eecd'))!;
    const LP = '0xa0a9d57ee9df8308bc29bcf881a569305260a0a5';
    expect(add.changes).toEqual([trx(-34_457_223n), tok(USDJ, -999_999_991_790_055_141n), tok(LP, 32_840_352n)]);
    expect(add.knownNonTrade).toBe(true);
    // swap-shaped (USDJ given, LP received) and named by no trade: only knownNonTrade keeps it out
    expect(isUnexplained({ ...add, knownNonTrade: false }, [])).toBe(true);
    expect(isUnexplained(add, [])).toBe(false);

    // b5347459 remove: USDJ exchange -> wallet 998,779,579,261,230,644; LP wallet -> zero 32,840,352
    // (the TRX the exchange paid out is an internal transaction this V1 capture does not hold)
    const remove = activity(byId('b5347459'))!;
    expect(remove.changes).toEqual([tok(USDJ, 998_779_579_261_230_644n), tok(LP, -32_840_352n)]);
    expect(remove.knownNonTrade).toBe(true);
    expect(isUnexplained(remove, [])).toBe(false);

    // the other two: 48050008 (add to e15dc4b4's exchange abca38d1) and 2233a3c9 (remove from it)
    const LP2 = '0xabca38d1fcb887c8c680be867204cef227f52cfc';
    const TOKEN2 = '0xe15dc4b4c9bd70bd325a828721e9c0d7a7f34e5d';
    // call_value 10,634,144,333; token wallet -> exchange 99,933,770,108,476,646,756; LP zero -> wallet 6,934,567,448
    expect(activity(byId('48050008'))).toEqual({
      changes: [trx(-10_634_144_333n), tok(TOKEN2, -99_933_770_108_476_646_756n), tok(LP2, 6_934_567_448n)],
      incidentalNative: 0n,
      programs: [hexToTron(LP2), hexToTron(TOKEN2)],
      knownNonTrade: true,
    });
    // token exchange -> wallet 4,594,948,298,712,874,026,607; LP wallet -> zero 264,782,762,953
    const r2 = activity(byId('2233a3c9'))!;
    expect(r2.changes).toEqual([tok(TOKEN2, 4_594_948_298_712_874_026_607n), tok(LP2, -264_782_762_953n)]);
    expect(r2.knownNonTrade).toBe(true);
    for (const id of NOT_TRADES.liquidity) expect(isUnexplained(activity(byId(id))!, []), id).toBe(false);
  });

  it('SunSwap V2 liquidity removed (constructed from the pair’s ABI): LP sent to the pair, burnt there, both assets back', () => {
    const w = (h: string) => h.replace(/^0x/, '').padStart(64, '0');
    const wallet = '0x2e4648a0d3bdec62fa6d38868019b7444c864157';
    const pair = '0x1111111111111111111111111111111111111111';
    const router = '0x2222222222222222222222222222222222222222';
    const transfer = (token: string, from: string, to: string, value: bigint) => ({
      address: token.slice(2),
      topics: [ERC20_TRANSFER_TOPIC.slice(2), w(from), w(to)],
      data: w(value.toString(16)),
    });
    const info = {
      receipt: { result: 'SUCCESS' },
      log: [
        transfer(pair, wallet, pair, 1_000n), // the wallet's LP to the pair
        transfer(pair, pair, '0x' + '00'.repeat(20), 1_000n), // the pair burns it
        transfer(USDT, pair, router, 500n), // the pair pays out both sides to the router
        transfer(WTRX, pair, router, 700n),
        transfer(USDT, router, wallet, 500n), // the router passes USDT on, unwraps WTRX and pays TRX
        { address: WTRX.slice(2), topics: [WTRX_WITHDRAWAL_TOPIC.slice(2), w(router)], data: w((700).toString(16)) },
      ],
      internal_transactions: [
        { caller_address: '41' + WTRX.slice(2), transferTo_address: '41' + router.slice(2), callValueInfo: [{ callValue: 700 }] },
        { caller_address: '41' + router.slice(2), transferTo_address: '41' + wallet.slice(2), callValueInfo: [{ callValue: 700 }] },
      ],
    };
    const record = {
      ret: [{ contractRet: 'SUCCESS' }],
      raw_data: {
        contract: [{ type: 'TriggerSmartContract', parameter: { value: { owner_address: '41' + wallet.slice(2), contract_address: '41' + router.slice(2) } } }],
      },
    };
    const a = tronActivity(record, info, wallet)!;
    // TRX +700 (router -> wallet), LP -1,000, USDT +500
    expect(a.changes).toEqual([trx(700n), tok(pair, -1_000n), tok(USDT, 500n)]);
    expect(a.knownNonTrade).toBe(true);
    expect(isUnexplained(a, [])).toBe(false);
    // without the burn it is the wallet sending a token to a contract: nothing known about it
    const noBurn = { ...info, log: info.log.filter((_, i) => i !== 1) };
    expect(tronActivity(record, noBurn, wallet)!.knownNonTrade).toBe(false);
  });

  it('a failed transaction has no activity (fb1ba8f0: OUT_OF_ENERGY, its 6,357,085 sun call value undone)', () => {
    expect(activity(byId(NOT_TRADES.failed))).toBeNull();
    // the decoder's test on the info alone: a receipt other than SUCCESS, or result FAILED
    const tx = byId('c9628c03');
    expect(tronActivity(tx.record, { ...tx.info, receipt: { ...tx.info.receipt, result: 'REVERT' } }, senderHex(tx))).toBeNull();
    expect(tronActivity(tx.record, { ...tx.info, result: 'FAILED' }, senderHex(tx))).toBeNull();
  });

  it('a plain TRC-20 transfer is not swap-shaped (09ced888 and ledger 0130dfde)', () => {
    // 09ced888: USDT wallet -> 7242180c, data 0x1e8480 = 2,000,000; the fee (13,028,500 sun) left out
    const a = activity(byId(NOT_TRADES.usdtTransfer))!;
    expect(a).toEqual({ changes: [tok(USDT, -2_000_000n)], incidentalNative: 0n, programs: ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'], knownNonTrade: false });
    expect(isUnexplained(a, [])).toBe(false);
    // 0130dfde: USDT TL24LCps -> TXVj38D1, data 0x27bf24d = 41,677,389
    const b = activity(byId('0130dfde'))!;
    expect(b.changes).toEqual([tok(USDT, -41_677_389n)]);
    // the receiving side sees the same Transfer as a gain
    expect(activity(byId('0130dfde'), '0xec20315a879c48f5e3a6a1c9826d5225f8b658b8')!.changes).toEqual([tok(USDT, 41_677_389n)]);
  });

  it('a TRX transfer to a new account: the amount moves, the 1 TRX creation fee is fee, not rent', () => {
    // ledger 3f8b651b: TransferContract amount 150,466,320 sun; ret[0].fee 1,100,000 = net_fee 100,000 + 1,000,000 creation fee
    const tx = byId('3f8b651b');
    expect(tx.record.ret[0].fee).toBe(1_100_000);
    expect(activity(tx)).toEqual({ changes: [trx(-150_466_320n)], incidentalNative: 0n, programs: [], knownNonTrade: false });
    // the recipient 4115e75f gains the amount
    expect(activity(tx, '0x15e75fb8683b09c857d7b8a740b1d0234a3ca97b')!.changes).toEqual([trx(150_466_320n)]);
  });

  it('wrapping and unwrapping TRX by the wallet is no change (constructed from WETH9’s ABI: no capture holds one)', () => {
    const w = (h: string) => h.replace(/^0x/, '').padStart(64, '0');
    const wallet = '0x97b779963e3778985b4429d30169aa88e7c7d91f';
    const record = (callValue?: number) => ({
      ret: [{ contractRet: 'SUCCESS' }],
      raw_data: {
        contract: [
          {
            type: 'TriggerSmartContract',
            parameter: {
              value: { owner_address: '41' + wallet.slice(2), contract_address: '41' + WTRX.slice(2), ...(callValue ? { call_value: callValue } : {}) },
            },
          },
        ],
      },
    });
    // deposit(): 5,000,000 sun sent with the call, Deposit(dst wallet, 5,000,000)
    const wrap = tronActivity(
      record(5_000_000),
      {
        receipt: { result: 'SUCCESS' },
        log: [{ address: WTRX.slice(2), topics: [WTRX_DEPOSIT_TOPIC.slice(2), w(wallet)], data: w((5_000_000).toString(16)) }],
      },
      wallet,
    )!;
    expect(wrap.changes).toEqual([]);
    expect(wrap.programs).toEqual(['TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR']);
    // withdraw(5,000,000): Withdrawal(src wallet), internal transaction WTRX -> wallet 5,000,000
    const unwrap = tronActivity(
      record(),
      {
        receipt: { result: 'SUCCESS' },
        log: [{ address: WTRX.slice(2), topics: [WTRX_WITHDRAWAL_TOPIC.slice(2), w(wallet)], data: w((5_000_000).toString(16)) }],
        internal_transactions: [
          { caller_address: '41' + WTRX.slice(2), transferTo_address: '41' + wallet.slice(2), callValueInfo: [{ callValue: 5_000_000 }] },
        ],
      },
      wallet,
    )!;
    expect(unwrap.changes).toEqual([]);
    // a rejected internal transaction moved nothing: then only the Withdrawal shows
    const undone = tronActivity(
      record(),
      {
        log: [{ address: WTRX.slice(2), topics: [WTRX_WITHDRAWAL_TOPIC.slice(2), w(wallet)], data: w((5_000_000).toString(16)) }],
        internal_transactions: [
          { caller_address: '41' + WTRX.slice(2), transferTo_address: '41' + wallet.slice(2), callValueInfo: [{ callValue: 5_000_000 }], rejected: true },
        ],
      },
      wallet,
    )!;
    expect(undone.changes).toEqual([trx(-5_000_000n)]);
  });

  it('every capture: TRX first, each token once, nothing zero, each program once', () => {
    for (const tx of captures) {
      const a: TransactionActivity | null = activity(tx);
      if (!a) continue;
      expect(a.changes.every((c) => c.raw !== 0n)).toBe(true);
      expect(a.changes.slice(1).every((c) => c.tokenMint !== null)).toBe(true);
      expect(new Set(a.changes.map((c) => c.tokenMint)).size).toBe(a.changes.length);
      expect(new Set(a.programs).size).toBe(a.programs.length);
    }
  });
});
