import { ERC20_TRANSFER_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import type { RpcLog } from './rpc-types.js';
import { dataWord } from './words.js';

/**
 * Sky's (formerly Maker's) peg stability modules swap DAI (or USDS) for a stablecoin ("gem", USDC
 * or USDP) at a fixed rate, and state each swap as `BuyGem(address indexed owner, uint256 value,
 * uint256 fee)` or `SellGem(...)` (dss-psm and dss-lite-psm declare the same events), `value` in the
 * gem's units. The lite PSM keeps its gems in another account, its pocket: a purchase pays the gem
 * from the pocket and takes DAI into the module, a sale takes the gem into the pocket and pays DAI
 * from the module. No account both takes one token and gives the other, so without the event a
 * flow graph sees a deposit and an unrelated payment. Read from the event: the gem is the token of
 * a transfer of exactly `value` to the owner (a purchase) or into any account (a sale) before it,
 * its other end the pocket; the DAI side, the transfer of another token into the module (a
 * purchase) or out of it to the owner (a sale). A swap whose two transfers are not found is left
 * to the flows (the older PSM routes its gems through a join adapter and mints its DAI).
 */

export const PSM_BUY_GEM_TOPIC = '0x085d06ecf4c34b237767a31c0888e121d89546a77f186f1987c6b8715e1a8caa';
export const PSM_SELL_GEM_TOPIC = '0xef75f5a47cc9a929968796ceb84f19e7541617b4577f2c228ea95200e1572081';

export interface PsmSwap {
  psm: string;
  /** The owner bought the gem (paid DAI) or sold it. */
  gemBought: boolean;
  gem: string;
  gemAmount: bigint;
  /** The account the gem moved from (a purchase) or to (a sale) for the module. */
  pocket: string;
  dai: string;
  daiAmount: bigint;
}

interface Move {
  i: number;
  token: string;
  from: string;
  to: string;
  value: bigint;
}

export function psmSwaps(logs: readonly RpcLog[]): PsmSwap[] {
  if (!logs.some((l) => l.topics.length === 2 && (l.topics[0].toLowerCase() === PSM_BUY_GEM_TOPIC || l.topics[0].toLowerCase() === PSM_SELL_GEM_TOPIC)))
    return [];
  const moves: Move[] = [];
  logs.forEach((l, i) => {
    if (l.topics.length === 3 && l.topics[0].toLowerCase() === ERC20_TRANSFER_TOPIC)
      moves.push({ i, token: l.address.toLowerCase(), from: topicToAddress(l.topics[1]), to: topicToAddress(l.topics[2]), value: dataWord(l.data, 0) });
  });
  const used = new Set<number>();
  const out: PsmSwap[] = [];
  logs.forEach((l, i) => {
    const t0 = l.topics.length === 2 ? l.topics[0].toLowerCase() : '';
    if (t0 !== PSM_BUY_GEM_TOPIC && t0 !== PSM_SELL_GEM_TOPIC) return;
    const psm = l.address.toLowerCase();
    const owner = topicToAddress(l.topics[1]);
    const value = dataWord(l.data, 0);
    const gemBought = t0 === PSM_BUY_GEM_TOPIC;
    const before = moves.filter((m) => m.i < i && !used.has(m.i)).reverse();
    const gem = before.find((m) => m.value === value && m.from !== psm && m.to !== psm && (gemBought ? m.to === owner : true));
    if (!gem) return;
    const dai = before.find((m) => m !== gem && m.token !== gem.token && (gemBought ? m.to === psm : m.from === psm && m.to === owner));
    if (!dai) return;
    used.add(gem.i);
    used.add(dai.i);
    out.push({ psm, gemBought, gem: gem.token, gemAmount: value, pocket: gemBought ? gem.from : gem.to, dai: dai.token, daiAmount: dai.value });
  });
  return out;
}
