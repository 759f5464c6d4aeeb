import { ERC20_TRANSFER_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import { NATIVE, type Movement } from '../../shared/route-flows.js';
import type { RpcLog } from './rpc-types.js';
import { dataWord } from './words.js';

/**
 * The fungible movements of a transaction as the flow graph reads them (route-flows.ts): ERC-20
 * `Transfer`s with three topics (four is ERC-721's tokenId: not fungible), the wrapped native coin
 * written as the native coin, the transaction's own value, and native coin moved by internal calls
 * where a call trace was fetched.
 *
 * The native coin and its wrapped form are one asset, so wrapping and unwrapping move nothing: a
 * WETH `Deposit`/`Withdrawal` (WETH9 emits no Transfer for them) and Arbitrum's WETH, which emits a
 * `Transfer` from or to the zero address instead, are left out, and so are internal calls to or from
 * the wrapped-native contract (the ETH side of the same wrap).
 */

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** A native transfer made by an internal call, as a call trace gives it (wei). */
export interface InternalTransfer {
  from: string;
  to: string;
  value: bigint;
}

export interface MovementSources {
  /** The wrapped native token (lowercase), or null when the chain has none configured. */
  wrapped: string | null;
  /** The transaction's own value transfer, sender to `to`. */
  value?: { from: string; to: string; value: bigint };
  internal?: readonly InternalTransfer[];
}

export function movementsOf(logs: readonly RpcLog[], { wrapped, value, internal }: MovementSources): Movement[] {
  const out: Movement[] = [];
  if (value && value.value > 0n) out.push({ asset: NATIVE, from: value.from.toLowerCase(), to: value.to.toLowerCase(), amount: value.value });
  for (const l of logs) {
    if (l.topics.length !== 3 || l.topics[0].toLowerCase() !== ERC20_TRANSFER_TOPIC) continue;
    const token = l.address.toLowerCase();
    const from = topicToAddress(l.topics[1]);
    const to = topicToAddress(l.topics[2]);
    if (token === wrapped) {
      if (from === ZERO_ADDRESS || to === ZERO_ADDRESS) continue;
      out.push({ asset: NATIVE, from, to, amount: dataWord(l.data, 0) });
    } else {
      // A mint comes from the token's contract, a burn goes to it: the contract is the counterparty
      // (a deposit's shares, a wrap, an LP token), as it is for tokens that mint from their own address.
      out.push({ asset: token, from: from === ZERO_ADDRESS ? token : from, to: to === ZERO_ADDRESS ? token : to, amount: dataWord(l.data, 0) });
    }
  }
  for (const t of internal ?? []) {
    const from = t.from.toLowerCase();
    const to = t.to.toLowerCase();
    if (from === wrapped || to === wrapped || t.value === 0n) continue;
    out.push({ asset: NATIVE, from, to, amount: t.value });
  }
  return out;
}
