import { toEventSelector } from 'viem';
import { describe, expect, it } from 'vitest';
import * as balancerV3 from '../../src/lib/chains/evm/decode/balancer-v3.js';
import * as curve from '../../src/lib/chains/evm/decode/curve.js';
import { NAMED_EVENTS } from '../../src/lib/chains/evm/decode/names.js';
import * as orders from '../../src/lib/chains/evm/decode/orders.js';
import * as uniswapV1 from '../../src/lib/chains/evm/decode/uniswap-v1.js';
import * as movements from '../../src/lib/chains/evm/decode/movements.js';
import * as hashflow from '../../src/lib/chains/evm/decode/hashflow.js';

/**
 * The event topics the route engine's venues, orders and names match on are the keccak-256 of
 * their signatures as the protocols' sources declare them, computed here by viem from the text
 * (tests/evm/events.test.ts does the same for the older decoders' topics).
 */
const SIGNATURES: [string, string][] = [
  [curve.CURVE_TOKEN_EXCHANGE_TOPIC, 'TokenExchange(address,int128,uint256,int128,uint256)'],
  [curve.CURVE_TOKEN_EXCHANGE_UNDERLYING_TOPIC, 'TokenExchangeUnderlying(address,int128,uint256,int128,uint256)'],
  [curve.CURVE_CRYPTO_EXCHANGE_TOPIC, 'TokenExchange(address,uint256,uint256,uint256,uint256)'],
  [curve.CURVE_NG_EXCHANGE_TOPIC, 'TokenExchange(address,uint256,uint256,uint256,uint256,uint256,uint256)'],
  [balancerV3.BALANCER_V3_SWAP_TOPIC, 'Swap(address,address,address,uint256,uint256,uint256,uint256)'],
  [balancerV3.BALANCER_V3_WRAP_TOPIC, 'Wrap(address,uint256,uint256,bytes32)'],
  [balancerV3.BALANCER_V3_UNWRAP_TOPIC, 'Unwrap(address,uint256,uint256,bytes32)'],
  [orders.META_TRANSACTION_EXECUTED_TOPIC, 'MetaTransactionExecuted(bytes32,bytes4,address,address)'],
  [orders.ONEINCH_ORDER_FILLED_MAKER_TOPIC, 'OrderFilled(address,bytes32,uint256)'],
  [orders.ONEINCH_ORDER_FILLED_TOPIC, 'OrderFilled(bytes32,uint256)'],
  [orders.ONEINCH_ORDER_FILLED_RFQ_TOPIC, 'OrderFilledRFQ(bytes32,uint256)'],
  [hashflow.HASHFLOW_TRADE_TOPIC, 'Trade(address,bytes32,address,address,uint256,uint256)'],
  [movements.WETH_WITHDRAWAL_TOPIC, 'Withdrawal(address,uint256)'],
  [movements.WETH_DEPOSIT_TOPIC, 'Deposit(address,uint256)'],
  [uniswapV1.UNISWAP_V1_TOKEN_PURCHASE_TOPIC, 'TokenPurchase(address,uint256,uint256)'],
  [uniswapV1.UNISWAP_V1_ETH_PURCHASE_TOPIC, 'EthPurchase(address,uint256,uint256)'],
];

const NAMED: [string, string][] = [
  ['Trade(address,bytes32,address,address,uint256,uint256)', 'hashflow'],
  ['Swap(address,address,bool,bool,uint256,uint256,int32)', 'maverick'],
  ['PoolSwap(address,address,(uint256,bool,bool,int32),uint256,uint256)', 'maverick'],
  ['DODOSwap(address,address,uint256,uint256,address,address)', 'dodo'],
  ['WooSwap(address,address,uint256,uint256,address,address,address,uint256,uint256)', 'woofi'],
  ['Swap(bool,uint256,uint256,address)', 'fluid'],
];

describe('route engine event topics', () => {
  it.each(SIGNATURES)('%s = keccak(%s)', (topic, signature) => {
    expect(topic).toBe(toEventSelector(signature));
  });
  it('covers every *_TOPIC constant of those modules', () => {
    const exported = [curve, balancerV3, orders, uniswapV1, movements, hashflow].flatMap((m) =>
      Object.entries(m)
        .filter(([k]) => k.endsWith('_TOPIC'))
        .map(([, v]) => v),
    );
    expect(new Set(exported)).toEqual(new Set(SIGNATURES.map(([t]) => t)));
  });
  it('names venues by the events their sources declare', () => {
    expect(new Map(NAMED.map(([sig, slug]) => [toEventSelector(sig), slug]))).toEqual(NAMED_EVENTS);
  });
});
