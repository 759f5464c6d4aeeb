import { describe, expect, it } from 'vitest';
import { BALANCER_V3_SWAP_TOPIC, BALANCER_V3_VAULT, BALANCER_V3_WRAP_TOPIC } from '../../src/lib/chains/evm/decode/balancer-v3.js';
import { decodeReceipt, mayHoldWalletTrade, type DecodedTrade } from '../../src/lib/chains/evm/decode/decode-receipt.js';
import { HASHFLOW_TRADE_TOPIC } from '../../src/lib/chains/evm/decode/hashflow.js';
import { WETH_WITHDRAWAL_TOPIC } from '../../src/lib/chains/evm/decode/movements.js';
import { META_TRANSACTION_EXECUTED_TOPIC, ONEINCH_ORDER_FILLED_MAKER_TOPIC, ONEINCH_ORDER_FILLED_TOPIC } from '../../src/lib/chains/evm/decode/orders.js';
import type { RpcLog, RpcReceipt } from '../../src/lib/chains/evm/decode/rpc-types.js';
import { COW_ETH_FLOW, COW_TRADE_TOPIC } from '../../src/lib/chains/evm/decode/settlements.js';
import type { EvmAggregatorConfig, EvmDexConfig } from '../../src/lib/chains/evm/registry.js';
import { ERC20_TRANSFER_TOPIC, UNISWAP_V2_SWAP_TOPIC } from '../../src/lib/chains/shared/uniswap-v2-events.js';
import { addrWord, topic, word } from '../support/evm-words.js';

/**
 * Slug precedence (ROUTES.md step 6), orders filled for their owner (R3, R4, R6) and the venues
 * whose events carry what no transfer shows (Balancer V3 buffers, Hashflow pools), on receipts
 * built by hand with the contracts' real event shapes; every expected figure is read off the logs
 * written in the same test.
 */
const A = (n: number) => '0x' + n.toString(16).padStart(40, '0');
const WALLET = A(0xaaa);
const RELAYER = A(0x7e1);
const WETH = A(0xeee);
const TOKEN = A(0x111);
const TOKEN2 = A(0x222);
const POOL = A(0x501);
const ROUTER = A(0x600);
const FRONT_END = A(0x602);
const ONEINCH = A(0x1171);
const ZEROX = A(0x0ef1);
const SETTLER = A(0x5e7);
const COW = A(0xc0c);
const ETH_FLOW = [...COW_ETH_FLOW][1];
const E18 = 10n ** 18n;

const aggregators: EvmAggregatorConfig[] = [
  { name: '1inch', address: ONEINCH },
  { name: '0x', address: ZEROX },
];
const dexes: EvmDexConfig[] = [{ name: 'cow', kind: 'cow', settlement: COW }];
const chain = { wrappedNative: WETH, entryPoints: [], aggregators, dexes };

function log(address: string, topics: string[], data = '0x'): RpcLog {
  return { address, topics, data, blockNumber: '0x1', transactionHash: '0x' + '1'.repeat(64), transactionIndex: '0x0' };
}
const transfer = (token: string, from: string, to: string, v: bigint) => log(token, [ERC20_TRANSFER_TOPIC, topic(from), topic(to)], '0x' + word(v));
const v2swap = (pool: string, sender = ROUTER) => log(pool, [UNISWAP_V2_SWAP_TOPIC, topic(sender), topic(sender)], '0x' + word(0n).repeat(4));
const withdrawal = (who: string, v: bigint) => log(WETH, [WETH_WITHDRAWAL_TOPIC, topic(who)], '0x' + word(v));
const receipt = (logs: RpcLog[], to: string, from = WALLET): RpcReceipt => ({
  transactionHash: '0x' + '1'.repeat(64),
  transactionIndex: '0x0',
  blockNumber: '0x1',
  from,
  to,
  status: '0x1',
  logs,
});
const brief = (t: DecodedTrade[]) => t.map((x) => [x.side, x.token, x.amountRaw, x.nativeRaw, x.dex ?? x.poolKind]);
/** 100 TOKEN from the wallet to POOL, 1 WETH to `to`. */
const sale = (to: string) => [transfer(TOKEN, WALLET, POOL, 100n), transfer(WETH, POOL, to, E18), v2swap(POOL)];

