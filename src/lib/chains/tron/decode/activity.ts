import type { BalanceDelta, TransactionActivity } from '../../../core/activity.js';
import { ERC20_TRANSFER_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import { hexToTron, toInternalHex } from '../address.js';
import { WTRX, type TronTransactionInfo } from './decode-transaction.js';
import { SUNPUMP_TOKEN_PURCHASED_TOPIC, SUNPUMP_TOKEN_SOLD_TOPIC } from './events.js';

/**
 * What one Tron transaction did to the wallet's balances, for "unexplained activity"
 * (decisions.md; core/activity.ts holds the rule that judges it). Read from what the decoder
 * already has, in one pass over the logs and one over the internal transactions, no call added:
 *  - tokens: the TRC-20 `Transfer` logs (3 topics: ERC-721's 4-topic Transfer of a SunSwap V3
 *    position is not fungible) into and out of the wallet, per token, in the internal form the
 *    decoder's trades carry as `token` (`0x` + 40 lowercase hex), so
 *    `isUnexplained(activity, trades.map((t) => t.token))` compares like with like (with-tokens.ts
 *    turns both into base58 for display: `hexToTron`);
 *  - TRX (tokenMint null, 6 decimals): the record's own TRX (a call's `call_value`, a
 *    TransferContract's `amount`) when the wallet sent or received it, every internal transaction
 *    (not rejected) whose `callValueInfo` moved TRX to or from the wallet (a refund of an
 *    exact-output swap, what a router paid out), and WTRX, which counts as TRX: its Transfer logs,
 *    plus its `Deposit(dst)` and `Withdrawal(src)` events for the wallet, so wrapping or
 *    unwrapping nets to no change (the TRX sent in against the Deposit, the Withdrawal against the
 *    TRX paid back). TRC-10 tokens (`callValueInfo[].tokenId`, TransferAssetContract) are left
 *    out: no trade ever names one, and they have no contract address to name them by;
 *  - SunPump's `TokenPurchased`/`TokenSold` amount for the wallet stands in for a token no
 *    Transfer log moves to or from the wallet, as in the decoder (its captures hold the event
 *    without the Transfer);
 *  - the fee (energy, bandwidth: `ret[0].fee`, the info's `fee`) is never read, so it is out.
 *
 * `incidentalNative` is always 0n. Tron has no rent, and its one account-creation charge is a
 * fee: sending TRX to an address that has no account yet costs the sender 1 TRX more, burnt as
 * part of the transaction's fee, never moved (the real TransferContract 3f8b651b of
 * ledger-live's capture: `amount` 150,466,320 sun, `ret[0].fee` 1,100,000 = `net_fee` 100,000 +
 * the 1,000,000 creation fee); a contract creating an account by an internal transfer pays it in
 * energy, again the fee. Neither is a movement this reads, so nothing is there to set apart.
 *
 * `programs`: the contract called, then each contract that emitted a log, in order, once each, in
 * base58 `T…`: the form TronScan and every Tron explorer and wallet show and the form the service
 * echoes Tron addresses in (decisions.md), so the unexplained list reads as the user will look it
 * up. `hexToTron` is memoised, so a walk pays the two sha256 once per contract, not per transaction.
 *
 * `knownNonTrade`: SunSwap V1/V2 liquidity. An LP token minted to the wallet (Transfer from the
 * zero address) or burnt from it (V1: Transfer wallet -> zero; V2: the wallet sends the LP to the
 * pair, which is the LP token, and the pair burns it: Transfer pair -> zero), alongside the other
 * side: the LP token's own contract sent or received another asset in the transaction (a token's
 * Transfer, or TRX by call value or internal transaction), as the exchange or pair does with the
 * liquidity's two assets. The other side is what keeps a tax token that burns part of every
 * transfer from the wallet (4493595f: 58,800 TSTB to the zero address during a swap) from
 * passing for liquidity. Not covered: Compound-style receipt tokens minted or taken back by the
 * token contract itself (JustLend's jTokens): a token contract paying the wallet from its own
 * balance is also what a token sale looks like.
 */

/** WETH9's `Deposit(address indexed dst, uint wad)`, which WTRX emits when it wraps TRX. */
export const WTRX_DEPOSIT_TOPIC = '0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c';
/** WETH9's `Withdrawal(address indexed src, uint wad)` (the router's unwrap in e41f064b). */
export const WTRX_WITHDRAWAL_TOPIC = '0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65';

const ZERO = '0x0000000000000000000000000000000000000000';

/**
 * The account-transactions record as the activity reads it: `TronAccountTransaction`, plus the
 * TransferContract's `to_address` and `amount`, which the source's type leaves out.
 */
export interface TronActivityRecord {
  ret?: { contractRet?: string }[];
  raw_data?: {
    contract?: {
      type?: string;
      parameter?: {
        value?: { owner_address?: string; contract_address?: string; to_address?: string; call_value?: number | string; amount?: number | string };
      };
    }[];
  };
}

const word0 = (hex: string | undefined): bigint => {
  const w = (hex ?? '').slice(0, 64);
  return w.length === 64 ? BigInt('0x' + w) : 0n;
};
const word2 = (hex: string | undefined): bigint => {
  const w = (hex ?? '').slice(128, 192);
  return w.length === 64 ? BigInt('0x' + w) : 0n;
};
const sun = (v: number | string | undefined): bigint => {
  if (v === undefined) return 0n;
  const s = String(v);
  return /^[0-9]+$/.test(s) ? BigInt(s) : 0n;
};
const topic0 = (t: string | undefined) => '0x' + (t ?? '').toLowerCase().replace(/^0x/, '');

/**
 * The wallet's balance changes in one transaction: its account-transactions record
 * (`TronAccountTransaction` is one; `DecodedCall.record`) and its `gettransactioninfobyid` answer
 * (`{}` for a record the source fetched none for, as a TransferContract), `wallet` in the
 * decoder's internal form (`0x` + 40 lowercase hex). Null when the transaction failed: the
 * decoder's test on the info (`result` FAILED, or a receipt result other than SUCCESS), and the
 * source's on the record (`ret[0].contractRet` other than SUCCESS).
 */
export function tronActivity(record: TronActivityRecord, info: TronTransactionInfo, wallet: string): TransactionActivity | null {
  const ret = record.ret?.[0]?.contractRet;
  if (ret !== undefined && ret !== 'SUCCESS') return null;
  if (info.result === 'FAILED' || (info.receipt?.result !== undefined && info.receipt.result !== 'SUCCESS')) return null;

  let native = 0n;
  const tokens = new Map<string, bigint>();
  const programs: string[] = [];
  const seenProgram = new Set<string>();
  const program = (a: string) => {
    if (seenProgram.has(a)) return;
    seenProgram.add(a);
    programs.push(hexToTron(a));
  };
  const lpCandidates: string[] = [];
  const sentToSelf = new Set<string>();
  const selfBurnt = new Set<string>();

  // The record's own TRX: a contract call's value, or a plain TRX transfer.
  const c = record.raw_data?.contract?.[0];
  const v = c?.parameter?.value;
  const trxMoves: { from: string; to: string; value: bigint }[] = [];
  if (v?.owner_address && (c?.type === 'TriggerSmartContract' || c?.type === 'TransferContract')) {
    const call = c.type === 'TriggerSmartContract';
    const target = call ? v.contract_address : v.to_address;
    let from: string | null = null;
    let to: string | null = null;
    try {
      from = toInternalHex(v.owner_address);
      to = target ? toInternalHex(target) : null;
    } catch {
      // an address TronGrid would never list: the record moved nothing this can name (as the source's ownCall)
    }
    if (from && to) {
      if (call) program(to);
      const value = sun(call ? v.call_value : v.amount);
      if (value > 0n) trxMoves.push({ from, to, value });
    }
  }
  for (const it of info.internal_transactions ?? []) {
    if (it.rejected || !it.caller_address || !it.transferTo_address || !it.callValueInfo) continue;
    let value = 0n;
    for (const cv of it.callValueInfo) if (!cv.tokenId) value += sun(cv.callValue);
    if (value > 0n) trxMoves.push({ from: toInternalHex(it.caller_address), to: toInternalHex(it.transferTo_address), value });
  }
  for (const m of trxMoves) {
    if (m.from === m.to) continue;
    if (m.from === wallet) native -= m.value;
    else if (m.to === wallet) native += m.value;
  }

  const transfers: { token: string; from: string; to: string }[] = [];
  const claims = new Map<string, bigint>();
  for (const l of info.log ?? []) {
    const address = toInternalHex(l.address);
    program(address);
    const t0 = topic0(l.topics[0]);
    if (t0 === ERC20_TRANSFER_TOPIC && l.topics.length === 3) {
      const from = topicToAddress(l.topics[1]);
      const to = topicToAddress(l.topics[2]);
      transfers.push({ token: address, from, to });
      if (from === to) continue;
      if (from === wallet || to === wallet) {
        const value = word0(l.data);
        if (address === WTRX) native += to === wallet ? value : -value;
        else {
          tokens.set(address, (tokens.get(address) ?? 0n) + (to === wallet ? value : -value));
          if (from === ZERO || to === ZERO) lpCandidates.push(address);
          else if (to === address) sentToSelf.add(address);
        }
      } else if (from === address && to === ZERO) selfBurnt.add(address);
    } else if (address === WTRX && l.topics.length === 2 && (t0 === WTRX_DEPOSIT_TOPIC || t0 === WTRX_WITHDRAWAL_TOPIC)) {
      if (topicToAddress(l.topics[1]) === wallet) native += t0 === WTRX_DEPOSIT_TOPIC ? word0(l.data) : -word0(l.data);
    } else if ((t0 === SUNPUMP_TOKEN_PURCHASED_TOPIC || t0 === SUNPUMP_TOKEN_SOLD_TOPIC) && l.topics.length === 3 && topicToAddress(l.topics[2]) === wallet) {
      const token = topicToAddress(l.topics[1]);
      const amount = word2(l.data);
      claims.set(token, (claims.get(token) ?? 0n) + (t0 === SUNPUMP_TOKEN_PURCHASED_TOPIC ? amount : -amount));
    }
  }
  // SunPump's figure only for a token no Transfer log moved to or from the wallet.
  for (const [token, net] of claims) if (!tokens.has(token)) tokens.set(token, net);

  // Liquidity: an LP token minted to or burnt from the wallet whose contract also moved another asset.
  for (const t of sentToSelf) if (selfBurnt.has(t)) lpCandidates.push(t);
  let knownNonTrade = false;
  if (lpCandidates.length) {
    // Rare (liquidity, tax burns): only then is every movement looked at again.
    const movedOther = (lp: string) =>
      transfers.some((f) => f.token !== lp && (f.from === lp || f.to === lp)) || trxMoves.some((m) => m.from === lp || m.to === lp);
    knownNonTrade = lpCandidates.some(movedOther);
  }

  const changes: BalanceDelta[] = native !== 0n ? [{ tokenMint: null, raw: native, decimals: 6 }] : [];
  for (const [tokenMint, raw] of tokens) if (raw !== 0n) changes.push({ tokenMint, raw, decimals: null });
  return { changes, incidentalNative: 0n, programs, knownNonTrade };
}
