import { routeFlows } from '../../shared/route-flows.js';
import { topicToAddress } from '../../shared/uniswap-v2-events.js';
import type { EvmChainConfig, EvmDexKind } from '../registry.js';
import { oneFacePerLedger } from './ledger-faces.js';
import { movementsOf, UNSEEN, wrappersOf, type InternalTransfer } from './movements.js';
import { ZERO_ADDRESS } from './transfer-log.js';
import { aggregatorOfTrade, dexOfTrade, segmentNames, type NameTables, type TradeNaming } from './names.js';
import { openEnd, type OpenEnd } from './open-route.js';
import { isOrderLog, oneInchOrderTrades, signedMetaTransaction } from './orders.js';
import type { V4PoolKey } from './pool-key.js';
import type { RpcLog, RpcReceipt } from './rpc-types.js';
import { COW_TRADE_TOPIC, settlementTrades, UNISWAPX_FILL_TOPIC } from './settlements.js';
import { knownVenues, type EvmVenueKind } from './venues.js';
import { dataWord } from './words.js';

export { PANCAKESWAP_V3_SWAP_TOPIC, SOLIDLY_SWAP_TOPIC, swapPools } from './venues.js';

/**
 * Turns one transaction receipt into the wallet's trades (decisions.md, "Trades" and "Real routes
 * on EVM"):
 *  - only a transaction the wallet sent, an ERC-4337 operation whose `sender` is the wallet, a
 *    Safe execution of the wallet's own Safe (then only the logs of that operation or execution
 *    count), a relayer's call at the address of a wallet that delegated its code (EIP-7702), or a
 *    0x meta-transaction the wallet signed; orders filled for the wallet as their owner (CoW,
 *    UniswapX, CoW ETH-flow, 1inch limit orders and Fusion: settlements.ts, orders.ts) are the
 *    one exception;
 *  - the route is read as a flow graph (shared/route-flows.ts): the movements (movements.ts), the
 *    venues the events name with their hops (venues.ts) and the ones found by their flows, the
 *    pass-throughs between them at any depth;
 *  - each trade's `dex` per names.ts: the aggregator called, else one passed through, else its venue.
 */

/** ERC-4337 `UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)` (EntryPoint 0.6 to 0.8). */
export const USER_OPERATION_EVENT_TOPIC = '0x49628fd1471006c1482da88028e9ce4dbb080b815c9b0344d39e5a8e6ec1419f';
/** ERC-4337 `BeforeExecution()`: the EntryPoint's marker between validation and execution. */
export const BEFORE_EXECUTION_TOPIC = '0xbb47ee3e183a558b1a2ff0874b079f3fc5478b7454eacf2bfc5af2ff5878f972';
/** Safe `ExecutionSuccess(bytes32 indexed txHash, uint256 payment)` (Safe 1.3 to 1.4.1): the Safe executed a transaction its owners signed. */
export const SAFE_EXECUTION_SUCCESS_TOPIC = '0x442e715f626346e8c54381002da614f62bee8d27386535b2521ec8540898556e';
/** Safe `ExecutionFailure(bytes32 indexed txHash, uint256 payment)`. */
export const SAFE_EXECUTION_FAILURE_TOPIC = '0x23428b18acfb3ea64b08dc0c1d296ea9c09702c09083ca5272e64d115b687d23';

/** One trade of the wallet: `pool` is the venue that took or delivered the larger share (for V4 and Balancer the PoolManager or Vault). */
export interface DecodedTrade {
  side: 'buy' | 'sell';
  token: string;
  amountRaw: bigint;
  /** In wei, or null when the route has no (whole) native leg. */
  nativeRaw: bigint | null;
  pool: string;
  poolKind: EvmVenueKind;
  /** The slug when the decoder decides it (an aggregator, a settlement, a venue named by its event); else the chain's dex table names `pool`. */
  dex?: string;
}

/**
 * The log ranges that belong to the wallet: the whole receipt when the wallet sent the
 * transaction, or when a relayer called the wallet's own address and the wallet delegated its
 * code (EIP-7702: the code runs as the wallet); else the execution logs of each successful
 * ERC-4337 operation whose sender is the wallet (logs after the previous UserOperationEvent or
 * BeforeExecution of that EntryPoint), and of each Safe execution the wallet (a Safe) reported
 * with its own ExecutionSuccess (logs after the previous Safe execution's event).
 */
