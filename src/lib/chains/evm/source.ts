import type { ChainKeyedCache, ChainSource, HistoryBatch, HistoryParameters, TokenCache } from '../../core/chain-source.js';
import { HistoryError } from '../../core/errors.js';
import { createRpcTransport, type RpcTransport, type RpcTransportStats } from '../../rpc/json-rpc.js';
import type { Limiter } from '../../rpc/limiter.js';
import { normalizeEvmAddress } from './address.js';
import type { PoolKeyCache } from './decode/pool-key.js';
import { createWalkChoice, type DiscoveryPath } from './discovery/choose-walk.js';
import { createExplorerWalk } from './discovery/explorer.js';
import { createLogsRange } from './discovery/logs-range.js';
import { createLogsWalk } from './discovery/logs.js';
import { createOtsWalk } from './discovery/ots.js';
import { redecodeTransactions } from './redecode-transactions.js';
import { parseBefore, parseUntil, type WalkPosition } from './discovery/position.js';
import { createScanLogs } from './discovery/scan-logs.js';
import { createCallTraces } from './enrich/call-traces.js';
import { createDelegationCheck } from './enrich/delegation.js';
import { createMetadataPrefetch } from './enrich/metadata-prefetch.js';
import { createPoolFactories } from './enrich/pool-factories.js';
import { createPoolKeys } from './enrich/pool-keys.js';
import type { SettlerRegistryRead } from './enrich/settler-kind.js';
import { createZeroExSettlers } from './enrich/settlers.js';
import { wsUrlOf } from '../../rpc/ws-subscriptions.js';
import { watchTransfers } from './realtime/watch-transfers.js';
import { confirmedHead } from './head.js';
import type { EvmChainConfig } from './registry.js';
import { createTradesOf } from './trades-of.js';

/**
 * The EVM chain source, composed of its stages:
 *
 * - `head.ts`: the confirmation point a fresh walk starts from (the batch's `head`).
 * - `discovery/`: where the wallet's transactions are, walking from the confirmation block down to
 *   block 0 (or `until`), one batch per step, by one of three walks over one position type
 *   (`position.ts`): the node's Otterscan index (`ots.ts`), an explorer API (`explorer.ts`) or the
 *   wallet's ERC-20 Transfer logs range by range (`logs.ts`, with the provider's range learned in
 *   `logs-range.ts`); `choose-walk.ts` picks one and hands a walk to the next when one refuses.
 * - `trades-of.ts`: a set of found transactions → receipts → enrichment → decoded trades, callable
 *   on its own (a realtime stage beside discovery would feed it the same way).
 * - `enrich/`: what a receipt does not say, each with its cache: pool factories (which venue),
 *   V4/Infinity pool keys, call traces, EIP-7702 delegation, block times, token metadata (prefetched
 *   from the Transfer logs), 0x's Settlers (its registry's logs, kept in the store).
 *
 * Positions: a trade's is `{block:12}.{txIndex:6}`; a batch's `position` and `head` are block
 * numbers in decimal. `before` = "B" resumes below block B; `until` = "H" stops above block H.
 * `before` also accepts a trade position (resumes strictly older than that transaction).
 */