describe('slug precedence', () => {
  it('the aggregator the transaction called, including a 0x Settler the decoder is given', () => {
    expect(brief(decodeReceipt(receipt([...sale(ONEINCH), withdrawal(ONEINCH, E18)], ONEINCH), WALLET, chain))).toEqual([['sell', TOKEN, 100n, E18, '1inch']]);
    const settler = receipt([...sale(SETTLER), withdrawal(SETTLER, E18)], SETTLER);
    expect(brief(decodeReceipt(settler, WALLET, chain))).toEqual([['sell', TOKEN, 100n, E18, 'v2']]);
    expect(brief(decodeReceipt(settler, WALLET, chain, new Map(), { aggregators: new Map([[SETTLER, '0x']]) }))).toEqual([['sell', TOKEN, 100n, E18, '0x']]);
  });

  it('else an aggregator the route passed through (a front end forwarding to 1inch), else the venue', () => {
    // The front end is called; the pool pays 1inch's router, which unwraps.
    const through = receipt([...sale(ONEINCH), withdrawal(ONEINCH, E18)], FRONT_END);
    expect(brief(decodeReceipt(through, WALLET, chain))).toEqual([['sell', TOKEN, 100n, E18, '1inch']]);
    const direct = receipt([...sale(FRONT_END), withdrawal(FRONT_END, E18)], FRONT_END);
    expect(brief(decodeReceipt(direct, WALLET, chain))).toEqual([['sell', TOKEN, 100n, E18, 'v2']]);
  });
});

describe('0x meta-transactions: the signer’s own route (R3)', () => {
  const executed = (signer: string, emitter = ZEROX) =>
    log(emitter, [META_TRANSACTION_EXECUTED_TOPIC, '0x415565b0' + '0'.repeat(56)], '0x' + word(7n) + addrWord(signer) + word(0n));

  it('the signer sold: the relayer fee it paid in the token is part of what left it', () => {
    // 5 TOKEN fee to the relayer's fee account, 100 TOKEN into the pool, 1 WETH unwrapped by the proxy for the signer.
    const logs = [transfer(TOKEN, WALLET, A(0xfee), 5n), ...sale(ZEROX), withdrawal(ZEROX, E18), executed(WALLET)];
    const r = receipt(logs, ZEROX, RELAYER);
    expect(mayHoldWalletTrade(r, WALLET)).toBe(true);
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([['sell', TOKEN, 105n, E18, '0x']]);
    // The relayer moved nothing; a meta-transaction event from a contract outside the table names no signer.
    expect(decodeReceipt(r, RELAYER, chain)).toEqual([]);
    expect(decodeReceipt(receipt([...logs.slice(0, -1), executed(WALLET, A(0xbad))], ZEROX, RELAYER), WALLET, chain)).toEqual([]);
  });
});

describe('1inch limit orders and Fusion: the maker’s trades (R4)', () => {
  const RESOLVER = A(0x4e5);
  it('token for token: no native figure; the fill must name the wallet as maker', () => {
    const filled = (maker: string) => log(ONEINCH, [ONEINCH_ORDER_FILLED_MAKER_TOPIC, topic(maker)], '0x' + word(1n) + word(0n));
    const logs = [transfer(TOKEN, WALLET, RESOLVER, 300n), transfer(TOKEN2, RESOLVER, ONEINCH, 90n), transfer(TOKEN2, ONEINCH, WALLET, 90n)];
    expect(brief(decodeReceipt(receipt([...logs, filled(WALLET)], RESOLVER, RELAYER), WALLET, chain))).toEqual([
      ['sell', TOKEN, 300n, null, '1inch'],
      ['buy', TOKEN2, 90n, null, '1inch'],
    ]);
    expect(decodeReceipt(receipt([...logs, filled(A(0x999))], RESOLVER, RELAYER), WALLET, chain)).toEqual([]);
  });

  it('sold for ETH: the taker’s WETH into the router, before the integrator’s fee taken from the ETH', () => {
    // The maker's 2000 TOKEN go to a pair; the resolver pays 0.13 WETH to the router (unwrapped, ETH forwarded by internal calls).
    const logs = [
      transfer(TOKEN, WALLET, POOL, 2000n),
      transfer(WETH, POOL, RESOLVER, 133n * (E18 / 1000n)),
      v2swap(POOL, RESOLVER),
      transfer(WETH, RESOLVER, ONEINCH, 13n * (E18 / 100n)),
      withdrawal(ONEINCH, 13n * (E18 / 100n)),
      log(ONEINCH, [ONEINCH_ORDER_FILLED_TOPIC], '0x' + word(1n) + word(0n)),
    ];
    expect(brief(decodeReceipt(receipt(logs, RESOLVER, RELAYER), WALLET, chain))).toEqual([['sell', TOKEN, 2000n, 13n * (E18 / 100n), '1inch']]);
    // Someone who only received a token in that fill (a fee's receiver) is no maker.
    expect(decodeReceipt(receipt([...logs, transfer(TOKEN2, ONEINCH, A(0xfee), 1n)], RESOLVER, RELAYER), A(0xfee), chain)).toEqual([]);
  });
});

