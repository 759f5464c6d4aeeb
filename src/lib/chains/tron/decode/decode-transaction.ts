import { routeTrades, type NativeMove, type RouteTrade, type TokenFlow } from '../../shared/route-trades.js';
import { ERC20_TRANSFER_TOPIC, UNISWAP_V2_SWAP_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import { UNISWAP_V3_SWAP_TOPIC } from '../../shared/uniswap-v3-events.js';
import { toInternalHex } from '../address.js';
import {
  SUNPUMP_TOKEN_PURCHASED_TOPIC,
  SUNPUMP_TOKEN_SOLD_TOPIC,
  SUNSWAP_V1_TOKEN_PURCHASE_TOPIC,
  SUNSWAP_V1_TRX_PURCHASE_TOPIC,
  SUNSWAP_V4_SWAP_TOPIC,
} from './events.js';

/**
 * One Tron transaction (the wallet's own contract call and its transaction info) to the wallet's
 * trades, by the rules of decisions.md ("Tron", and "Trades" for every chain):
 *  - only a successful TriggerSmartContract whose `owner_address` is the wallet (the caller checks
 *    the record; a FAILED info or a receipt other than SUCCESS here gives nothing);
 *  - venues are the contracts that emitted a swap event: SunSwap V1 exchanges, SunSwap V2 pairs
 *    (Uniswap V2 `Swap`), V3 pools (Uniswap V3 `Swap`), the V4 PoolManager and SunPump's
 *    launchpad; a router, a wallet's swap contract or an unknown pool (Curve-style) is not one;
 *  - TRX is visible here as it is not on EVM: the call's `call_value` and the internal
 *    transactions' `callValue` are every TRX movement, so V2/V3/V4 venues' native figure is the
 *    TRX and WTRX they took in or paid out, and V1 exchanges and SunPump state theirs in their
 *    events (SunPump's `trxAmount` leaves its fee out: decisions.md);
 *  - token amounts are the wallet's net TRC-20 flow (what left or reached it, transfer taxes
 *    included); SunPump's event amount stands in only when no Transfer of that token names the
 *    wallet.
 * Addresses are handled in the internal form `0x` + 40 lowercase hex (address.ts).
 */

export type TronVenue = 'sunswap-v1' | 'sunswap-v2' | 'sunswap-v3' | 'sunswap-v4' | 'sunpump';

/** WTRX (TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR), the wrapped TRX SunSwap V2 and V3 pools hold. */
export const WTRX = '0x891cdb91d149f23b1a45d9c5ca78a88d0cb44c18';

const VENUE_OF_TOPIC: Record<string, TronVenue> = {
  [UNISWAP_V2_SWAP_TOPIC]: 'sunswap-v2',
  [UNISWAP_V3_SWAP_TOPIC]: 'sunswap-v3',
  [SUNSWAP_V4_SWAP_TOPIC]: 'sunswap-v4',
  [SUNSWAP_V1_TOKEN_PURCHASE_TOPIC]: 'sunswap-v1',
  [SUNSWAP_V1_TRX_PURCHASE_TOPIC]: 'sunswap-v1',
  [SUNPUMP_TOKEN_PURCHASED_TOPIC]: 'sunpump',
  [SUNPUMP_TOKEN_SOLD_TOPIC]: 'sunpump',
};

/** Venues whose TRX figure is in their own events: their TRX and WTRX transfers are not counted again. */
const EVENT_ACCOUNTED: ReadonlySet<TronVenue> = new Set(['sunswap-v1', 'sunpump']);

/** A `log[]` entry of `gettransactioninfobyid`: 20-byte hex address, topics and data without `0x`. */
export interface TronLog {
  address: string;
  topics: string[];
  /** Absent when the event has no unindexed argument (V1's TokenPurchase). */
  data?: string;
}

export interface TronInternalTransaction {
  caller_address?: string;
  transferTo_address?: string;
  callValueInfo?: { callValue?: number | string; tokenId?: string }[];
  rejected?: boolean;
}

/** The parts of a `gettransactioninfobyid` answer the decoder reads. */
export interface TronTransactionInfo {
  id?: string;
  blockNumber?: number;
  blockTimeStamp?: number;
  result?: string;
  receipt?: { result?: string };
  log?: TronLog[];
  internal_transactions?: TronInternalTransaction[];
}

/** The wallet's contract call, from its account-transactions record. Addresses in the internal form. */
export interface TronCall {
  owner: string;
  contract: string;
  /** TRX sent with the call, in sun. */
  callValue: bigint;
}

export type TronDecodedTrade = RouteTrade<TronVenue>;

const word = (hex: string | undefined, i: number): bigint => {
  const w = (hex ?? '').slice(i * 64, i * 64 + 64);
  return w.length === 64 ? BigInt('0x' + w) : 0n;
};
const topicWord = (t: string | undefined): bigint => (t && /^(0x)?[0-9a-fA-F]{1,64}$/.test(t) ? BigInt(t.startsWith('0x') ? t : '0x' + t) : 0n);
const sun = (v: number | string | undefined): bigint => {
  if (v === undefined) return 0n;
  const s = String(v);
  return /^[0-9]+$/.test(s) ? BigInt(s) : 0n;
};

/** The wallet's trades in one transaction, in leg order (sells, then buys). `wallet` in the internal form. */
export function decodeTronTransaction(call: TronCall, info: TronTransactionInfo, wallet: string): TronDecodedTrade[] {
  if (call.owner !== wallet) return [];
  if (info.result === 'FAILED' || (info.receipt?.result !== undefined && info.receipt.result !== 'SUCCESS')) return [];
  const logs = info.log ?? [];

  const pools = new Map<string, TronVenue>();
  for (const l of logs) {
    const kind = VENUE_OF_TOPIC['0x' + (l.topics[0] ?? '').toLowerCase().replace(/^0x/, '')];
    if (kind) {
      const a = toInternalHex(l.address);
      if (!pools.has(a)) pools.set(a, kind);
    }
  }
  if (pools.size === 0) return [];

  const flows: TokenFlow[] = [];
  const native: NativeMove[] = [];
  const claims = new Map<string, { net: bigint; pool: string }>();
  const countsTransfers = (a: string) => pools.has(a) && !EVENT_ACCOUNTED.has(pools.get(a)!);
  const trxMove = (from: string, to: string, value: bigint) => {
    if (value <= 0n) return;
    if (countsTransfers(to)) native.push({ pool: to, value });
    if (countsTransfers(from)) native.push({ pool: from, value: -value });
  };

  for (const l of logs) {
    const t0 = '0x' + (l.topics[0] ?? '').toLowerCase().replace(/^0x/, '');
    const address = toInternalHex(l.address);
    if (t0 === ERC20_TRANSFER_TOPIC && l.topics.length === 3) {
      const f = { token: address, from: topicToAddress(l.topics[1]), to: topicToAddress(l.topics[2]), value: word(l.data, 0) };
      flows.push(f);
      if (f.token === WTRX) trxMove(f.from, f.to, f.value);
    } else if (t0 === SUNSWAP_V1_TOKEN_PURCHASE_TOPIC && l.topics.length === 4) {
      native.push({ pool: address, value: topicWord(l.topics[2]) });
    } else if (t0 === SUNSWAP_V1_TRX_PURCHASE_TOPIC && l.topics.length === 4) {
      native.push({ pool: address, value: -topicWord(l.topics[3]) });
    } else if ((t0 === SUNPUMP_TOKEN_PURCHASED_TOPIC || t0 === SUNPUMP_TOKEN_SOLD_TOPIC) && l.topics.length === 3) {
      const buy = t0 === SUNPUMP_TOKEN_PURCHASED_TOPIC;
      const trx = word(l.data, 0);
      native.push({ pool: address, value: buy ? trx : -trx });
      if (topicToAddress(l.topics[2]) === wallet) {
        const token = topicToAddress(l.topics[1]);
        const amount = word(l.data, 2);
        const prev = claims.get(token)?.net ?? 0n;
        claims.set(token, { net: prev + (buy ? amount : -amount), pool: address });
      }
    }
  }

  // TRX itself: the call's value, then every internal transaction that moved some.
  trxMove(call.owner, call.contract, call.callValue);
  for (const it of info.internal_transactions ?? []) {
    if (it.rejected || !it.caller_address || !it.transferTo_address) continue;
    let value = 0n;
    for (const c of it.callValueInfo ?? []) if (!c.tokenId) value += sun(c.callValue);
    if (value > 0n) trxMove(toInternalHex(it.caller_address), toInternalHex(it.transferTo_address), value);
  }

  return routeTrades({ wallet, pools, flows, nativeTokens: new Set([WTRX]), native, claims });
}