export interface EvmSourceOptions {
  chain: EvmChainConfig;
  rpcUrl: string;
  tokens: TokenCache;
  /** Uniswap V4 pool keys (default: in memory, for the source's lifetime). */
  poolKeys?: PoolKeyCache;
  /** A limiter shared beyond this source (the server's cross-instance rate); else its own. */
  limiter?: Limiter;
  /**
   * Ask for call traces (`debug_traceTransaction`) where a V4 or Infinity hook that may move the
   * swapper's amounts emitted nothing (default true; a node without the method is not asked again
   * by this source, and the log says so once).
   */
  traces?: boolean;
  /** JSON-RPC calls per HTTP request (default 100). */
  batchSize?: number;
  /** HTTP requests in flight (RPC_MAX_IN_FLIGHT_<SLUG>, default 8) and started per second (RPC_RPS_<SLUG>). */
  maxInFlight?: number;
  requestsPerSecond?: number;
  /** First block range tried (default 2,000: accepted by most providers without a key). */
  initialRange?: number;
  /** Largest block range grown to (default 1,000,000). */
  maxRange?: number;
  /** The provider's largest eth_getLogs block range when known (RPC_LOGS_RANGE_<SLUG>): never exceeded, no refusal paid. */
  logsRange?: number;
  /**
   * Block ranges scanned per HTTP request (2 eth_getLogs calls each). Default 20: 40 calls a batch,
   * under the 100-call batch limits providers set, and 24,000,000 blocks at a 10,000-block cap in
   * 120 requests.
   */
  rangesPerRequest?: number;
  /** What the source learns of its provider (the largest range it takes), kept across walks and restarts (the server's store). */
  hints?: ChainKeyedCache<number>;
  /** What it has read of 0x's Settler registry, kept the same way (the store's `evm-0x-settlers` kind); else in memory. */
  settlers?: ChainKeyedCache<SettlerRegistryRead>;
  /**
   * How the wallet's transactions are found: `ots` (the node's Otterscan index:
   * ots_searchTransactionsBefore, pages of the wallet's transactions with their receipts),
   * `explorer` (the `explorer` API's lists; logs when none is configured), `logs` (ERC-20 Transfer
   * logs naming the wallet, range by range), `auto` (default: ots when the node answers
   * ots_getApiLevel with 8 or more, else the explorer when one is configured, else logs). A path
   * that refuses mid-walk hands over to the next (discovery/choose-walk.ts).
   */
  discovery?: 'auto' | 'ots' | 'explorer' | 'logs';
  /**
   * An Etherscan-compatible explorer API (EXPLORER_API_URL_<SLUG>, its key EXPLORER_API_KEY_<SLUG>):
   * where the node has no Otterscan index, it says where the wallet's transactions are; their
   * receipts still come from the chain's RPC.
   */
  explorer?: { url: string; key?: string };
  /** How often the realtime stage asks for the confirmed head without a newHeads subscription (default 2,000 ms). */
  realtimePollMs?: number;
  /** The realtime stage's WebSocket (`eth_subscribe newHeads`); undefined: the RPC URL's, null: none (poll only). */
  wsUrl?: string | null;
  /** Entries per explorer page (default 1,000). */
  explorerPageSize?: number;
  /** Transactions per ots_searchTransactionsBefore page (default 100). */
  otsPageSize?: number;
  /** Where the source says which path it chose. */
  log?: (line: string) => void;
  /**
   * Receipts decoded per yielded batch (default 400: 4 HTTP requests of 100, about a second on a
   * public node), so a stream hears from the walk well within its 10 s keep-alive.
   */
  receiptsPerBatch?: number;
  fetch?: typeof fetch;
  /** A transport to share (tests count its calls); built from rpcUrl when absent. */
  transport?: RpcTransport;
  timeoutMs?: number;
}

/**
 * The version of the EVM decoding rules (ChainSource.decoderVersion); histories stored by an
 * older one are decoded again (redecode-transactions.ts). 0 (none stated): the rules before issue
 * 23. 1: routes read as a flow graph (aggregators, executors, market makers, order settlements,
 * 0x Settlers, Curve, Balancer V3, front ends), silent hooks' and open routes' call traces.
 */
export const EVM_DECODER_VERSION = 1;

export interface EvmSource extends ChainSource {
  readonly stats: RpcTransportStats;
  /** The discovery path in use (`ots`, `explorer` or `logs`), once the first walk chose it. */
  readonly discovery?: DiscoveryPath;
}

