import { ERC20_TRANSFER_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import { NATIVE, type Movement } from '../../shared/route-flows.js';
import { curveDeposits } from './curve.js';
import { splitSwaps } from './split-venues.js';
import type { RpcLog } from './rpc-types.js';
import { ZERO_ADDRESS } from './transfer-log.js';
import { dataWord } from './words.js';

/**
 * The fungible movements of a transaction as the flow graph reads them (route-flows.ts): ERC-20
 * `Transfer`s with three topics (four is ERC-721's tokenId: not fungible), the wrapped native coin
 * written as the native coin, the transaction's own value, and native coin moved by internal calls
 * where a call trace was fetched, a Curve deposit's coins passed from the pool to its separate LP
 * token (curve.ts), and the tokens a venue's other accounts took or paid for it (split-venues.ts).
 *
 * The native coin and its wrapped form are one asset, so wrapping and unwrapping move nothing: a
 * WETH `Deposit`/`Withdrawal` (WETH9 emits no Transfer for them) and Arbitrum's WETH, which emits a
 * `Transfer` from or to the zero address instead, are left out, and so are internal calls to or from
 * the wrapped-native contract (the ETH side of the same wrap). Without a call trace, though, ETH
 * unwrapped by a contract leaves it where no log shows (to the wallet, in practice: R8): what a
 * contract other than the wallet unwrapped (`Withdrawal`s less `Deposit`s) moves from it to `UNSEEN`.
 */

/** Where native coin goes when no movement shows where (an unwrap's ETH sent on by an internal call). */
export const UNSEEN = 'unseen';

/** WETH9 `Withdrawal(address indexed src, uint256 wad)` and `Deposit(address indexed dst, uint256 wad)`. */
export const WETH_WITHDRAWAL_TOPIC = '0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65';
export const WETH_DEPOSIT_TOPIC = '0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c';

/** A native transfer made by an internal call, as a call trace gives it (wei). */
export interface InternalTransfer {
  from: string;
  to: string;
  value: bigint;
}

export interface MovementSources {
  /** The trader: ETH it unwrapped stays with it. */
  wallet?: string;
  /** The wrapped native token (lowercase), or null when the chain has none configured. */
  wrapped: string | null;
  /** The transaction's own value transfer, sender to `to`. */
  value?: { from: string; to: string; value: bigint };
  internal?: readonly InternalTransfer[];
}

export function movementsOf(logs: readonly RpcLog[], { wallet, wrapped, value, internal }: MovementSources): Movement[] {
  const out: Movement[] = [];
  if (value && value.value > 0n) out.push({ asset: NATIVE, from: value.from.toLowerCase(), to: value.to.toLowerCase(), amount: value.value });
  // ETH each contract unwrapped and did not wrap again (a router may unwrap and re-wrap on its way).
  const unwrapped = new Map<string, bigint>();
  for (const l of logs) {
    const t0 = l.topics[0]?.toLowerCase();
    if (!internal && l.topics.length === 2 && (t0 === WETH_WITHDRAWAL_TOPIC || t0 === WETH_DEPOSIT_TOPIC) && l.address.toLowerCase() === wrapped) {
      const who = topicToAddress(l.topics[1]);
      const v = dataWord(l.data, 0);
      if (who !== wallet) unwrapped.set(who, (unwrapped.get(who) ?? 0n) + (t0 === WETH_WITHDRAWAL_TOPIC ? v : -v));
      continue;
    }
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
  for (const [from, amount] of unwrapped) if (amount > 0n) out.push({ asset: NATIVE, from, to: UNSEEN, amount });
  // A Curve pool passes what it took for a deposit on to its LP token's mint (curve.ts): the LP
  // token's contract is then the conversion it is, and the pool a pass-through.
  // A venue's account that took its input or paid its output did so for the venue (split-venues.ts).
  for (const x of splitSwaps(logs)) {
    const as = (t: string) => (t === wrapped ? NATIVE : t);
    if (x.takenAt !== x.venue) out.push({ asset: as(x.tokenIn), from: x.takenAt, to: x.venue, amount: x.amountIn });
    if (x.paidFrom !== x.venue) out.push({ asset: as(x.tokenOut), from: x.venue, to: x.paidFrom, amount: x.amountOut });
  }
  for (const d of curveDeposits(logs))
    for (const c of d.coins) out.push({ asset: c.token === wrapped ? NATIVE : c.token, from: d.pool, to: d.lpToken, amount: c.amount });
  for (const t of internal ?? []) {
    const from = t.from.toLowerCase();
    const to = t.to.toLowerCase();
    if (from === wrapped || to === wrapped || t.value === 0n) continue;
    out.push({ asset: NATIVE, from, to, amount: t.value });
  }
  return out;
}

/**
 * Accounts that wrapped or unwrapped the native coin in these logs: WETH9's `Deposit`/`Withdrawal`
 * (their `dst`/`src`), or the wrapped token minted to or burnt from them (Arbitrum's WETH).
 */
export function wrappersOf(logs: readonly RpcLog[], wrapped: string | null): Set<string> {
  const out = new Set<string>();
  if (!wrapped) return out;
  for (const l of logs) {
    if (l.address.toLowerCase() !== wrapped) continue;
    const t0 = l.topics[0]?.toLowerCase();
    if (l.topics.length === 2 && (t0 === WETH_WITHDRAWAL_TOPIC || t0 === WETH_DEPOSIT_TOPIC)) out.add(topicToAddress(l.topics[1]));
    else if (l.topics.length === 3 && t0 === ERC20_TRANSFER_TOPIC) {
      const from = topicToAddress(l.topics[1]);
      const to = topicToAddress(l.topics[2]);
      if (from === ZERO_ADDRESS && to !== ZERO_ADDRESS) out.add(to);
      else if (to === ZERO_ADDRESS && from !== ZERO_ADDRESS) out.add(from);
    }
  }
  return out;
}