describe('CoW ETH-flow orders: the receiver’s buy (R6)', () => {
  it('the executed sell amount the Trade event states is the native figure; the amount is what reached the receiver', () => {
    // Trade(owner = EthFlow, sellToken WETH, buyToken TOKEN, sellAmount 0.9 ETH, buyAmount 110, feeAmount 0, orderUid)
    const trade = log(
      COW,
      [COW_TRADE_TOPIC, topic(ETH_FLOW)],
      '0x' + addrWord(WETH) + addrWord(TOKEN) + word(9n * (E18 / 10n)) + word(110n) + word(0n) + word(0xe0n) + word(56n) + 'ab'.repeat(56) + '00'.repeat(8),
    );
    const r = receipt([transfer(WETH, ETH_FLOW, COW, 9n * (E18 / 10n)), trade, transfer(TOKEN, COW, WALLET, 109n)], COW, A(0x5017));
    expect(decodeReceipt(r, WALLET, chain)).toEqual([{ side: 'buy', token: TOKEN, amountRaw: 109n, nativeRaw: 9n * (E18 / 10n), pool: COW, poolKind: 'cow' }]);
    expect(decodeReceipt(r, A(0xb0b), chain)).toEqual([]);
  });
});

describe('venues whose events carry what no transfer shows', () => {
  it('Balancer V3: a buffer wrap then a swap inside the Vault, the WETH side as the native figure', () => {
    const WRAPPED = A(0x3a0);
    // Wrap(wrappedToken, depositedUnderlying 1634, mintedShares 1484); Swap(pool, WRAPPED -> WETH, 1484, 0.0004 WETH)
    const wrap = log(BALANCER_V3_VAULT, [BALANCER_V3_WRAP_TOPIC, topic(WRAPPED)], '0x' + word(1634n) + word(1484n) + word(0n));
    const swap = log(
      BALANCER_V3_VAULT,
      [BALANCER_V3_SWAP_TOPIC, topic(A(0xb00)), topic(WRAPPED), topic(WETH)],
      '0x' + word(1484n) + word(4n * 10n ** 14n) + word(0n) + word(0n),
    );
    const r = receipt(
      [
        transfer(TOKEN, WALLET, BALANCER_V3_VAULT, 1634n),
        wrap,
        swap,
        transfer(WETH, BALANCER_V3_VAULT, ROUTER, 4n * 10n ** 14n),
        withdrawal(ROUTER, 4n * 10n ** 14n),
      ],
      ROUTER,
    );
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([['sell', TOKEN, 1634n, 4n * 10n ** 14n, 'balancer-v3']]);
  });

  it('a Hashflow pool paying from its balance for native coin taken with the call', () => {
    // Trade(trader, txid, baseToken 0x0 = native, quoteToken TOKEN, 0.005 native, 1124 TOKEN); the pool pays TOKEN to the router.
    const trade = log(
      POOL,
      [HASHFLOW_TRADE_TOPIC],
      '0x' + addrWord(ROUTER) + word(9n) + addrWord(A(0)) + addrWord(TOKEN) + word(5n * 10n ** 15n) + word(1124n),
    );
    const r = receipt([trade, transfer(TOKEN, POOL, ROUTER, 1124n), transfer(TOKEN, ROUTER, WALLET, 1124n)], ROUTER);
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([['buy', TOKEN, 1124n, 5n * 10n ** 15n, 'hashflow']]);
  });
});
