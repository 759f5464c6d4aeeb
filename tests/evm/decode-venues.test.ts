import { describe, expect, it } from 'vitest';
import { decodeReceipt } from '../../src/lib/chains/evm/decode/decode-receipt.js';
import type { RpcLog, RpcReceipt } from '../../src/lib/chains/evm/decode/rpc-types.js';
import { BALANCER_V2_SWAP_TOPIC } from '../../src/lib/chains/evm/decode/balancer.js';
import {
  V4_HOOK_FEE_TOPIC,
  V4_HOOK_SWAP_TOPIC,
  V4_INITIALIZE_TOPIC,
  V4_SWAP_TOPIC,
  decodeInitializeLog,
  decodePoolKeysResult,
  poolKeysCallData,
} from '../../src/lib/chains/evm/decode/v4.js';
import type { V4PoolKey } from '../../src/lib/chains/evm/decode/pool-key.js';
import { ERC20_TRANSFER_TOPIC, UNISWAP_V2_SWAP_TOPIC } from '../../src/lib/chains/shared/uniswap-v2-events.js';
import { UNISWAP_V3_SWAP_TOPIC } from '../../src/lib/chains/shared/uniswap-v3-events.js';
import { topic, word } from '../support/evm-words.js';

/**
 * Uniswap V4, Balancer V2 and mixed routes on receipts built with the venues' real event shapes
 * (the anvil scenario covers the same through the real contracts). Expected figures are worked
 * out by hand from the logs written here.
 */
const A = (n: number) => '0x' + n.toString(16).padStart(40, '0');
const WALLET = A(0xaaa);
const WETH = A(0xeee);
const TOKEN = A(0x111);
const TOKEN2 = A(0x222);
const V3POOL = A(0x503);
const PM = A(0x444);
const VAULT = A(0xba1);
const ROUTER = A(0x600);
const NATIVE = A(0);
const chain = { wrappedNative: WETH, entryPoints: [] };
const ID1 = '0x' + '01'.repeat(32);
const ID2 = '0x' + '02'.repeat(32);
const ID3 = '0x' + '03'.repeat(32);
const key = (c0: string, c1: string): V4PoolKey => ({ currency0: c0, currency1: c1, fee: 3000, tickSpacing: 60, hooks: NATIVE });
/** ID1: ETH/TOKEN, ID2: ETH/TOKEN2, ID3: TOKEN/TOKEN2. */
const KEYS = new Map([
  [ID1, key(NATIVE, TOKEN)],
  [ID2, key(NATIVE, TOKEN2)],
  [ID3, key(TOKEN, TOKEN2)],
]);

function log(address: string, topics: string[], data = '0x'): RpcLog {
  return { address, topics, data, blockNumber: '0x1', transactionHash: '0x' + '1'.repeat(64), transactionIndex: '0x0' };
}
const transfer = (token: string, from: string, to: string, v: bigint) => log(token, [ERC20_TRANSFER_TOPIC, topic(from), topic(to)], '0x' + word(v));
/** V4 Swap: amounts are the swapper's (negative: paid into the pool); the sender is the router. */
const v4swap = (id: string, a0: bigint, a1: bigint, manager = PM) =>
  log(manager, [V4_SWAP_TOPIC, id, topic(ROUTER)], '0x' + word(a0) + word(a1) + word(1n << 96n) + word(10n ** 18n) + word(0n) + word(3000n));
const hookFee = (id: string, f0: bigint, f1: bigint) => log(A(0x4000), [V4_HOOK_FEE_TOPIC, id, topic(ROUTER)], '0x' + word(f0) + word(f1));
const balancerSwap = (tokenIn: string, tokenOut: string, amountIn: bigint, amountOut: bigint) =>
  log(VAULT, [BALANCER_V2_SWAP_TOPIC, '0x' + 'ab'.repeat(32), topic(tokenIn), topic(tokenOut)], '0x' + word(amountIn) + word(amountOut));
const receipt = (logs: RpcLog[], from = WALLET): RpcReceipt => ({
  transactionHash: '0x' + '1'.repeat(64),
  transactionIndex: '0x0',
  blockNumber: '0x1',
  from,
  to: ROUTER,
  status: '0x1',
  logs,
});

