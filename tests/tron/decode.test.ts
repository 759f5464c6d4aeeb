import { describe, expect, it } from 'vitest';
import { keccak256, toHex } from 'viem';
import { formatUnits } from '../../src/lib/core/decimal.js';
import { hexToTron, isTronAddress, toInternalHex, tronToHex } from '../../src/lib/chains/tron/address.js';
import { decodeTronTransaction, type TronCall } from '../../src/lib/chains/tron/decode/decode-transaction.js';
import * as events from '../../src/lib/chains/tron/decode/events.js';
import { ERC20_TRANSFER_TOPIC as ERC20 } from '../../src/lib/chains/shared/uniswap-v2-events.js';
import { callValueOf, loadTronCaptures, loadTronTokens, senderOf, type TronReplayTx } from '../support/tron-replay/fixtures.js';
import { GOLDEN, NOT_TRADES } from './golden.js';

const captures = loadTronCaptures();
const tokens = new Map(loadTronTokens().map((t) => [t.address, t]));
const byId = (prefix: string): TronReplayTx => {
  const found = captures.filter((c) => c.record.txID.startsWith(prefix));
  expect(found, prefix).toHaveLength(1);
  return found[0];
};

function callOf(tx: TronReplayTx): TronCall {
  const v = tx.record.raw_data.contract[0].parameter.value;
  return { owner: toInternalHex(v.owner_address), contract: toInternalHex(v.contract_address), callValue: BigInt(v.call_value ?? 0) };
}

/** The decoder's trades in the contract's units (the source's own formatting is tested through the replay). */
function decode(tx: TronReplayTx, wallet = senderOf(tx)) {
  return decodeTronTransaction(callOf(tx), tx.info, tronToHex(wallet)!).map((d) => {
    const mint = hexToTron(d.token);
    const t = tokens.get(mint)!;
    return {
      side: d.side,
      token: t.symbol,
      tokenMint: mint,
      amountSol: d.nativeRaw === null ? null : formatUnits(d.nativeRaw, 6),
      amount: formatUnits(d.amountRaw, t.decimals),
      dex: d.poolKind,
    };
  });
}

