import type { RpcLog } from './rpc-types.js';
import { dataWord, wordToAddress } from './words.js';
import type { V4PoolKey } from './pool-key.js';

/**
 * PancakeSwap Infinity (pancakeswap/infinity-core): a Vault keeps every pool's tokens; the CL and
 * Bin pool managers emit the swaps. Both `Swap` events start like Uniswap V4's (pool id and
 * sender indexed, then the swapper's deltas `amount0`, `amount1`: negative is paid into the pool)
 * but end differently, so their topics differ from V4's and from each other.
 */

/** CL `Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee, uint16 protocolFee)` */
export const INFINITY_CL_SWAP_TOPIC = '0x04206ad2b7c0f463bff3dd4f33c5735b0f2957a351e4f79763a4fa9e775dd237';
/** Bin `Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint24 activeId, uint24 fee, uint16 protocolFee)` */
export const INFINITY_BIN_SWAP_TOPIC = '0x3e8aae37f890eb1f9d63dd4d2062f3f0be757848a0f0760e4f3e53dad556e861';
/** Both managers' public `poolIdToPoolKey(bytes32)`: (currency0, currency1, hooks, poolManager, fee, parameters). */
export const POOL_ID_TO_POOL_KEY_SELECTOR = '0x0e2d484a';

export function isInfinitySwap(l: RpcLog): boolean {
  const t0 = l.topics[0]?.toLowerCase();
  return (t0 === INFINITY_CL_SWAP_TOPIC || t0 === INFINITY_BIN_SWAP_TOPIC) && l.topics.length === 3;
}

export function poolIdToPoolKeyCallData(id: string): string {
  return POOL_ID_TO_POOL_KEY_SELECTOR + id.slice(2).padStart(64, '0');
}

/**
 * The answer of `poolIdToPoolKey` in the V4 key shape the store keeps (Infinity keys carry
 * `parameters` instead of a tick spacing: only the currencies and hooks matter here), or null for
 * an unknown id (all zeros).
 */
export function decodeInfinityPoolKey(result: unknown): V4PoolKey | null {
  if (typeof result !== 'string' || result.length < 2 + 6 * 64) return null;
  const currency1 = wordToAddress(dataWord(result, 1));
  if (currency1 === '0x0000000000000000000000000000000000000000') return null;
  return {
    currency0: wordToAddress(dataWord(result, 0)),
    currency1,
    hooks: wordToAddress(dataWord(result, 2)),
    fee: Number(dataWord(result, 4) & 0xffffffn),
    tickSpacing: 0,
  };
}