describe('Uniswap V4', () => {
  it('a native buy: ETH paid in the Swap (no log moves it), the token from the PoolManager', () => {
    // Wallet pays 0.5 ETH (amount0 = -5e17) for 1,234 TOKEN (amount1 = +1234).
    const r = receipt([v4swap(ID1, -(5n * 10n ** 17n), 1234n), transfer(TOKEN, PM, WALLET, 1234n)]);
    expect(decodeReceipt(r, WALLET, chain, KEYS)).toEqual([
      { side: 'buy', token: TOKEN, amountRaw: 1234n, nativeRaw: 5n * 10n ** 17n, pool: PM, poolKind: 'v4' },
    ]);
  });

  it('a native sell: the token to the PoolManager, ETH received per the Swap', () => {
    const r = receipt([transfer(TOKEN, WALLET, PM, 700n), v4swap(ID1, 31n, -700n)]);
    expect(decodeReceipt(r, WALLET, chain, KEYS)).toEqual([{ side: 'sell', token: TOKEN, amountRaw: 700n, nativeRaw: 31n, pool: PM, poolKind: 'v4' }]);
  });

  it('without the pool key the native side is unknown, never guessed', () => {
    const r = receipt([transfer(TOKEN, WALLET, PM, 700n), v4swap(ID1, 31n, -700n)]);
    expect(decodeReceipt(r, WALLET, chain).map((t) => t.nativeRaw)).toEqual([null]);
  });

  it('multi-hop through native: TOKEN -> ETH -> TOKEN2 is a sell and a buy with the ETH middle leg', () => {
    const r = receipt([v4swap(ID1, 40n, -100n), v4swap(ID2, -40n, 900n), transfer(TOKEN, WALLET, PM, 100n), transfer(TOKEN2, PM, WALLET, 900n)]);
    expect(decodeReceipt(r, WALLET, chain, KEYS)).toEqual([
      { side: 'sell', token: TOKEN, amountRaw: 100n, nativeRaw: 40n, pool: PM, poolKind: 'v4' },
      { side: 'buy', token: TOKEN2, amountRaw: 900n, nativeRaw: 40n, pool: PM, poolKind: 'v4' },
    ]);
  });

  it('ERC-20/ERC-20 in one pool: a sell and a buy with no native figure', () => {
    const r = receipt([v4swap(ID3, -100n, 90n), transfer(TOKEN, WALLET, PM, 100n), transfer(TOKEN2, PM, WALLET, 90n)]);
    expect(decodeReceipt(r, WALLET, chain, KEYS).map((t) => [t.side, t.token, t.nativeRaw])).toEqual([
      ['sell', TOKEN, null],
      ['buy', TOKEN2, null],
    ]);
  });

  it('a hook fee (HookFee) is part of what a buy paid and comes out of what a sell received', () => {
    const buy = receipt([v4swap(ID1, -1000n, 50n), hookFee(ID1, 10n, 0n), transfer(TOKEN, PM, WALLET, 50n)]);
    expect(decodeReceipt(buy, WALLET, chain, KEYS).map((t) => t.nativeRaw)).toEqual([1010n]);
    const sell = receipt([transfer(TOKEN, WALLET, PM, 50n), v4swap(ID1, 1000n, -50n), hookFee(ID1, 10n, 0n)]);
    expect(decodeReceipt(sell, WALLET, chain, KEYS).map((t) => t.nativeRaw)).toEqual([990n]);
  });

  it('a custom-curve hook: the Swap shows 0 and 0, the HookSwap (positive: paid in) carries the swap', () => {
    const hookSwap = (id: string, a0: bigint, a1: bigint) =>
      log(A(0x4000), [V4_HOOK_SWAP_TOPIC, id, topic(ROUTER)], '0x' + word(a0) + word(a1) + word(0n) + word(0n));
    // Buy: the wallet pays 800 wei of ETH into the hook and gets 60 TOKEN.
    const buy = receipt([hookSwap(ID1, 800n, -60n), v4swap(ID1, 0n, 0n), transfer(TOKEN, PM, WALLET, 60n)]);
    expect(decodeReceipt(buy, WALLET, chain, KEYS)).toEqual([{ side: 'buy', token: TOKEN, amountRaw: 60n, nativeRaw: 800n, pool: PM, poolKind: 'v4' }]);
    // A pool that did swap keeps its own figures: a HookSwap beside it is not counted twice.
    const both = receipt([v4swap(ID1, -1000n, 50n), hookSwap(ID1, 1000n, -50n), transfer(TOKEN, PM, WALLET, 50n)]);
    expect(decodeReceipt(both, WALLET, chain, KEYS).map((t) => t.nativeRaw)).toEqual([1000n]);
  });

  it('a swap by someone else that pays the wallet, and a liquidity change, are not trades', () => {
    const other = receipt([v4swap(ID1, -5n, 100n), transfer(TOKEN, PM, WALLET, 100n)], A(0xbbb));
    expect(decodeReceipt(other, WALLET, chain, KEYS)).toEqual([]);
    // ModifyLiquidity(bytes32,address,int24,int24,int256,bytes32) leaves only transfers: no Swap, no trade.
    const liquidity = receipt([
      transfer(TOKEN, WALLET, PM, 100n),
      log(PM, ['0xf208f4912782fd25c7f114ca3723a2d5dd6f3bcc3ac8db5af63baa85f711d5ec', ID1, topic(WALLET)]),
    ]);
    expect(decodeReceipt(liquidity, WALLET, chain, KEYS)).toEqual([]);
  });

  it('WETH as a V4 currency counts once, from the Swap, not again from its transfer into the PoolManager', () => {
    const keys = new Map([[ID1, key(TOKEN, WETH)]]);
    const r = receipt([transfer(WETH, WALLET, PM, 77n), v4swap(ID1, 500n, -77n), transfer(TOKEN, PM, WALLET, 500n)]);
    expect(decodeReceipt(r, WALLET, chain, keys)).toEqual([{ side: 'buy', token: TOKEN, amountRaw: 500n, nativeRaw: 77n, pool: PM, poolKind: 'v4' }]);
  });

  it('reads pool keys from poolKeys(bytes25) answers and Initialize logs', () => {
    expect(poolKeysCallData(ID1)).toBe('0x86b6be7d' + '01'.repeat(25) + '00'.repeat(7));
    const answer = '0x' + word(0n) + word(BigInt(TOKEN)) + word(500n) + word(BigInt.asUintN(256, -10n)) + word(BigInt(A(0x4000)));
    expect(decodePoolKeysResult(answer)).toEqual({ currency0: NATIVE, currency1: TOKEN, fee: 500, tickSpacing: -10, hooks: A(0x4000) });
    expect(decodePoolKeysResult('0x' + word(0n).repeat(5))).toBeNull();
    const init = log(PM, [V4_INITIALIZE_TOPIC, ID1, topic(NATIVE), topic(TOKEN)], '0x' + word(3000n) + word(60n) + word(0n) + word(1n << 96n) + word(0n));
    expect(decodeInitializeLog(init)).toEqual(key(NATIVE, TOKEN));
  });
});

