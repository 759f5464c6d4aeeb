import { ERC20_TRANSFER_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import { psmSwaps } from './psm.js';
import type { RpcLog } from './rpc-types.js';
import { wombatSwaps } from './wombat.js';
import { dataWord } from './words.js';

/**
 * Venues whose event states a swap while other accounts of theirs move the tokens: Sky's peg
 * stability modules (a pocket pays and keeps the gem, psm.ts) and Wombat's pools (one asset
 * contract per token holds it, wombat.ts). No single account both took one token and gave the
 * other, so the flow graph alone would see a deposit and an unrelated payment. The event joins
 * them: the account that took the input passes it to the venue and the venue passes the output
 * to the account that paid it (movements.ts), and the event's figures are the venue's hop
 * (venues.ts).
 */
export interface SplitSwap {
  venue: string;
  /** The venue's slug, when it has one. */
  dex?: string;
  tokenIn: string;
  amountIn: bigint;
  /** The account the input was paid to (the venue, its pocket, its asset contract). */
  takenAt: string;
  tokenOut: string;
  amountOut: bigint;
  /** The account the output was paid from. */
  paidFrom: string;
}

/** A fungible Transfer of the logs, with its place. */
export interface LoggedTransfer {
  i: number;
  token: string;
  from: string;
  to: string;
  value: bigint;
}

/** The logs' 3-topic Transfers, in order. */
export function loggedTransfers(logs: readonly RpcLog[]): LoggedTransfer[] {
  const out: LoggedTransfer[] = [];
  logs.forEach((l, i) => {
    if (l.topics.length === 3 && l.topics[0].toLowerCase() === ERC20_TRANSFER_TOPIC)
      out.push({ i, token: l.address.toLowerCase(), from: topicToAddress(l.topics[1]), to: topicToAddress(l.topics[2]), value: dataWord(l.data, 0) });
  });
  return out;
}

/**
 * The nearest transfer before log `at` that `fits` and no earlier swap claimed: the venue moves its
 * tokens in the call that emits its event, so the transfers of a swap come just before it.
 */
export function transferBefore(
  transfers: readonly LoggedTransfer[],
  at: number,
  claimed: Set<number>,
  fits: (t: LoggedTransfer) => boolean,
): LoggedTransfer | undefined {
  for (let k = transfers.length - 1; k >= 0; k--) {
    const t = transfers[k];
    if (t.i < at && !claimed.has(t.i) && fits(t)) {
      claimed.add(t.i);
      return t;
    }
  }
  return undefined;
}

export function splitSwaps(logs: readonly RpcLog[]): SplitSwap[] {
  const psm = psmSwaps(logs);
  const wombat = wombatSwaps(logs);
  return psm.length || wombat.length ? [...psm, ...wombat] : [];
}