/** The stages, each built with what it depends on; they share the transport and the caches. */
function createStages(options: EvmSourceOptions, rpc: RpcTransport) {
  const { chain } = options;
  const initialRange = Math.max(1, options.initialRange ?? 2_000);
  const maxRange = Math.max(initialRange, options.maxRange ?? 1_000_000);
  const rangesPerRequest = Math.max(1, Math.floor(options.rangesPerRequest ?? 20));

  const pools = createPoolFactories({ rpc, chain });
  const prefetch = createMetadataPrefetch({ chain: chain.slug, tokens: options.tokens, rpc, pools });
  const range = createLogsRange({ chain: chain.slug, logsRange: options.logsRange, hints: options.hints });
  const tradesOf = createTradesOf({
    chain,
    rpc,
    tokens: options.tokens,
    pools,
    poolKeys: createPoolKeys({ rpc, chain, cache: options.poolKeys }),
    isDelegated: createDelegationCheck({ rpc }),
    traces: createCallTraces({ rpc, chain, enabled: options.traces, log: options.log }),
    prefetch,
    extraAggregators: createZeroExSettlers({ rpc, chain, range, cache: options.settlers, log: options.log }),
  });

  const walks = {
    logs: createLogsWalk({
      rpc,
      range,
      initialRange,
      maxRange,
      rangesPerRequest,
      receiptsPerBatch: Math.max(1, options.receiptsPerBatch ?? 400),
      tradesOf,
      prefetch,
    }),
    ots: createOtsWalk({
      rpc,
      chain,
      pageSize: Math.max(1, Math.floor(options.otsPageSize ?? 100)),
      scanLogs: createScanLogs({ rpc, range, maxRange, rangesPerRequest }),
      tradesOf,
    }),
    explorer: options.explorer
      ? createExplorerWalk({
          explorer: options.explorer,
          pageSize: Math.max(2, Math.floor(options.explorerPageSize ?? 1_000)),
          fetch: options.fetch,
          timeoutMs: options.timeoutMs,
          tradesOf,
        })
      : null,
  };
  // `tradesOf` needs no walk: it is what a realtime stage would be given next to `discovery`.
  return { tradesOf, discovery: createWalkChoice({ rpc, chain: chain.slug, mode: options.discovery, walks, log: options.log }) };
}

export function createEvmSource(options: EvmSourceOptions): EvmSource {
  const { chain } = options;
  const rpc =
    options.transport ??
    createRpcTransport({
      url: options.rpcUrl,
      batchSize: options.batchSize,
      maxInFlight: options.maxInFlight,
      requestsPerSecond: options.requestsPerSecond,
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      limiter: options.limiter,
    });
  const { discovery, tradesOf } = createStages(options, rpc);

  async function* history(p: HistoryParameters): AsyncIterable<HistoryBatch> {
    const wallet = normalizeEvmAddress(p.wallet);
    if (!wallet) throw new HistoryError('invalid_address', `not an EVM address: ${p.wallet}`);
    const signal = p.signal;
    const floor = p.until !== undefined ? parseUntil(p.until) + 1 : 0;
    let head: string | undefined;
    let from: WalkPosition;
    // The discovery path is asked alongside the head (one round trip for both on a first walk).
    const pathChosen = discovery.path(signal);
    pathChosen.catch(() => {});
    if (p.before !== undefined) from = parseBefore(p.before);
    else {
      const h = await confirmedHead(rpc, chain.confirmation, signal);
      head = String(h);
      from = { top: h };
    }
    if (from.top < floor) {
      yield { trades: [], position: String(Math.max(floor, 0)), ...(head !== undefined ? { head } : {}), done: true };
      return;
    }
    yield* discovery.walk(await pathChosen, { wallet, from, floor, head, signal });
  }

  return {
    chain: chain.slug,
    decoderVersion: EVM_DECODER_VERSION,
    stats: rpc.stats,
    get discovery() {
      return discovery.chosen;
    },
    history,
    redecode: (parameters) => redecodeTransactions(tradesOf, parameters),
    realtime: (parameters) =>
      watchTransfers(
        // A range the provider takes without refusal (RPC_LOGS_RANGE), else 2,000 blocks, the
        // first range the walks try: well beyond what a chain makes between two 2 s polls.
        {
          rpc,
          confirmation: chain.confirmation,
          pollMs: options.realtimePollMs ?? 2_000,
          maxRange: options.logsRange ?? 2_000,
          wsUrl: options.wsUrl === undefined ? wsUrlOf(options.rpcUrl) : options.wsUrl,
        },
        parameters,
      ),
  };
}