describe('mixed routes (Universal Router)', () => {
  it('V3 TOKEN -> WETH, unwrap, V4 ETH -> TOKEN2: each leg its own venue and native figure', () => {
    const r = receipt([
      transfer(TOKEN, WALLET, V3POOL, 100n),
      transfer(WETH, V3POOL, ROUTER, 60n),
      log(V3POOL, [UNISWAP_V3_SWAP_TOPIC, topic(ROUTER), topic(ROUTER)]),
      // The router unwraps 60 and pays 59 into V4: 1 wei taken between the legs (a front end's fee).
      v4swap(ID2, -59n, 300n),
      transfer(TOKEN2, PM, WALLET, 300n),
    ]);
    expect(decodeReceipt(r, WALLET, chain, KEYS)).toEqual([
      { side: 'sell', token: TOKEN, amountRaw: 100n, nativeRaw: 60n, pool: V3POOL, poolKind: 'v3' },
      { side: 'buy', token: TOKEN2, amountRaw: 300n, nativeRaw: 59n, pool: PM, poolKind: 'v4' },
    ]);
  });

  it('V4 TOKEN -> ETH, wrap, V2 WETH -> TOKEN2', () => {
    const r = receipt([
      transfer(TOKEN, WALLET, PM, 100n),
      v4swap(ID1, 45n, -100n),
      transfer(WETH, ROUTER, A(0x502), 45n),
      log(A(0x502), [UNISWAP_V2_SWAP_TOPIC, topic(ROUTER), topic(WALLET)], '0x' + word(0n).repeat(4)),
      transfer(TOKEN2, A(0x502), WALLET, 8n),
    ]);
    expect(decodeReceipt(r, WALLET, chain, KEYS)).toEqual([
      { side: 'sell', token: TOKEN, amountRaw: 100n, nativeRaw: 45n, pool: PM, poolKind: 'v4' },
      { side: 'buy', token: TOKEN2, amountRaw: 8n, nativeRaw: 45n, pool: A(0x502), poolKind: 'v2' },
    ]);
  });
});

describe('Balancer V2', () => {
  it("native ETH in: the Vault wraps it (no WETH Transfer), the event's WETH side is the native side", () => {
    const r = receipt([balancerSwap(WETH, TOKEN, 3n * 10n ** 18n, 4000n), transfer(TOKEN, VAULT, WALLET, 4000n)]);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([
      { side: 'buy', token: TOKEN, amountRaw: 4000n, nativeRaw: 3n * 10n ** 18n, pool: VAULT, poolKind: 'balancer-v2' },
    ]);
  });

  it('WETH paid by the wallet counts once (the event), not again from its transfer', () => {
    const r = receipt([transfer(TOKEN, WALLET, VAULT, 4000n), transfer(WETH, VAULT, WALLET, 29n), balancerSwap(TOKEN, WETH, 4000n, 29n)]);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([{ side: 'sell', token: TOKEN, amountRaw: 4000n, nativeRaw: 29n, pool: VAULT, poolKind: 'balancer-v2' }]);
  });

  it('a batch swap TOKEN -> WETH -> TOKEN2 is a sell and a buy with the WETH middle leg', () => {
    const r = receipt([
      balancerSwap(TOKEN, WETH, 10n, 7n),
      balancerSwap(WETH, TOKEN2, 7n, 3n),
      transfer(TOKEN, WALLET, VAULT, 10n),
      transfer(TOKEN2, VAULT, WALLET, 3n),
    ]);
    expect(decodeReceipt(r, WALLET, chain).map((t) => [t.side, t.token, t.nativeRaw])).toEqual([
      ['sell', TOKEN, 7n],
      ['buy', TOKEN2, 7n],
    ]);
  });
});
