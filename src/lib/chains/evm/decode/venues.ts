import { NATIVE, type FlowVenue, type Hop } from '../../shared/route-flows.js';
import { ERC20_TRANSFER_TOPIC, topicToAddress, UNISWAP_V2_SWAP_TOPIC } from '../../shared/uniswap-v2-events.js';
import { UNISWAP_V3_SWAP_TOPIC } from '../../shared/uniswap-v3-events.js';
import type { EvmDexKind } from '../registry.js';
import { BALANCER_V2_SWAP_TOPIC, balancerHops, type BalancerHop } from './balancer.js';
import { balancerV3BufferHops, balancerV3Hops } from './balancer-v3.js';
import { curveExchanges } from './curve.js';
import { uniswapV1Swaps } from './uniswap-v1.js';
import { hashflowTrades } from './hashflow.js';
import { splitSwaps } from './split-venues.js';
import { FOURMEME_PURCHASE_TOPIC, FOURMEME_SALE_TOPIC, fourMemeTrades } from './fourmeme.js';
import { INFINITY_BIN_SWAP_TOPIC, INFINITY_CL_SWAP_TOPIC } from './infinity.js';
import { NATIVE_CURRENCY, type V4PoolKey } from './pool-key.js';
import type { RpcLog } from './rpc-types.js';
import { v4Hops, V4_SWAP_TOPIC } from './v4.js';

/**
 * The venues a transaction's own events name, with the hops their events state (route-flows.ts
 * finds the others by their flows): pools of the Uniswap V2/V3 event shapes (their flows are their
 * hop), the singletons that keep every pool's tokens and move the native coin with no log (a V4
 * PoolManager, PancakeSwap Infinity's Vault, the Balancer Vaults: one hop per `Swap`), four.meme's
 * curve (its event's BNB figure), Curve pools (one hop per `TokenExchange`), Uniswap V1 exchanges
 * (their ETH side moves with no log).
 */

/** PancakeSwap V3 adds two protocol-fee fields: `Swap(...,int24,uint128,uint128)`. */
export const PANCAKESWAP_V3_SWAP_TOPIC = '0x19b47279256b2a23a1665c810c8d55a1758940ee09377d4f8d26497a3577dc83';
/** Solidly-style pools (Aerodrome, Velodrome): `Swap(address,address,uint256,uint256,uint256,uint256)`. */
export const SOLIDLY_SWAP_TOPIC = '0xb3e2773606abfd36b5bd91394b3a54d1398336c65005baf7bf7a05efeffaf75b';

const SWAP_KIND: Record<string, EvmDexKind> = {
  [UNISWAP_V2_SWAP_TOPIC]: 'v2',
  [SOLIDLY_SWAP_TOPIC]: 'v2',
  [UNISWAP_V3_SWAP_TOPIC]: 'v3',
  [PANCAKESWAP_V3_SWAP_TOPIC]: 'v3',
  [V4_SWAP_TOPIC]: 'v4',
  [BALANCER_V2_SWAP_TOPIC]: 'balancer-v2',
  [INFINITY_CL_SWAP_TOPIC]: 'infinity',
  [INFINITY_BIN_SWAP_TOPIC]: 'infinity',
  [FOURMEME_PURCHASE_TOPIC]: 'fourmeme',
  [FOURMEME_SALE_TOPIC]: 'fourmeme',
};

/** A venue's kind in a decoded trade: a kind of the chain's dex table, or `other` (named by the decoder: `dex`). */
export type EvmVenueKind = EvmDexKind | 'other';

export interface KnownVenue extends FlowVenue<EvmVenueKind> {
  /** The venue's slug when its event or contract names it rather than the chain's dex table. */
  dex?: string;
}

/** Emitters of a Swap-shaped event in some logs, lowercase, with their event kind. */
export function swapPools(logs: readonly RpcLog[]): Map<string, EvmDexKind> {
  const m = new Map<string, EvmDexKind>();
  for (const l of logs) {
    const k = l.topics.length > 0 ? SWAP_KIND[l.topics[0].toLowerCase()] : undefined;
    if (k && !m.has(l.address.toLowerCase())) m.set(l.address.toLowerCase(), k);
  }
  return m;
}

export interface VenueContext {
  wrapped: string | null;
  poolKeys: ReadonlyMap<string, V4PoolKey>;
  /** Native paid into each V4/Infinity manager by the route, from a call trace (enrich/call-traces.ts). */
  traced: ReadonlyMap<string, bigint> | undefined;
  /** PancakeSwap Infinity pool manager -> its Vault. */
  infinityVaults: ReadonlyMap<string, string>;
  /** Configured four.meme TokenManagers. */
  fourMeme: ReadonlySet<string>;
}

class HopBuilder {
  readonly in = new Map<string, bigint>();
  readonly out = new Map<string, bigint>();
  /** `paid`: what the route paid the venue in `asset` (negative: what the venue paid the route). */
  add(asset: string, paid: bigint): void {
    if (paid > 0n) this.in.set(asset, (this.in.get(asset) ?? 0n) + paid);
    else if (paid < 0n) this.out.set(asset, (this.out.get(asset) ?? 0n) - paid);
  }
}

function addHop(venues: Map<string, KnownVenue>, venue: string, kind: EvmVenueKind, hop: Hop | null, dex?: string): void {
  let v = venues.get(venue);
  if (!v || !v.hops) {
    v = { kind, hops: [], ...(dex ? { dex } : {}) };
    venues.set(venue, v);
  }
  if (hop) (v.hops as Hop[]).push(hop);
  else v.opaque = true;
}

