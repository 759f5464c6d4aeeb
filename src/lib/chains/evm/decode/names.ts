import type { FlowTrade } from '../../shared/route-flows.js';
import type { RpcLog } from './rpc-types.js';
import { HASHFLOW_TRADE_TOPIC } from './hashflow.js';
import type { EvmVenueKind, KnownVenue } from './venues.js';

/**
 * A trade's `dex` (decisions.md, "Real routes on EVM"; ROUTES.md step 6): a settlement order's
 * slug (settlements.ts, orders.ts), else the aggregator the transaction called, else an aggregator
 * the route passed through, else the venue that took (sell) or delivered (buy) the larger share.
 * Venues of the chain's dex table (V2/V3 pools by their factory, V4 PoolManagers, the Balancer V2
 * Vault, Infinity, four.meme) are named later by enrich/pool-factories.ts (`dex` left unset);
 * the others are named here: by their event (Curve, Balancer V3, and the shapes below), by the
 * chain's table of named contracts (R10), by the fill event that names the market maker, else
 * `unknown`.
 */

/**
 * Events whose emitter is a named venue, or names the market maker that filled (the event and
 * its fields as each protocol's sources declare them):
 *  - Hashflow pools' `Trade` (hashflow.ts);
 *  - Maverick V1 pools: `Swap(address sender, address recipient, bool tokenAIn, bool exactOutput, uint256 amountIn, uint256 amountOut, int32 activeTick)`,
 *    Maverick V2: `PoolSwap(address sender, address recipient, (uint256,bool,bool,int32) params, uint256 amountIn, uint256 amountOut)` (maverickprotocol);
 *  - DODO V2 pools: `DODOSwap(address fromToken, address toToken, uint256 fromAmount, uint256 toAmount, address trader, address receiver)` (DODOEX/contractV2);
 *  - WOOFi's WooPP: `WooSwap(address,address,uint256,uint256,address,address,address,uint256,uint256)` (woonetwork/WooPoolV2);
 *  - Fluid DEX pools: `Swap(bool swap0to1, uint256 amountIn, uint256 amountOut, address to)` (Instadapp/fluid-contracts-public).
 */
export const NAMED_EVENTS: ReadonlyMap<string, string> = new Map([
  [HASHFLOW_TRADE_TOPIC, 'hashflow'],
  ['0x3b841dc9ab51e3104bda4f61b41e4271192d22cd19da5ee6e292dc8e2744f713', 'maverick'],
  ['0x103ed084e94a44c8f5f6ba8e3011507c41063177e29949083c439777d8d63f60', 'maverick'],
  ['0xc2c0245e056d5fb095f04cd6373bc770802ebd1e6c918eb78fdef843cdb37b0f', 'dodo'],
  ['0x0e8e403c2d36126272b08c75823e988381d9dc47f2f0a9a080d95f891d95c469', 'woofi'],
  ['0xdc004dbca4ef9c966218431ee5d9133d337ad018dd5b5c5493722803f75c64f7', 'fluid'],
]);

export interface NameTables {
  /** Aggregator router -> slug: the chain's table, the decoder's extra ones (0x Settlers). */
  aggregators: ReadonlyMap<string, string>;
  /** Contracts that are venues themselves -> slug. */
  venues: ReadonlyMap<string, string>;
  /** Contracts whose fill events name the market maker that filled -> slug. */
  fills: ReadonlyMap<string, string>;
}

const ADDRESS_TOPIC = /^0x0{24}[0-9a-f]{40}$/i;

/** Addresses a log indexes: its emitter, its topics' addresses. */
function indexedIn(l: RpcLog): string[] {
  const out = [l.address.toLowerCase()];
  for (const t of l.topics.slice(1)) if (ADDRESS_TOPIC.test(t)) out.push('0x' + t.slice(26).toLowerCase());
  return out;
}

/** Addresses a log names: the indexed ones and its data's address-shaped words. */
function namedIn(l: RpcLog): string[] {
  const out = indexedIn(l);
  const d = l.data.startsWith('0x') ? l.data.slice(2) : l.data;
  for (let i = 0; i + 64 <= d.length; i += 64) {
    const w = d.slice(i, i + 64);
    if (/^0{24}/.test(w) && !/^0{32}/.test(w)) out.push('0x' + w.slice(24).toLowerCase());
  }
  return out;
}

/** What a transaction's logs say about its accounts, read once for all its trades. */
export interface SegmentNames {
  /** Aggregators the logs name (emitters, indexed addresses), in log order. */
  aggregators: string[];
  /** Account -> the slug of a named event it emitted or a fill event that names it. */
  byEvent: Map<string, string>;
}

export function segmentNames(logs: readonly RpcLog[], t: NameTables): SegmentNames {
  const aggregators: string[] = [];
  const byEvent = new Map<string, string>();
  for (const l of logs) {
    const emitter = l.address.toLowerCase();
    const topicNamed = NAMED_EVENTS.get(l.topics[0]?.toLowerCase() ?? '');
    if (topicNamed && !byEvent.has(emitter)) byEvent.set(emitter, topicNamed);
    const fills = t.fills.get(emitter);
    const named = namedIn(l);
    // An aggregator that emitted a log, or that a log indexes (a swap's sender or recipient, a transfer's end).
    for (const a of indexedIn(l)) if (t.aggregators.has(a) && !aggregators.includes(a)) aggregators.push(a);
    for (const a of named) {
      if (fills && a !== emitter && !byEvent.has(a)) byEvent.set(a, fills);
      if (topicNamed && a !== emitter && !byEvent.has(a)) byEvent.set(a, topicNamed);
    }
  }
  return { aggregators, byEvent };
}

export interface TradeNaming {
  tables: NameTables;
  segment: SegmentNames;
  known: ReadonlyMap<string, KnownVenue>;
  /** The transaction's `to` when the wallet's part is the whole transaction (it called it). */
  called: string | null;
}

/** The slug of the aggregator the transaction called, else of one the route passed through or the logs name; undefined when none. */
export function aggregatorOfTrade(trade: FlowTrade<EvmVenueKind>, n: TradeNaming): string | undefined {
  const { aggregators } = n.tables;
  if (n.called && aggregators.has(n.called)) return aggregators.get(n.called);
  for (const a of trade.route) if (aggregators.has(a)) return aggregators.get(a);
  if (n.segment.aggregators.length) return aggregators.get(n.segment.aggregators[0]);
  return undefined;
}

/** The trade's `dex` where the decoder decides it; undefined leaves it to the chain's dex table (enrich/pool-factories.ts). */
export function dexOfTrade(trade: FlowTrade<EvmVenueKind>, n: TradeNaming): string | undefined {
  const aggregator = aggregatorOfTrade(trade, n);
  if (aggregator) return aggregator;
  const known = n.known.get(trade.pool);
  if (known) return known.dex;
  return n.tables.venues.get(trade.pool) ?? n.segment.byEvent.get(trade.pool) ?? 'unknown';
}
