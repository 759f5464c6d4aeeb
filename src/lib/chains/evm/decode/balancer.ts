import type { RpcLog } from './rpc-types.js';
import { dataWord } from './words.js';
import { topicToAddress } from '../../shared/uniswap-v2-events.js';

/**
 * Balancer V2: one Vault holds every pool's tokens and emits every swap. A swap paying or paid in
 * native ETH is wrapped or unwrapped by the Vault itself (WETH `Deposit`/`Withdrawal`, no
 * `Transfer`), so the event's WETH side is the native side.
 */

/** `Swap(bytes32 indexed poolId, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut)` */
export const BALANCER_V2_SWAP_TOPIC = '0x2170c741c41531aec20e7c107c24eecfdd15e69c9bb0a8dd37b1840b9e0b207b';

export interface BalancerHop {
  vault: string;
  tokenIn: string;
  tokenOut: string;
  amountIn: bigint;
  amountOut: bigint;
}

export function balancerHops(logs: readonly RpcLog[]): BalancerHop[] {
  const out: BalancerHop[] = [];
  for (const l of logs) {
    if (l.topics[0]?.toLowerCase() !== BALANCER_V2_SWAP_TOPIC || l.topics.length !== 4) continue;
    out.push({
      vault: l.address.toLowerCase(),
      tokenIn: topicToAddress(l.topics[2]),
      tokenOut: topicToAddress(l.topics[3]),
      amountIn: dataWord(l.data, 0),
      amountOut: dataWord(l.data, 1),
    });
  }
  return out;
}
