import { topicToAddress } from '../../shared/uniswap-v2-events.js';
import type { RpcLog } from './rpc-types.js';
import { loggedTransfers, transferBefore, type SplitSwap } from './split-venues.js';
import { dataWord } from './words.js';

/**
 * Sky's (formerly Maker's) peg stability modules swap DAI (or USDS) for a stablecoin ("gem", USDC
 * or USDP) at a fixed rate, and state each swap as `BuyGem(address indexed owner, uint256 value,
 * uint256 fee)` or `SellGem(...)` (dss-psm and dss-lite-psm declare the same events), `value` in the
 * gem's units. The lite PSM keeps its gems in another account, its pocket: a purchase pays the gem
 * from the pocket and takes DAI into the module, a sale takes the gem into the pocket and pays DAI
 * from the module. Read from the event: the gem is the token of a transfer of exactly `value` to
 * the owner (a purchase) or into any account but the module (a sale) before it, its other end the
 * pocket; the DAI side, the transfer of another token into the module (a purchase) or out of it to
 * the owner (a sale). A swap whose two transfers are not found is left to the flows (the older
 * PSM routes its gems through a join adapter and mints its DAI). No slug: decisions.md names none.
 */

export const PSM_BUY_GEM_TOPIC = '0x085d06ecf4c34b237767a31c0888e121d89546a77f186f1987c6b8715e1a8caa';
export const PSM_SELL_GEM_TOPIC = '0xef75f5a47cc9a929968796ceb84f19e7541617b4577f2c228ea95200e1572081';

export function psmSwaps(logs: readonly RpcLog[]): SplitSwap[] {
  const isPsm = (l: RpcLog) => l.topics.length === 2 && (l.topics[0].toLowerCase() === PSM_BUY_GEM_TOPIC || l.topics[0].toLowerCase() === PSM_SELL_GEM_TOPIC);
  if (!logs.some(isPsm)) return [];
  const transfers = loggedTransfers(logs);
  const claimed = new Set<number>();
  const out: SplitSwap[] = [];
  logs.forEach((l, i) => {
    if (!isPsm(l)) return;
    const psm = l.address.toLowerCase();
    const owner = topicToAddress(l.topics[1]);
    const value = dataWord(l.data, 0);
    const bought = l.topics[0].toLowerCase() === PSM_BUY_GEM_TOPIC;
    const gem = transferBefore(transfers, i, claimed, (t) => t.value === value && t.from !== psm && t.to !== psm && (!bought || t.to === owner));
    if (!gem) return;
    const dai = transferBefore(transfers, i, claimed, (t) => t.token !== gem.token && (bought ? t.to === psm : t.from === psm && t.to === owner));
    if (!dai) return;
    out.push(
      bought
        ? { venue: psm, tokenIn: dai.token, amountIn: dai.value, takenAt: psm, tokenOut: gem.token, amountOut: value, paidFrom: gem.from }
        : { venue: psm, tokenIn: gem.token, amountIn: value, takenAt: gem.to, tokenOut: dai.token, amountOut: dai.value, paidFrom: psm },
    );
  });
  return out;
}
