import { isUnexplained, type BalanceDelta, type TransactionActivity } from '../../../core/activity.js';
import { ERC20_TRANSFER_TOPIC } from '../../shared/uniswap-v2-events.js';
import type { EvmChainConfig } from '../registry.js';
import { oneFacePerLedger } from './ledger-faces.js';
import { WETH_DEPOSIT_TOPIC, WETH_WITHDRAWAL_TOPIC, type InternalTransfer } from './movements.js';
import { isTransferLog } from './transfer-log.js';
import type { RpcLog, RpcReceipt } from './rpc-types.js';
import { dataWord } from './words.js';

/**
 * What an EVM transaction did to the wallet's fungible balances (core/activity.ts; decisions.md,
 * "Unexplained activity"), read from what the decoder already has: the receipt's logs, and the
 * transaction's value and a call trace's internal transfers where they were fetched. No call is
 * added for it.
 *
 * The movements are the decoder's (movements.ts), seen from the wallet:
 *  - ERC-20 `Transfer`s with three topics into or out of the wallet (four topics is ERC-721's
 *    tokenId: not fungible), after `oneFacePerLedger` (one ledger logged by two contracts counts once);
 *  - the wrapped native coin counted as the native coin, and wrapping or unwrapping as no change:
 *    WETH9's `Deposit`/`Withdrawal` and Arbitrum's WETH mints and burns move nothing, and neither do
 *    the transaction's value or internal calls to or from the wrapped-native contract (the ETH side
 *    of the same wrap);
 *  - the transaction's value when given (sent by the wallet, or sent to it), and internal transfers
 *    when a call trace was fetched. ETH a router unwrapped for the wallet reaches it by an internal
 *    call: without a trace it is not seen (movements.ts's `UNSEEN` is a guess the route needs, not
 *    the wallet's balance), so a sale for ETH read from logs alone shows only what the wallet gave.
 * The network fee is in no log and no transfer: excluded by construction. EVM charges no rent, so
 * `incidentalNative` is 0.
 *
 * `knownNonTrade` (decisions.md, "Real routes on EVM: not trades"), from the same logs: a receipt
 * token (lending, vault share, LP, liquid staking) the wallet received on net, all of it minted in
 * the transaction (from the zero address or by the token's own contract, as cTokens do; to the
 * wallet or to a zap that passed it on), while the wallet gave something else; one it gave on net,
 * all of it burnt in the transaction (to the zero address or its own contract, as a V2 pair takes
 * its LP token back), while it received something else; a liquidity position (an ERC-721 minted
 * for the wallet, or burnt from it) beside what the wallet gave (received), a zap's leftovers
 * included; a pure wrap or unwrap. These are the movements the flow graph reads as conversions (a
 * token's own contract giving only its token, or taking only its token back): the decoder makes no
 * trade of them either.
 *
 * One pass over the logs; `oneFacePerLedger` is consulted only when two tokens moved for the wallet
 * (a ledger's two faces would show as two).
 */

type ActivityChain = Pick<EvmChainConfig, 'wrappedNative'>;

export interface EvmActivityOptions {
  /** The transaction's own fields where they were fetched: its value moves native coin from the sender to `to`. */
  transaction?: { to: string | null; value: bigint };
  /** Native coin moved by internal calls, where a call trace of the whole transaction was fetched. */
  internal?: readonly InternalTransfer[];
}

/** The wallet's side of the logs, and what marks a conversion, a position or a wrap. */
interface LogScan {
  /** Wrapped native, net (the native coin's part that logs show). */
  native: bigint;
  /** Token -> the wallet's net, in the order first seen. */
  tokens: Map<string, bigint>;
  /** Token -> what the transaction minted of it (to anyone: from the zero address or the token's own contract). */
  minted: Map<string, bigint> | null;
  /** Token -> what it burnt (from anyone: to the zero address or the token's own contract). */
  burnt: Map<string, bigint> | null;
  /** The wallet received a non-fungible token minted in the transaction (a liquidity position), or gave one burnt in it. */
  positionIn: boolean;
  positionOut: boolean;
  /** The wallet wrapped or unwrapped itself (WETH9 Deposit/Withdrawal, or a mint/burn of the wrapped token). */
  wrapped: boolean;
}

const TRANSFER = ERC20_TRANSFER_TOPIC;
const ZERO_TOPIC = '0x' + '0'.repeat(64);