function walletSegments(receipt: RpcReceipt, wallet: string, entryPoints: ReadonlySet<string>, delegated: boolean): RpcLog[][] {
  if (receipt.from?.toLowerCase() === wallet) return [receipt.logs];
  if (delegated && receipt.to?.toLowerCase() === wallet) return [receipt.logs];
  const out: RpcLog[][] = [];
  let start = 0;
  let safeStart = 0;
  receipt.logs.forEach((l, i) => {
    const t0 = l.topics[0]?.toLowerCase();
    const emitter = l.address.toLowerCase();
    if (t0 === SAFE_EXECUTION_SUCCESS_TOPIC || t0 === SAFE_EXECUTION_FAILURE_TOPIC) {
      if (t0 === SAFE_EXECUTION_SUCCESS_TOPIC && emitter === wallet) out.push(receipt.logs.slice(safeStart, i));
      safeStart = i + 1;
      return;
    }
    if (!entryPoints.has(emitter)) return;
    if (t0 === BEFORE_EXECUTION_TOPIC) {
      start = i + 1;
    } else if (t0 === USER_OPERATION_EVENT_TOPIC && l.topics.length === 4) {
      const success = dataWord(l.data, 1) === 1n;
      if (success && topicToAddress(l.topics[2]) === wallet) out.push(receipt.logs.slice(start, i));
      start = i + 1;
    }
  });
  return out;
}

/**
 * Whether a receipt can hold a trade of the wallet (trades-of.ts looks up V4 pool keys, delegation
 * and traces only for these): sent by it or to it, or naming it in an ERC-4337 operation, a Safe
 * execution, a settlement, a signed order or a meta-transaction.
 */
export function mayHoldWalletTrade(receipt: RpcReceipt, wallet: string): boolean {
  if (receipt.from?.toLowerCase() === wallet || receipt.to?.toLowerCase() === wallet) return true;
  return receipt.logs.some((l) => {
    const t0 = l.topics[0]?.toLowerCase();
    return (
      t0 === USER_OPERATION_EVENT_TOPIC ||
      (t0 === SAFE_EXECUTION_SUCCESS_TOPIC && l.address.toLowerCase() === wallet) ||
      t0 === COW_TRADE_TOPIC ||
      t0 === UNISWAPX_FILL_TOPIC ||
      isOrderLog(l)
    );
  });
}

/** V4 pool keys by pool id (lowercase), as looked up by enrich/pool-keys.ts. */
export type PoolKeys = ReadonlyMap<string, V4PoolKey>;

type DecodeChain = Pick<EvmChainConfig, 'wrappedNative' | 'entryPoints'> & Partial<Pick<EvmChainConfig, 'dexes' | 'aggregators' | 'namedContracts'>>;

/** The lookups the decoder makes in a chain's settings, built once per chain object. */
interface ChainTables {
  entryPoints: ReadonlySet<string>;
  /** PancakeSwap Infinity pool manager -> its Vault. */
  infinityVaults: ReadonlyMap<string, string>;
  /** Configured four.meme TokenManagers. */
  fourMeme: ReadonlySet<string>;
  /** CoW settlement contracts and UniswapX reactors, with their kind. */
  settlements: ReadonlyMap<string, EvmDexKind>;
  aggregators: ReadonlyMap<string, string>;
  venues: ReadonlyMap<string, string>;
  fills: ReadonlyMap<string, string>;
}

const tablesOf = new WeakMap<DecodeChain, ChainTables>();

function chainTables(chain: DecodeChain): ChainTables {
  let t = tablesOf.get(chain);
  if (!t) {
    const infinityVaults = new Map<string, string>();
    const fourMeme = new Set<string>();
    const settlements = new Map<string, EvmDexKind>();
    for (const d of chain.dexes ?? []) {
      if (d.kind === 'infinity') for (const m of d.poolManagers) infinityVaults.set(m, d.vault);
      else if (d.kind === 'fourmeme') fourMeme.add(d.tokenManager);
      else if (d.kind === 'cow' || d.kind === 'uniswapx') settlements.set(d.settlement, d.kind);
    }
    const named = (role: string) => new Map((chain.namedContracts ?? []).filter((c) => c.role === role).map((c) => [c.address, c.name]));
    t = {
      entryPoints: new Set(chain.entryPoints.map((a) => a.toLowerCase())),
      infinityVaults,
      fourMeme,
      settlements,
      aggregators: new Map((chain.aggregators ?? []).map((a) => [a.address.toLowerCase(), a.name])),
      venues: named('venue'),
      fills: named('fills'),
    };
    tablesOf.set(chain, t);
  }
  return t;
}