describe('Tron addresses', () => {
  it('converts between base58, 41-hex, bare hex and words exactly', () => {
    expect(tronToHex('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c');
    expect(hexToTron('41a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(hexToTron('a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(hexToTron('000000000000000000000000a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    // calldata sometimes keeps the 41 byte inside the word's padding
    expect(toInternalHex('0000000000000000000000041ec20315a879c48f5e3a6a1c9826d5225f8b658b8')).toBe('0xec20315a879c48f5e3a6a1c9826d5225f8b658b8');
    expect(tronToHex('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBeNull();
    expect(isTronAddress(hexToTron('0x' + '00'.repeat(20)))).toBe(true);
    expect(() => hexToTron('0x1234')).toThrow(RangeError);
  });
});

describe('Tron venue events', () => {
  it('have the topics of their signatures, as the real logs carry them', () => {
    expect(events.SUNSWAP_V1_TOKEN_PURCHASE_TOPIC).toBe(keccak256(toHex('TokenPurchase(address,uint256,uint256)')));
    expect(events.SUNSWAP_V1_TRX_PURCHASE_TOPIC).toBe(keccak256(toHex('TrxPurchase(address,uint256,uint256)')));
    expect(events.SUNSWAP_V4_SWAP_TOPIC).toBe(keccak256(toHex('Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24,uint16)')));
    expect(events.SUNPUMP_TOKEN_PURCHASED_TOPIC).toBe(keccak256(toHex('TokenPurchased(address,address,uint256,uint256,uint256,uint256)')));
    expect(events.SUNPUMP_TOKEN_SOLD_TOPIC).toBe(keccak256(toHex('TokenSold(address,address,uint256,uint256,uint256)')));
    const topics = new Set(captures.flatMap((c) => (c.info.log ?? []).map((l: any) => '0x' + l.topics[0])));
    for (const t of [events.SUNSWAP_V1_TOKEN_PURCHASE_TOPIC, events.SUNSWAP_V4_SWAP_TOPIC, events.SUNPUMP_TOKEN_PURCHASED_TOPIC]) expect(topics).toContain(t);
  });

  it('reads call_value back from the signed raw data (what the V1 captures lost)', () => {
    expect(callValueOf(byId('f0e3a099').record.raw_data_hex)).toBe(3_483_576n);
    expect(callValueOf(byId('c96f0d6a').record.raw_data_hex)).toBe(139_000_000_000n);
    expect(callValueOf(byId('807e5694').record.raw_data_hex)).toBe(0n);
  });
});

describe('Tron decoder on real captures', () => {
  for (const g of GOLDEN) {
    it(`${g.txid.slice(0, 8)}: ${g.why}`, () => {
      const tx = byId(g.txid);
      expect(senderOf(tx)).toBe(g.wallet);
      expect(decode(tx)).toEqual(g.trades);
    });
  }

  it('finds no trade in liquidity adds and removes, a failed call, or a transfer', () => {
    for (const id of [...NOT_TRADES.liquidity, NOT_TRADES.failed, NOT_TRADES.usdtTransfer]) expect(decode(byId(id)), id).toEqual([]);
    const calls = captures.filter((c) => c.origin.startsWith('ledger#') && c.record.raw_data.contract[0].type === 'TriggerSmartContract');
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) expect(decode(c), c.origin).toEqual([]);
  });

  it('gives nothing to a wallet that did not send the transaction, even when the swap paid it', () => {
    // 4bf3e2d0 sent 3,664 USDT to its sender; seen from another account it is not that account's trade
    const tx = byId('c96f0d6a');
    expect(decode(tx, 'TPoQq65NQYpYTBcxCUozQPUDKSHHdXuTLi')).toEqual([]);
  });

  it('gives nothing when the transaction info says the call failed', () => {
    const tx = byId('c9628c03');
    expect(decode({ ...tx, info: { ...tx.info, receipt: { ...tx.info.receipt, result: 'REVERT' } } })).toEqual([]);
    expect(decode({ ...tx, info: { ...tx.info, result: 'FAILED' } })).toEqual([]);
  });

  it('leaves rejected internal transactions out of the TRX figure', () => {
    const tx = byId('c9628c03');
    const internal = tx.info.internal_transactions.map((it: any) => (it.callValueInfo?.[0]?.callValue ? { ...it, rejected: true } : it));
    // with the manager's TRX payment undone, the route paid out no TRX: the sale has no native figure
    expect(decode({ ...tx, info: { ...tx.info, internal_transactions: internal } })[0].amountSol).toBeNull();
  });
});

describe('SunPump sale (constructed from the launchpad ABI: no sale was captured)', () => {
  it('sells what left the wallet for the curve’s trxAmount, its fee left out', () => {
    const word = (h: string) => h.replace(/^0x/, '').padStart(64, '0');
    const wallet = tronToHex('TPLmeaAZkdJP99MXCaeK4xgt6kTrvTW4Vd')!.slice(2);
    const launchpad = tronToHex('TEPcBKJB7N6rF9xKQKPVeSrscsRTfsVFVi')!.slice(2);
    const token = tronToHex('TRyymKZC1pQLKdqL9kgosmviZLEa4ef5Cr')!.slice(2);
    const sold = 100_000n * 10n ** 18n;
    // TokenSold(token, seller, trxAmount 3,000,000, fee 30,000, tokenAmount): 2,970,000 sun reach the wallet
    const info = {
      receipt: { result: 'SUCCESS' },
      log: [
        { address: token, topics: [ERC20.slice(2), word(wallet), word(launchpad)], data: word(sold.toString(16)) },
        {
          address: launchpad,
          topics: [events.SUNPUMP_TOKEN_SOLD_TOPIC.slice(2), word(token), word(wallet)],
          data: word((3_000_000).toString(16)) + word((30_000).toString(16)) + word(sold.toString(16)),
        },
      ],
      internal_transactions: [{ caller_address: '41' + launchpad, transferTo_address: '41' + wallet, callValueInfo: [{ callValue: 2_970_000 }] }],
    };
    const trades = decodeTronTransaction({ owner: '0x' + wallet, contract: '0x' + launchpad, callValue: 0n }, info, '0x' + wallet);
    expect(trades).toEqual([{ side: 'sell', token: '0x' + token, amountRaw: sold, nativeRaw: 3_000_000n, pool: '0x' + launchpad, poolKind: 'sunpump' }]);
  });
});