const addressTopic = (a: string) => '0x' + '0'.repeat(24) + a.slice(2);
/** The address in a topic; the topic is lowercase already. */
const topicAddress = (t: string) => '0x' + t.slice(26);
const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);

function scanLogs(logs: readonly RpcLog[], walletTopic: string, wrapped: string | null, programs: Set<string> | null): LogScan {
  const scan: LogScan = { native: 0n, tokens: new Map(), minted: null, burnt: null, positionIn: false, positionOut: false, wrapped: false };
  // ERC-721 ids minted and burnt, and the ones the wallet received and gave (`${contract} ${id}`).
  let nft: { minted: Set<string>; burnt: Set<string>; into: string[]; outOf: string[] } | null = null;
  for (const l of logs) {
    const emitter = l.address.toLowerCase();
    programs?.add(emitter);
    const topics = l.topics;
    const t0 = topics[0]?.toLowerCase();
    if (topics.length === 2 && emitter === wrapped && (t0 === WETH_DEPOSIT_TOPIC || t0 === WETH_WITHDRAWAL_TOPIC)) {
      // A wrap or unwrap moves nothing between assets: the native coin and its wrapped form are one.
      if (topics[1].toLowerCase() === walletTopic) scan.wrapped = true;
      continue;
    }
    if (t0 !== TRANSFER || topics.length < 3) continue;
    const from = topics[1].toLowerCase();
    const to = topics[2].toLowerCase();
    if (topics.length === 4) {
      // ERC-721: not fungible, but a position minted for the wallet (or burnt from it) marks a liquidity add (remove).
      const id = `${emitter} ${topics[3].toLowerCase()}`;
      nft ??= { minted: new Set(), burnt: new Set(), into: [], outOf: [] };
      if (from === ZERO_TOPIC) nft.minted.add(id);
      if (to === ZERO_TOPIC) nft.burnt.add(id);
      if (to === walletTopic && from !== walletTopic) nft.into.push(id);
      if (from === walletTopic && to !== walletTopic) nft.outOf.push(id);
      continue;
    }
    if (topics.length !== 3) continue;
    const v = dataWord(l.data, 0);
    if (emitter === wrapped) {
      // Arbitrum's WETH logs its wraps as mints and burns: no change either.
      if (from === ZERO_TOPIC || to === ZERO_TOPIC) {
        if (from === walletTopic || to === walletTopic) scan.wrapped = true;
      } else if (from === walletTopic) {
        if (to !== walletTopic) scan.native -= v;
      } else if (to === walletTopic) scan.native += v;
      continue;
    }
    // A mint comes from the zero address or the token's own contract (cTokens), a burn goes to either (a V2 pair takes its LP token back).
    if (from === ZERO_TOPIC || topicAddress(from) === emitter) add((scan.minted ??= new Map()), emitter, v);
    if (to === ZERO_TOPIC || topicAddress(to) === emitter) add((scan.burnt ??= new Map()), emitter, v);
    if (from === walletTopic) {
      if (to !== walletTopic) add(scan.tokens, emitter, -v);
    } else if (to === walletTopic) add(scan.tokens, emitter, v);
  }
  if (nft) {
    const { minted, burnt } = nft;
    scan.positionIn = nft.into.some((id) => minted.has(id));
    scan.positionOut = nft.outOf.some((id) => burnt.has(id));
  }
  return scan;
}

const countNonzero = (m: ReadonlyMap<string, bigint>) => {
  let n = 0;
  for (const v of m.values()) if (v !== 0n) n++;
  return n;
};

/**
 * The wallet's balance changes in one receipt, the contracts it touched and whether it is a known
 * non-trade; null for a failed transaction (it changed nothing but the fee). `wallet` is lowercase;
 * tokens are named as `DecodedTrade.token` names them (lowercase addresses), the native coin (and
 * its wrapped form) as null with 18 decimals.
 */
