import type { RpcLog } from './rpc-types.js';
import type { BalancerHop } from './balancer.js';
import { dataWord } from './words.js';
import { ERC20_TRANSFER_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';

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

/**
 * The Vault's ERC-4626 buffers wrap and unwrap inside a route (a boosted pool trades the wrapped
 * token): `Wrap(IERC4626 indexed wrappedToken, uint256 depositedUnderlying, uint256 mintedShares,
 * bytes32 bufferBalances)` and `Unwrap(IERC4626 indexed wrappedToken, uint256 burnedShares, uint256
 * withdrawnUnderlying, bytes32 bufferBalances)` (IVaultEvents.sol). The underlying token is not in
 * the event: it is the token that moved into (or out of) the Vault by that amount in the same logs.
 */
export const BALANCER_V3_WRAP_TOPIC = '0x3771d13c67011e31e12031c54bb59b0bf544a80b81d280a3711e172aa8b7f47b';
export const BALANCER_V3_UNWRAP_TOPIC = '0xeeb740c90bf2b18c9532eb7d473137767036d893dff3e009f32718f821b2a4c0';

export function balancerV3BufferHops(logs: readonly RpcLog[]): BalancerHop[] {
  const out: BalancerHop[] = [];
  const moved = (into: boolean, amount: bigint): string | undefined => {
    const l = logs.find(
      (t) =>
        t.topics.length === 3 &&
        t.topics[0].toLowerCase() === ERC20_TRANSFER_TOPIC &&
        topicToAddress(into ? t.topics[2] : t.topics[1]) === BALANCER_V3_VAULT &&
        dataWord(t.data, 0) === amount,
    );
    return l?.address.toLowerCase();
  };
  for (const l of logs) {
    const t0 = l.topics[0]?.toLowerCase();
    if ((t0 !== BALANCER_V3_WRAP_TOPIC && t0 !== BALANCER_V3_UNWRAP_TOPIC) || l.topics.length !== 2 || l.address.toLowerCase() !== BALANCER_V3_VAULT) continue;
    const wrapped = topicToAddress(l.topics[1]);
    const a = dataWord(l.data, 0);
    const b = dataWord(l.data, 1);
    if (t0 === BALANCER_V3_WRAP_TOPIC) {
      const underlying = moved(true, a);
      if (underlying) out.push({ vault: BALANCER_V3_VAULT, tokenIn: underlying, tokenOut: wrapped, amountIn: a, amountOut: b });
    } else {
      const underlying = moved(false, b);
      if (underlying) out.push({ vault: BALANCER_V3_VAULT, tokenIn: wrapped, tokenOut: underlying, amountIn: a, amountOut: b });
    }
  }
  return out;
}
