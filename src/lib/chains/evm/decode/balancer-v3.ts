import type { RpcLog } from './rpc-types.js';
import type { BalancerHop } from './balancer.js';
import { dataWord } from './words.js';
import { topicToAddress } from '../../shared/uniswap-v2-events.js';

/**
 * Balancer V3 (balancer/balancer-v3-monorepo, IVaultEvents.sol): one Vault at the same address on
 * every chain it runs on (docs.balancer.fi deployment addresses) holds every pool's tokens and emits
 * `Swap(address indexed pool, IERC20 indexed tokenIn, IERC20 indexed tokenOut, uint256 amountIn,
 * uint256 amountOut, uint256 swapFeePercentage, uint256 swapFeeAmount)`. It never takes native ETH
 * itself (its routers wrap it), so the event's WETH side moves by Transfer like any token.
 */
export const BALANCER_V3_SWAP_TOPIC = '0x0874b2d545cb271cdbda4e093020c452328b24af12382ed62c4d00f5c26709db';
export const BALANCER_V3_VAULT = '0xba1333333333a1ba1108e8412f11850a5c319ba9';

export function balancerV3Hops(logs: readonly RpcLog[]): BalancerHop[] {
  const out: BalancerHop[] = [];
  for (const l of logs) {
    if (l.topics[0]?.toLowerCase() !== BALANCER_V3_SWAP_TOPIC || l.topics.length !== 4 || l.address.toLowerCase() !== BALANCER_V3_VAULT) continue;
    out.push({
      vault: BALANCER_V3_VAULT,
      tokenIn: topicToAddress(l.topics[2]),
      tokenOut: topicToAddress(l.topics[3]),
      amountIn: dataWord(l.data, 0),
      amountOut: dataWord(l.data, 1),
    });
  }
  return out;
}
