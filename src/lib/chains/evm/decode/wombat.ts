import { topicToAddress } from '../../shared/uniswap-v2-events.js';
import type { RpcLog } from './rpc-types.js';
import { loggedTransfers, transferBefore, type SplitSwap } from './split-venues.js';
import { dataWord } from './words.js';

/**
 * Wombat Exchange's pools keep each token in an asset contract of its own (the pool's LP token for
 * that coin): a swap takes the input into the input's asset and pays the output from the output's
 * asset, and the pool states it as `Swap(address indexed sender, address fromToken, address
 * toToken, uint256 fromAmount, uint256 toAmount, address indexed to)`, or in its cross-chain pools
 * `SwapV2(..., uint256 toAmount, uint256 toTokenFee, address indexed to)`. Read from the event: the
 * input's asset is the recipient of a transfer of `fromAmount` of `fromToken` before it, the
 * output's the sender of `toAmount` of `toToken` to `to`.
 */

export const WOMBAT_SWAP_TOPIC = '0x54787c404bb33c88e86f4baf88183a3b0141d0a848e6a9f7a13b66ae3a9b73d1';
export const WOMBAT_SWAP_V2_TOPIC = '0x7fa01e8d24e5a6ec56e00b4ff8ee7ed97e7650a7846ec494bbaa5d65f1be9ea4';

export function wombatSwaps(logs: readonly RpcLog[]): SplitSwap[] {
  const isSwap = (l: RpcLog) =>
    l.topics.length === 3 && (l.topics[0].toLowerCase() === WOMBAT_SWAP_TOPIC || l.topics[0].toLowerCase() === WOMBAT_SWAP_V2_TOPIC);
  if (!logs.some(isSwap)) return [];
  const transfers = loggedTransfers(logs);
  const claimed = new Set<number>();
  const out: SplitSwap[] = [];
  logs.forEach((l, i) => {
    if (!isSwap(l)) return;
    const to = topicToAddress(l.topics[2]);
    const tokenIn = topicToAddress('0x' + l.data.slice(2, 66));
    const tokenOut = topicToAddress('0x' + l.data.slice(66, 130));
    const amountIn = dataWord(l.data, 2);
    const amountOut = dataWord(l.data, 3);
    const paid = transferBefore(transfers, i, claimed, (t) => t.token === tokenOut && t.value === amountOut && t.to === to);
    if (!paid) return;
    const taken = transferBefore(transfers, i, claimed, (t) => t.token === tokenIn && t.value === amountIn);
    if (!taken) return;
    out.push({ venue: l.address.toLowerCase(), dex: 'wombat', tokenIn, amountIn, takenAt: taken.to, tokenOut, amountOut, paidFrom: paid.from });
  });
  return out;
}
