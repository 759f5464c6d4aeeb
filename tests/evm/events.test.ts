import { toEventSelector, toFunctionSelector } from 'viem';
import { describe, expect, it } from 'vitest';
import * as balancer from '../../src/lib/chains/evm/decode/balancer.js';
import * as receipt from '../../src/lib/chains/evm/decode/decode-receipt.js';
import * as settlements from '../../src/lib/chains/evm/decode/settlements.js';
import * as v4 from '../../src/lib/chains/evm/decode/v4.js';
import * as v2 from '../../src/lib/chains/shared/uniswap-v2-events.js';
import * as v3 from '../../src/lib/chains/shared/uniswap-v3-events.js';

/**
 * Every event topic the EVM (and, through chains/shared, the Tron) decoders match on is the
 * keccak-256 of its canonical signature, computed here by viem from the signature text. The
 * decoders keep them as literals: they are compared per log on the hot path.
 */
const SIGNATURES: [string, string][] = [
  [v2.UNISWAP_V2_SWAP_TOPIC, 'Swap(address,uint256,uint256,uint256,uint256,address)'],
  [v2.UNISWAP_V2_SYNC_TOPIC, 'Sync(uint112,uint112)'],
  [v2.UNISWAP_V2_MINT_TOPIC, 'Mint(address,uint256,uint256)'],
  [v2.UNISWAP_V2_BURN_TOPIC, 'Burn(address,uint256,uint256,address)'],
  [v2.UNISWAP_V2_PAIR_CREATED_TOPIC, 'PairCreated(address,address,address,uint256)'],
  [v2.ERC20_TRANSFER_TOPIC, 'Transfer(address,address,uint256)'],
  [v3.UNISWAP_V3_SWAP_TOPIC, 'Swap(address,address,int256,int256,uint160,uint128,int24)'],
  [receipt.PANCAKESWAP_V3_SWAP_TOPIC, 'Swap(address,address,int256,int256,uint160,uint128,int24,uint128,uint128)'],
  [receipt.SOLIDLY_SWAP_TOPIC, 'Swap(address,address,uint256,uint256,uint256,uint256)'],
  [receipt.USER_OPERATION_EVENT_TOPIC, 'UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)'],
  [receipt.BEFORE_EXECUTION_TOPIC, 'BeforeExecution()'],
  [v4.V4_SWAP_TOPIC, 'Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)'],
  [v4.V4_INITIALIZE_TOPIC, 'Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)'],
  [v4.V4_HOOK_FEE_TOPIC, 'HookFee(bytes32,address,uint128,uint128)'],
  [v4.V4_HOOK_SWAP_TOPIC, 'HookSwap(bytes32,address,int128,int128,uint128,uint128)'],
  [balancer.BALANCER_V2_SWAP_TOPIC, 'Swap(bytes32,address,address,uint256,uint256)'],
  [receipt.SAFE_EXECUTION_SUCCESS_TOPIC, 'ExecutionSuccess(bytes32,uint256)'],
  [receipt.SAFE_EXECUTION_FAILURE_TOPIC, 'ExecutionFailure(bytes32,uint256)'],
  [settlements.COW_TRADE_TOPIC, 'Trade(address,address,address,uint256,uint256,uint256,bytes)'],
  [settlements.UNISWAPX_FILL_TOPIC, 'Fill(bytes32,address,address,uint256)'],
];

describe('event topics are the selectors of their signatures', () => {
  it.each(SIGNATURES)('%s = keccak(%s)', (topic, signature) => {
    expect(topic).toBe(toEventSelector(signature));
  });
  it('covers every *_TOPIC constant the decoders export', () => {
    const exported = [v2, v3, receipt, v4, balancer, settlements].flatMap((m) =>
      Object.entries(m)
        .filter(([k]) => k.endsWith('_TOPIC'))
        .map(([, v]) => v),
    );
    expect(new Set(exported)).toEqual(new Set(SIGNATURES.map(([t]) => t)));
  });
  it('the function selectors are the ones viem computes', () => {
    expect(toFunctionSelector('symbol()')).toBe('0x95d89b41');
    expect(toFunctionSelector('decimals()')).toBe('0x313ce567');
    expect(toFunctionSelector('factory()')).toBe('0xc45a0155');
  });
});