/** What one receipt's decoding needs: the chain's tables and what enrich/ looked up for it. */
interface ReceiptContext {
  tables: ChainTables;
  names: CachedNames;
  wrapped: string | null;
  poolKeys: PoolKeys;
  options: DecodeReceiptOptions;
}

/** One segment's route read as a flow graph: its movements, the venues its events name, the engine's trades and how to name them. */
function segmentRoute(receipt: RpcReceipt, logs: readonly RpcLog[], wallet: string, ctx: ReceiptContext, whole: boolean) {
  const { options, wrapped } = ctx;
  const tx = whole ? options.transaction : undefined;
  const movements = movementsOf(logs, {
    wallet,
    wrapped,
    value: tx && tx.to ? { from: receipt.from, to: tx.to, value: tx.value } : undefined,
    internal: whole ? options.internal : undefined,
  });
  const known = knownVenues(logs, {
    wrapped,
    poolKeys: ctx.poolKeys,
    traced: options.tracedNative,
    infinityVaults: ctx.tables.infinityVaults,
    fourMeme: ctx.tables.fourMeme,
  });
  const never = new Set([ZERO_ADDRESS, ...(wrapped ? [wrapped] : [])]);
  const trades = routeFlows({ wallet, movements, venues: known, inferredKind: 'other', never, unseen: UNSEEN });
  const naming: TradeNaming = { tables: ctx.names, segment: segmentNames(logs, ctx.names), known, called: whole ? (receipt.to?.toLowerCase() ?? null) : null };
  return { movements, known, never, trades, naming };
}

type SegmentRoute = ReturnType<typeof segmentRoute>;

/** The wallet's trades in one segment of logs; `whole`: the segment is the whole transaction, which the wallet called. */
function decodeSegment(receipt: RpcReceipt, logs: readonly RpcLog[], wallet: string, ctx: ReceiptContext, whole: boolean): DecodedTrade[] {
  return tradesOfRoute(segmentRoute(receipt, logs, wallet, ctx, whole));
}

function tradesOfRoute({ trades, naming }: SegmentRoute): DecodedTrade[] {
  return trades.map((t) => {
    const dex = dexOfTrade(t, naming);
    return { side: t.side, token: t.token, amountRaw: t.amountRaw, nativeRaw: t.nativeRaw, pool: t.pool, poolKind: t.poolKind, ...(dex ? { dex } : {}) };
  });
}

export interface DecodeReceiptOptions {
  /** The wallet delegated its code (EIP-7702): a relayer's call at its address is its own. */
  delegated?: boolean;
  /**
   * Native coin paid into each V4 or Infinity manager by the route (negative: paid out), from the
   * transaction's call trace, for the managers whose one native hop went through a hook that may
   * move the amounts and said nothing (enrich/call-traces.ts).
   */
  tracedNative?: ReadonlyMap<string, bigint>;
  /** Aggregators beyond the chain's table, lowercase address -> slug (0x's Settlers, enrich/settlers.ts). */
  aggregators?: ReadonlyMap<string, string>;
  /** The transaction's own fields where the source fetched them: its value moves native coin from the sender to `to`. */
  transaction?: { to: string | null; value: bigint; input?: string };
  /** Native coin moved by internal calls, where a call trace of the whole transaction was fetched. */
  internal?: readonly InternalTransfer[];
}

/** Aggregators of the chain's table and the extra ones, and the 0x and 1inch contracts among them. */
type CachedNames = NameTables & { bySlug: Map<string, Set<string>> };
/**
 * Per chain and per map of extra aggregators (the Settlers' map is the same object until its
 * registry is read again), the merged table and its slug sets are made once, not per receipt: the
 * built-in Settler list alone is over a thousand addresses.
 */
const namesOf = new WeakMap<ChainTables, WeakMap<object, CachedNames>>();
const NO_EXTRA = {};

function nameTables(tables: ChainTables, extra: ReadonlyMap<string, string> | undefined): CachedNames {
  const key = extra?.size ? extra : NO_EXTRA;
  let byExtra = namesOf.get(tables);
  if (!byExtra) namesOf.set(tables, (byExtra = new WeakMap()));
  let names = byExtra.get(key);
  if (!names) {
    const aggregators = extra?.size ? new Map([...tables.aggregators, ...extra]) : tables.aggregators;
    byExtra.set(key, (names = { aggregators, venues: tables.venues, fills: tables.fills, bySlug: new Map() }));
  }
  return names;
}

