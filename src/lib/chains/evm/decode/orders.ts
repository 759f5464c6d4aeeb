import { NATIVE, type Movement } from '../../shared/route-flows.js';
import { topicToAddress } from '../../shared/uniswap-v2-events.js';
import type { RpcLog } from './rpc-types.js';
import type { DecodedTrade } from './decode-receipt.js';
import { wordToAddress, dataWord } from './words.js';

/**
 * Signed orders carried out by someone else's transaction (ROUTES.md R3, R4):
 *
 *  - 0x meta-transactions: a relayer sends the Exchange Proxy's `executeMetaTransaction`, whose
 *    `MetaTransactionExecuted(bytes32 hash, bytes4 indexed selector, address signer, address sender)`
 *    (0x-protocol/protocol, IMetaTransactionsFeature.sol) names the signer: the swap is the
 *    signer's own route, decoded like a transaction it sent;
 *  - 1inch limit orders and Fusion: a taker (a resolver) fills the maker's signed order on 1inch's
 *    router, which emits `OrderFilled(address indexed maker, bytes32 orderHash, uint256 remaining)`
 *    (limit-order-protocol v3, router V5), `OrderFilled(bytes32 orderHash, uint256 remainingAmount)`
 *    (v4, router V6) or `OrderFilledRFQ(bytes32 orderHash, uint256 makingAmount)` (RFQ orders).
 *    The maker's trade is what left and reached its own account, the order's price: token for token
 *    no native figure; against the native coin, the taker's native amount (what reached the maker
 *    or the 1inch contract that forwards it unwrapped), before an integrator's or protocol's fee.
 */

export const META_TRANSACTION_EXECUTED_TOPIC = '0x7f4fe3ff8ae440e1570c558da08440b26f89fb1c1f2910cd91ca6452955f121a';
export const ONEINCH_ORDER_FILLED_MAKER_TOPIC = '0xb9ed0243fdf00f0545c63a0af8850c090d86bb46682baec4bf3c496814fe4f02';
export const ONEINCH_ORDER_FILLED_TOPIC = '0xfec331350fce78ba658e082a71da20ac9f8d798a99b3c79681c8440cbfe77e07';
export const ONEINCH_ORDER_FILLED_RFQ_TOPIC = '0xc3b639f02b125bfa160e50739b8c44eb2d1b6908e2b6d5925c6d770f2ca78127';

const ONEINCH_FILLS = new Set([ONEINCH_ORDER_FILLED_MAKER_TOPIC, ONEINCH_ORDER_FILLED_TOPIC, ONEINCH_ORDER_FILLED_RFQ_TOPIC]);

/** Whether a log may make the wallet an order's owner or signer (trades-of.ts asks before its lookups). */
export function isOrderLog(l: RpcLog): boolean {
  const t0 = l.topics[0]?.toLowerCase();
  return t0 === META_TRANSACTION_EXECUTED_TOPIC || (t0 !== undefined && ONEINCH_FILLS.has(t0));
}

/** Whether a 0x contract (`zeroEx`) executed a meta-transaction the wallet signed in these logs. */
export function signedMetaTransaction(logs: readonly RpcLog[], wallet: string, zeroEx: ReadonlySet<string>): boolean {
  return logs.some(
    (l) =>
      l.topics[0]?.toLowerCase() === META_TRANSACTION_EXECUTED_TOPIC &&
      l.topics.length === 2 &&
      zeroEx.has(l.address.toLowerCase()) &&
      wordToAddress(dataWord(l.data, 1)) === wallet,
  );
}

/**
 * The wallet's trades as the maker of 1inch orders filled in these logs by 1inch's contracts
 * (`oneInch`): a fill that names its maker must name the wallet; one that names none (router V6)
 * counts when the wallet's own tokens moved, which only the order's owner allows in a
 * transaction it did not send.
 */
export function oneInchOrderTrades(logs: readonly RpcLog[], movements: readonly Movement[], wallet: string, oneInch: ReadonlySet<string>): DecodedTrade[] {
  let contract: string | null = null;
  for (const l of logs) {
    const t0 = l.topics[0]?.toLowerCase();
    const emitter = l.address.toLowerCase();
    if (!t0 || !ONEINCH_FILLS.has(t0) || !oneInch.has(emitter)) continue;
    if (t0 === ONEINCH_ORDER_FILLED_MAKER_TOPIC && (l.topics.length !== 2 || topicToAddress(l.topics[1]) !== wallet)) continue;
    contract = emitter;
    break;
  }
  if (!contract) return [];
  const net = new Map<string, bigint>();
  let intoContract = 0n;
  for (const m of movements) {
    if (m.from === m.to) continue;
    if (m.from === wallet) net.set(m.asset, (net.get(m.asset) ?? 0n) - m.amount);
    if (m.to === wallet) net.set(m.asset, (net.get(m.asset) ?? 0n) + m.amount);
    if (m.asset === NATIVE && m.to === contract) intoContract += m.amount;
  }
  const native = net.get(NATIVE) ?? 0n;
  const tokens = [...net].filter(([a, v]) => a !== NATIVE && v !== 0n);
  const sold = tokens.filter(([, v]) => v < 0n);
  const bought = tokens.filter(([, v]) => v > 0n);
  // Something of the wallet's left it: a fee's or a payment's receiver is not the order's owner.
  if ((sold.length === 0 && native >= 0n) || (sold.length === 0 && bought.length === 0)) return [];
  const tokenToToken = sold.length > 0 && bought.length > 0;
  const received = native > intoContract ? native : intoContract;
  const base = { pool: contract, poolKind: 'other' as const, dex: '1inch' };
  return [
    ...sold.map(([token, v]): DecodedTrade => ({ side: 'sell', token, amountRaw: -v, nativeRaw: !tokenToToken && received > 0n ? received : null, ...base })),
    ...bought.map(([token, v]): DecodedTrade => ({ side: 'buy', token, amountRaw: v, nativeRaw: !tokenToToken && native < 0n ? -native : null, ...base })),
  ];
}