/** V4 and Infinity: each Swap a hop of its venue (the PoolManager, or Infinity's Vault), hook fees in the swapper's figure. */
function addV4Hops(logs: readonly RpcLog[], ctx: VenueContext, venues: Map<string, KnownVenue>, asset: (t: string) => string): void {
  for (const h of v4Hops(logs)) {
    const venue = h.family === 'infinity' ? ctx.infinityVaults.get(h.manager) : h.manager;
    if (!venue) continue;
    const kind: EvmVenueKind = h.family === 'infinity' ? 'infinity' : 'v4';
    const key = ctx.poolKeys.get(h.id);
    if (!key) {
      addHop(venues, venue, kind, null);
      continue;
    }
    const b = new HopBuilder();
    // A hook that may move the amounts and said nothing: the call trace's figure where one was fetched.
    const traced = key.currency0 === NATIVE_CURRENCY ? ctx.traced?.get(h.manager) : undefined;
    b.add(asset(key.currency0), traced ?? -h.amount0 + h.hookFee0);
    b.add(asset(key.currency1), -h.amount1 + h.hookFee1);
    addHop(venues, venue, kind, b);
  }
}

function addBalancerHops(hops: readonly BalancerHop[], kind: EvmVenueKind, venues: Map<string, KnownVenue>, asset: (t: string) => string, dex?: string): void {
  for (const h of hops) {
    const b = new HopBuilder();
    b.add(asset(h.tokenIn), h.amountIn);
    b.add(asset(h.tokenOut), -h.amountOut);
    addHop(venues, h.vault, kind, b, dex);
  }
}

/** The venues the logs' events name, lowercase address -> venue. */
export function knownVenues(logs: readonly RpcLog[], ctx: VenueContext): Map<string, KnownVenue> {
  const asset = (t: string) => (t === NATIVE_CURRENCY || t === ctx.wrapped ? NATIVE : t);
  const venues = new Map<string, KnownVenue>();
  for (const [a, k] of swapPools(logs)) {
    // four.meme's events index nothing and anyone could emit them: configured managers only.
    // V4, Infinity and the Balancer Vault take their hops from their events below.
    if (k === 'v2' || k === 'v3') venues.set(a, { kind: k });
  }
  addV4Hops(logs, ctx, venues, asset);
  addBalancerHops(balancerHops(logs), 'balancer-v2', venues, asset);
  addBalancerHops([...balancerV3BufferHops(logs), ...balancerV3Hops(logs)], 'other', venues, asset, 'balancer-v3');
  // four.meme: the curve's own figure when it trades against BNB (no log moves BNB). A curve
  // quoted in a token (a Transfer of another token to or from the manager) keeps its flows.
  for (const t of fourMemeTrades(logs, ctx.fourMeme)) {
    const quotedInToken = logs.some((l) => {
      if (l.topics.length !== 3 || l.topics[0].toLowerCase() !== ERC20_TRANSFER_TOPIC || l.address.toLowerCase() === t.token) return false;
      return topicToAddress(l.topics[1]) === t.manager || topicToAddress(l.topics[2]) === t.manager;
    });
    if (quotedInToken) {
      if (!venues.has(t.manager)) venues.set(t.manager, { kind: 'fourmeme' });
      continue;
    }
    const b = new HopBuilder();
    b.add(NATIVE, t.side === 'buy' ? t.cost : -t.cost);
    b.add(t.token, t.side === 'buy' ? -t.amount : t.amount);
    addHop(venues, t.manager, 'fourmeme', b);
  }
  for (const x of curveExchanges(logs)) {
    const b = new HopBuilder();
    b.add(x.sold === null ? NATIVE : asset(x.sold), x.tokensSold);
    b.add(x.bought === null ? NATIVE : asset(x.bought), -x.tokensBought);
    addHop(venues, x.pool, 'other', b, 'curve');
  }
  // A Hashflow pool that pays from its own balance; where a maker's account pays instead, the pool
  // moves nothing and the maker is found by its flows.
  for (const x of hashflowTrades(logs)) {
    if (!logs.some((l) => l.topics.length === 3 && l.topics[0].toLowerCase() === ERC20_TRANSFER_TOPIC && topicToAddress(l.topics[1]) === x.pool)) continue;
    const b = new HopBuilder();
    b.add(asset(x.baseToken), x.baseAmount);
    b.add(asset(x.quoteToken), -x.quoteAmount);
    addHop(venues, x.pool, 'other', b, 'hashflow');
  }
  // A venue whose other accounts move its tokens (a PSM's pocket, Wombat's asset contracts): its
  // event is its hop, the movements join it to those accounts (split-venues.ts).
  for (const x of splitSwaps(logs)) {
    const b = new HopBuilder();
    b.add(asset(x.tokenIn), x.amountIn);
    b.add(asset(x.tokenOut), -x.amountOut);
    addHop(venues, x.venue, 'other', b, x.dex);
  }
  for (const x of uniswapV1Swaps(logs)) {
    const b = new HopBuilder();
    b.add(NATIVE, x.tokenBought ? x.eth : -x.eth);
    b.add(x.token, x.tokenBought ? -x.tokens : x.tokens);
    addHop(venues, x.exchange, 'other', b, 'uniswap-v1');
  }
  return venues;
}