/** The aggregator addresses of one slug. */
function withSlug(names: CachedNames, slug: string): Set<string> {
  let set = names.bySlug.get(slug);
  if (!set) names.bySlug.set(slug, (set = new Set([...names.aggregators].filter(([, n]) => n === slug).map(([x]) => x))));
  return set;
}

/** The wallet's trades in one receipt, in leg order (sells, then buys). `wallet` is lowercase. */
export function decodeReceipt(
  receipt: RpcReceipt,
  wallet: string,
  chain: DecodeChain,
  poolKeys: PoolKeys = new Map(),
  options: DecodeReceiptOptions = {},
): DecodedTrade[] {
  return readReceipt(receipt, wallet, chain, poolKeys, options, false).trades;
}

/** A receipt read for the wallet: its trades, and why a call trace would close its route (null where its logs close it). */
export interface ReceiptReading {
  trades: DecodedTrade[];
  open: OpenEnd | null;
}

/**
 * decodeReceipt, and for a transaction the wallet sent, whether its logs leave the route open
 * (open-route.ts), from the same reading of the route: the source reads every receipt so before
 * any trace, and decodes again only those it then traced.
 */
export function readReceipt(
  receipt: RpcReceipt,
  wallet: string,
  chain: DecodeChain,
  poolKeys: PoolKeys = new Map(),
  options: DecodeReceiptOptions = {},
  askOpen = true,
): ReceiptReading {
  if (receipt.status !== undefined && receipt.status !== '0x1') return { trades: [], open: null };
  receipt = oneFacePerLedger(receipt);
  const tables = chainTables(chain);
  const names = nameTables(tables, options.aggregators);
  const ctx: ReceiptContext = { tables, names, wrapped: chain.wrappedNative, poolKeys, options };
  const sent = receipt.from?.toLowerCase() === wallet;
  if (sent || signedMetaTransaction(receipt.logs, wallet, withSlug(names, '0x'))) {
    const route = segmentRoute(receipt, receipt.logs, wallet, ctx, true);
    return { trades: tradesOfRoute(route), open: askOpen && sent ? openEndOf(receipt, wallet, chain.wrappedNative, route) : null };
  }
  return { trades: segmentsTrades(receipt, wallet, chain, ctx), open: null };
}

/** The trades of a receipt the wallet did not send: its segments (bundles, executions), else settlements and filled orders. */
function segmentsTrades(receipt: RpcReceipt, wallet: string, chain: DecodeChain, ctx: ReceiptContext): DecodedTrade[] {
  const { tables, names, options } = ctx;
  const segments = walletSegments(receipt, wallet, tables.entryPoints, options.delegated ?? false);
  const out: DecodedTrade[] = [];
  for (const seg of segments) out.push(...decodeSegment(receipt, seg, wallet, ctx, seg === receipt.logs));
  if (segments.length > 0) return out;
  if (tables.settlements.size) out.push(...settlementTrades(receipt.logs, wallet, chain.wrappedNative, tables.settlements));
  if (out.length === 0) {
    const movements = movementsOf(receipt.logs, { wallet, wrapped: chain.wrappedNative, internal: options.internal });
    out.push(...oneInchOrderTrades(receipt.logs, movements, wallet, withSlug(names, '1inch')));
  }
  return out;
}

/** Why a call trace would close the route the wallet sent (open-route.ts), from its reading of the route. */
function openEndOf(receipt: RpcReceipt, wallet: string, wrapped: string | null, { movements, known, never, trades, naming }: SegmentRoute): OpenEnd | null {
  return openEnd({
    wallet,
    called: naming.called,
    movements,
    known: new Map(
      [...known].map(([a, v]) => [
        a,
        v.hops ? { takes: new Set(v.hops.flatMap((h) => [...h.in.keys()])), gives: new Set(v.hops.flatMap((h) => [...h.out.keys()])) } : null,
      ]),
    ),
    never,
    unseen: UNSEEN,
    wrappers: wrappersOf(receipt.logs, wrapped),
    slugSettled: trades.every((t) => aggregatorOfTrade(t, naming) !== undefined),
  });
}