export function evmActivity(receipt: RpcReceipt, wallet: string, chain: ActivityChain, options: EvmActivityOptions = {}): TransactionActivity | null {
  if (receipt.status !== undefined && receipt.status !== '0x1') return null;
  const wrapped = chain.wrappedNative?.toLowerCase() ?? null;
  const walletTopic = addressTopic(wallet);
  const to = receipt.to?.toLowerCase() ?? null;
  const programs = new Set<string>(to ? [to] : []);
  let scan = scanLogs(receipt.logs, walletTopic, wrapped, programs);
  if (countNonzero(scan.tokens) >= 2) {
    const oneFace = oneFacePerLedger(receipt);
    if (oneFace !== receipt) scan = scanLogs(oneFace.logs, walletTopic, wrapped, null);
  }

  let native = scan.native;
  let wrappedByValue = false;
  const tx = options.transaction;
  if (tx && tx.value > 0n) {
    const sender = receipt.from?.toLowerCase();
    const recipient = tx.to?.toLowerCase() ?? null;
    if (recipient !== null && recipient === wrapped) wrappedByValue = sender === wallet;
    else if (sender === wallet && recipient !== wallet) native -= tx.value;
    else if (recipient === wallet && sender !== wallet) native += tx.value;
  }
  for (const t of options.internal ?? []) {
    const from = t.from.toLowerCase();
    const dest = t.to.toLowerCase();
    if (from === dest || from === wrapped || dest === wrapped || t.value === 0n) continue;
    if (from === wallet) native -= t.value;
    else if (dest === wallet) native += t.value;
  }

  const changes: BalanceDelta[] = [];
  if (native !== 0n) changes.push({ tokenMint: null, raw: native, decimals: 18 });
  for (const [token, raw] of scan.tokens) if (raw !== 0n) changes.push({ tokenMint: token, raw, decimals: null });

  return {
    changes,
    incidentalNative: 0n, // EVM has no rent and no tip paid by transfer: the fee is in no movement.
    programs: [...programs],
    knownNonTrade: knownNonTrade(changes, scan, wrappedByValue),
  };
}

/**
 * decisions.md's non-trades the logs tell: a receipt token (lending, vault share, LP, liquid
 * staking) the wallet received on net, all of it minted in the transaction (to the wallet, or to a
 * zap that passed it on), while the wallet gave another asset; one it gave on net, all of it burnt
 * in the transaction, while it received another asset; a liquidity position (ERC-721) minted for
 * the wallet while it gave an asset, or burnt from it while it received one (a zap's leftovers do
 * not make it a swap); a wrap or unwrap that left nothing changed. "All of it" keeps a tax token's
 * fee, sent to its own contract, from passing for a redemption.
 */
function knownNonTrade(changes: readonly BalanceDelta[], scan: LogScan, wrappedByValue: boolean): boolean {
  if (changes.length === 0) return scan.wrapped || wrappedByValue;
  const gaveOther = (token: string | null) => changes.some((c) => c.tokenMint !== token && c.raw < 0n);
  const receivedOther = (token: string | null) => changes.some((c) => c.tokenMint !== token && c.raw > 0n);
  if (scan.positionIn && changes.some((c) => c.raw < 0n)) return true;
  if (scan.positionOut && changes.some((c) => c.raw > 0n)) return true;
  for (const c of changes) {
    if (c.tokenMint === null) continue;
    if (c.raw > 0n && (scan.minted?.get(c.tokenMint) ?? 0n) >= c.raw && gaveOther(c.tokenMint)) return true;
    if (c.raw < 0n && (scan.burnt?.get(c.tokenMint) ?? 0n) >= -c.raw && receivedOther(c.tokenMint)) return true;
  }
  return false;
}

/**
 * The receipt's activity when it is unexplained given its trades' tokens (core/activity.ts), else
 * null. A listed transaction has a token no trade names, so first one look at the logs' topics, no
 * allocation: a Transfer moving such a token (not the wrapped native coin) to or from the wallet.
 * Most receipts of a walk stop there, before evmActivity's pass (about a tenth of a decode).
 */
export function unexplainedActivity(
  receipt: RpcReceipt,
  wallet: string,
  chain: ActivityChain,
  tradeTokens: readonly string[],
  options: EvmActivityOptions = {},
): TransactionActivity | null {
  if (!unnamedTokenMoved(receipt, wallet, chain, tradeTokens)) return null;
  const a = evmActivity(receipt, wallet, chain, options);
  return a && isUnexplained(a, tradeTokens) ? a : null;
}

function unnamedTokenMoved(receipt: RpcReceipt, wallet: string, chain: ActivityChain, tradeTokens: readonly string[]): boolean {
  if (receipt.status !== undefined && receipt.status !== '0x1') return false;
  const w = wallet.slice(2);
  for (const l of receipt.logs) {
    if (!isTransferLog(l)) continue;
    if (!l.topics[1].toLowerCase().endsWith(w) && !l.topics[2].toLowerCase().endsWith(w)) continue;
    const token = l.address.toLowerCase();
    if (token !== chain.wrappedNative && !tradeTokens.includes(token)) return true;
  }
  return false;
}
