import { routeTrades, type NativeMove, type RouteTrade, type TokenFlow } from '../../shared/route-trades.js';
import { ERC20_TRANSFER_TOPIC, UNISWAP_V2_SWAP_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import { UNISWAP_V3_SWAP_TOPIC } from '../../shared/uniswap-v3-events.js';
import { toInternalHex } from '../address.js';
import { tronAggregatorOf, type TronAggregator } from './aggregators.js';
import { routeAccounts, sunswapV4Native, type TronPoolKey, type TrxMove } from './sunswap-v4.js';
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
 *    transactions' `callValue` are every TRX movement, so V2/V3 venues' native figure is the
 *    TRX and WTRX they took in or paid out, the V4 manager's what it exchanged with the route's
 *    own accounts (its hooks' fees inside it) or, for a TRX middle leg inside it, its Swap
 *    deltas (sunswap-v4.ts), and V1 exchanges and SunPump state theirs in their events
 *    (SunPump's `trxAmount` leaves its fee out: decisions.md);
 *  - a route through an aggregator's router (aggregators.ts) takes the aggregator's slug;
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

/** The `dex` of a Tron trade: the venue that traded it, or the aggregator the route went through. */
export type TronDex = TronVenue | TronAggregator;

export type TronDecodedTrade = RouteTrade<TronDex>;

export interface TronDecodeOptions {
  /**
   * SunSwap V4 pool keys by pool id (`0x` + 64 hex), for managers that swapped more than once in
   * the transaction (enrich/pool-keys.ts): they tell which Swap delta is TRX.
   */
  poolKeys?: ReadonlyMap<string, TronPoolKey>;
}

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
export function decodeTronTransaction(call: TronCall, info: TronTransactionInfo, wallet: string, options: TronDecodeOptions = {}): TronDecodedTrade[] {
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
  for (const l of logs) {
    const t0 = '0x' + (l.topics[0] ?? '').toLowerCase().replace(/^0x/, '');
    const address = toInternalHex(l.address);
    if (t0 === ERC20_TRANSFER_TOPIC && l.topics.length === 3) {
      flows.push({ token: address, from: topicToAddress(l.topics[1]), to: topicToAddress(l.topics[2]), value: word(l.data, 0) });
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
  const trx: TrxMove[] = call.callValue > 0n ? [{ from: call.owner, to: call.contract, value: call.callValue }] : [];
  const called = new Set<string>();
  for (const it of info.internal_transactions ?? []) {
    if (it.rejected || !it.caller_address || !it.transferTo_address) continue;
    const from = toInternalHex(it.caller_address);
    const to = toInternalHex(it.transferTo_address);
    called.add(from).add(to);
    let value = 0n;
    for (const c of it.callValueInfo ?? []) if (!c.tokenId) value += sun(c.callValue);
    if (value > 0n) trx.push({ from, to, value });
  }

  // TRX and WTRX each V2/V3 venue took in or paid out (V1 and SunPump state theirs, the V4
  // manager's is its own reckoning below).
  const countsTransfers = (a: string) => {
    const kind = pools.get(a);
    return kind !== undefined && kind !== 'sunswap-v4' && !EVENT_ACCOUNTED.has(kind);
  };
  for (const m of [...trx, ...flows.filter((f) => f.token === WTRX)]) {
    if (m.value <= 0n) continue;
    if (countsTransfers(m.to)) native.push({ pool: m.to, value: m.value });
    if (countsTransfers(m.from)) native.push({ pool: m.from, value: -m.value });
  }
  const managers = [...pools].filter(([, k]) => k === 'sunswap-v4').map(([a]) => a);
  if (managers.length) {
    const route = routeAccounts({ wallet, contract: call.contract, venues: pools, trx, flows });
    native.push(...sunswapV4Native({ managers, logs, route, trx, flows, wtrx: WTRX, poolKeys: options.poolKeys }));
  }

  const trades = routeTrades({ wallet, pools, flows, nativeTokens: new Set([WTRX]), native, claims });
  const aggregator = tronAggregatorOf(call.contract, [...called, ...flows.flatMap((f) => [f.from, f.to])]);
  return aggregator ? trades.map((t) => ({ ...t, poolKind: aggregator })) : trades;
}
