import { toFunctionSelector } from 'viem';
import type { ChainKeyedCache, ChainSource, HistoryBatch, HistoryParameters, TokenCache } from '../../core/chain-source.js';
import { formatUnits } from '../../core/decimal.js';
import { HistoryError } from '../../core/errors.js';
import { isoFromUnixSeconds, type SourceTrade } from '../../core/trade.js';
import { ERC20_TRANSFER_TOPIC } from '../shared/uniswap-v2-events.js';
import { normalizeEvmAddress, toChecksumAddress } from './address.js';
import { decodeReceipt, mayHoldWalletTrade, swapPools, type PoolKeys } from './decode/decode-receipt.js';
import type { RpcLog, RpcReceipt } from './decode/rpc-types.js';
import { createMemoryPoolKeyCache, type PoolKeyCache } from './decode/pool-key.js';
import {
  decodeInitializeLog,
  decodePoolKeysResult,
  nativeIntoManager,
  poolKeysCallData,
  silentHookManagers,
  v4PoolIds,
  V4_INITIALIZE_TOPIC,
} from './decode/v4.js';
import type { V4PoolKey } from './decode/pool-key.js';
import { dexAddress, dexForFactory, dexForSingleton, type EvmChainConfig, type EvmDexKind } from './registry.js';
import { createRpcTransport, type RpcTransport, type RpcTransportStats } from '../../rpc/json-rpc.js';
import type { Limiter } from '../../rpc/limiter.js';
import {
  ethBlockNumber,
  debugTraceCalls,
  ethCallMany,
  ethGetBlockByNumber,
  ethGetBlocks,
  ethGetCode,
  ethGetLogsMany,
  ethGetReceipts,
  otsApiLevel,
  otsSearchTransactionsBefore,
  rpcError,
  type LogFilter,
} from './rpc-methods.js';
import { COW_TRADE_TOPIC, UNISWAPX_FILL_TOPIC } from './decode/settlements.js';
import { explorerAccountList } from './explorer-methods.js';
import { decodeInfinityPoolKey, poolIdToPoolKeyCallData } from './decode/infinity.js';
import { createHttpJsonClient } from '../../rpc/http-json.js';
import { resolveTokens } from './tokens/resolve-tokens.js';

/**
 * The EVM chain source. A walk goes from the confirmation block down to block 0 (or `until`) in
 * block ranges: per range one HTTP request carries the two `eth_getLogs` calls (ERC-20 Transfer
 * with the wallet as topic 1 and as topic 2), then one batch of receipts of the transactions
 * found, then symbols/decimals and pool factories not seen before. Each range yields one batch.
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
   * Ask for call traces (`debug_traceTransaction`) where a V4 hook that may move the swapper's
   * amounts emitted nothing (default true: tried once, then not again on a node without them).
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
  /**
   * How the wallet's transactions are found: `ots` (the node's Otterscan index:
   * ots_searchTransactionsBefore, pages of the wallet's transactions with their receipts),
   * `logs` (ERC-20 Transfer logs naming the wallet, range by range), `auto` (default: ots when the
   * node answers ots_getApiLevel with 8 or more, else logs).
   */
  discovery?: 'auto' | 'ots' | 'explorer' | 'logs';
  /**
   * An Etherscan-compatible explorer API (EXPLORER_API_URL_<SLUG>, its key EXPLORER_API_KEY_<SLUG>):
   * where the node has no Otterscan index, it says where the wallet's transactions are; their
   * receipts still come from the chain's RPC.
   */
  explorer?: { url: string; key?: string };
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

type Path = 'ots' | 'explorer' | 'logs';

export interface EvmSource extends ChainSource {
  readonly stats: RpcTransportStats;
  /** The discovery path in use (`ots`, `explorer` or `logs`), once the first walk chose it. */
  readonly discovery?: Path;
}

/** A pool's `factory()`: which venue deployed it. */
const FACTORY_SELECTOR = toFunctionSelector('factory()');
/** The hint under which the provider's largest eth_getLogs range is kept. */
const LOGS_RANGE_HINT = 'logsRange';
/** Refusals for too many results rather than too many blocks (Infura, Alchemy, QuickNode wordings). */
const RESULT_LIMIT_TEXT = /result|response size|too many logs/i;

const pad = (n: number, w: number) => String(n).padStart(w, '0');
export const evmPosition = (block: number, txIndex: number) => `${pad(block, 12)}.${pad(txIndex, 6)}`;
const hex = (n: number) => '0x' + n.toString(16);
const num = (h: string) => Number(BigInt(h));

interface Cursor {
  /** Highest block to scan. */
  top: number;
  /** Trades must sort strictly below this position (a partly scanned top block), if set. */
  below?: string;
}

function parseBefore(before: string): Cursor {
  if (/^\d{1,15}$/.test(before)) return { top: Number(before) - 1 };
  const m = /^(\d{12})\.(\d{6})$/.exec(before);
  if (m) return { top: Number(m[1]), below: before };
  throw new HistoryError('invalid_position', 'EVM position is not a block number or a trade position');
}

function parseUntil(until: string): number {
  if (/^\d{1,15}$/.test(until)) return Number(until);
  throw new HistoryError('invalid_position', 'EVM head marker is not a block number');
}

/**
 * The block-range size a refusal suggests: a range given as `[0x.., 0x..]` (Alchemy, Infura),
 * else a number of blocks named in the text ("max range 1000", "up to 2000 blocks", "2K block
 * range"), else null (halve).
 */
export function suggestedRange(message: string): number | null {
  const text = message.replace(/(\d),(\d{3})/g, '$1$2');
  const pair = /\[\s*(0x[0-9a-f]+|\d+)\s*,\s*(0x[0-9a-f]+|\d+)\s*\]/i.exec(text);
  if (pair) {
    const a = Number(BigInt(pair[1]));
    const b = Number(BigInt(pair[2]));
    if (b >= a) return b - a + 1;
  }
  const k = /(\d+)\s*k\s*block/i.exec(text);
  if (k) return Number(k[1]) * 1000;
  // A limit keyword first ("maximum block range is 1000"), so the requested size is not taken.
  const m = /(?:max(?:imum)?|limit(?:ed)?|up to|at most)[^0-9[]{0,30}?(\d{1,9})/i.exec(text) ?? /(\d{1,9})\s*blocks?\b/i.exec(text);
  return m ? Number(m[1]) : null;
}

export function createEvmSource(options: EvmSourceOptions): EvmSource {
  const { chain, tokens } = options;
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
  const initialRange = Math.max(1, options.initialRange ?? 2_000);
  const maxRange = Math.max(initialRange, options.maxRange ?? 1_000_000);
  const receiptsPerBatch = Math.max(1, options.receiptsPerBatch ?? 400);
  const rangesPerRequest = Math.max(1, Math.floor(options.rangesPerRequest ?? 20));
  /** Pool -> factory (lowercase) or null when `factory()` is absent; kept for the source's lifetime. */
  const poolFactories = new Map<string, string | null>();
  const aggregators = new Map((chain.aggregators ?? []).map((a) => [a.address, a.name]));
  const poolKeyCache = options.poolKeys ?? createMemoryPoolKeyCache();
  const positionManagers = new Map<string, string>();
  for (const d of chain.dexes) if (d.kind === 'v4' && d.positionManager) positionManagers.set(d.poolManager, d.positionManager);
  const infinityManagers = new Set(chain.dexes.flatMap((d) => (d.kind === 'infinity' ? d.poolManagers : [])));

  async function confirmedHead(signal?: AbortSignal): Promise<number> {
    const c = chain.confirmation;
    if (typeof c === 'number') {
      const latest = num(await ethBlockNumber(rpc, signal));
      return Math.max(0, latest - c);
    }
    try {
      const b = await ethGetBlockByNumber(rpc, c, signal);
      if (b?.number) return num(b.number);
    } catch (e) {
      if (!(e instanceof HistoryError && e.code === 'rpc_error')) throw e;
    }
    // A node without the `safe`/`finalized` tags: stay 64 blocks (two mainnet epochs) behind latest.
    const latest = num(await ethBlockNumber(rpc, signal));
    return c === 'latest' ? latest : Math.max(0, latest - 64);
  }

  /** Factories of pools not seen yet, one batch of `factory()` calls. */
  async function resolvePools(pools: Iterable<string>, signal?: AbortSignal): Promise<void> {
    const missing = [...new Set(pools)].filter((p) => !poolFactories.has(p));
    if (!missing.length) return;
    const answers = await ethCallMany(
      rpc,
      missing.map((p) => ({ to: p, data: FACTORY_SELECTOR })),
      signal,
    );
    missing.forEach((p, i) => {
      const a = answers[i];
      const r = a.ok && typeof a.result === 'string' && a.result.length >= 66 ? '0x' + a.result.slice(26, 66).toLowerCase() : null;
      poolFactories.set(p, r);
    });
  }

  /**
   * Keys of the V4-shaped pools swapped in these receipts: from the cache, else one batch of
   * calls (a PancakeSwap Infinity manager's `poolIdToPoolKey`, a configured PositionManager's
   * `poolKeys`), else one batch of Uniswap V4 `Initialize` logs of the pool id. A key not found
   * leaves that pool's native side unknown (not cached, retried).
   */
  async function resolvePoolKeys(receipts: readonly RpcReceipt[], signal?: AbortSignal): Promise<Map<string, V4PoolKey>> {
    const ids = new Map<string, string>();
    for (const r of receipts) for (const [id, m] of v4PoolIds(r.logs)) ids.set(id, m);
    if (!ids.size) return new Map();
    const keys = await poolKeyCache.get(chain.slug, [...ids.keys()]);
    const found = new Map<string, V4PoolKey>();
    let missing = [...ids.keys()].filter((id) => !keys.has(id));
    const calls = missing.flatMap((id) => {
      const manager = ids.get(id)!;
      if (infinityManagers.has(manager)) return [{ id, to: manager, data: poolIdToPoolKeyCallData(id), decode: decodeInfinityPoolKey }];
      const positions = positionManagers.get(manager);
      return positions ? [{ id, to: positions, data: poolKeysCallData(id), decode: decodePoolKeysResult }] : [];
    });
    if (calls.length) {
      const answers = await ethCallMany(
        rpc,
        calls.map(({ to, data }) => ({ to, data })),
        signal,
      );
      calls.forEach((c, i) => {
        const a = answers[i];
        const k = a.ok ? c.decode(a.result) : null;
        if (k) found.set(c.id, k);
      });
      // Infinity's Initialize logs have another shape: a key its manager did not answer stays unknown.
      missing = missing.filter((id) => !found.has(id) && !infinityManagers.has(ids.get(id)!));
    }
    if (missing.length) {
      const answers = await ethGetLogsMany(
        rpc,
        missing.map((id) => ({ address: ids.get(id), fromBlock: '0x0', toBlock: 'latest', topics: [V4_INITIALIZE_TOPIC, id] })),
        signal,
      );
      missing.forEach((id, i) => {
        const a = answers[i];
        const l = a.ok && Array.isArray(a.result) ? a.result[0] : undefined;
        const k = l ? decodeInitializeLog(l) : null;
        if (k) found.set(id, k);
      });
    }
    if (found.size) await poolKeyCache.put(chain.slug, found);
    for (const [id, k] of found) keys.set(id, k);
    return keys;
  }

  /**
   * Whether the wallet's code is an EIP-7702 delegation (0xef0100 + the delegate's address), asked
   * once per source and wallet, at the chain's head: a delegation changed since the transaction is
   * not seen (the decisions.md rule needs the code the call ran, which only a trace would give).
   */
  const delegations = new Map<string, Promise<boolean>>();
  function isDelegated(wallet: string, signal?: AbortSignal): Promise<boolean> {
    let p = delegations.get(wallet);
    if (!p) {
      p = ethGetCode(rpc, wallet, signal).then((code) => /^0xef0100[0-9a-f]{40}$/i.test(code ?? ''));
      p.catch(() => delegations.delete(wallet));
      delegations.set(wallet, p);
    }
    return p;
  }

  /** Whether the node answers `debug_traceTransaction`: unknown until first asked, then kept. */
  let tracesAvailable: boolean | undefined = options.traces === false ? false : undefined;

  /**
   * For receipts with one native V4 hop through a hook that may move the amounts and emitted no
   * HookFee or HookSwap: what the transaction paid into each such manager, from its call trace
   * (one batch). A node without traces leaves them to the Swap event's figure (decisions.md).
   */
  async function traceSilentHooks(receipts: readonly RpcReceipt[], poolKeys: PoolKeys, signal?: AbortSignal): Promise<Map<string, Map<string, bigint>>> {
    const out = new Map<string, Map<string, bigint>>();
    if (tracesAvailable === false) return out;
    const wanted = receipts.map((r) => ({ r, managers: silentHookManagers(r.logs, poolKeys) })).filter((w) => w.managers.size > 0);
    if (!wanted.length) return out;
    const answers = await debugTraceCalls(
      rpc,
      wanted.map((w) => w.r.transactionHash),
      signal,
    );
    const hooks = new Set([...poolKeys.values()].map((k) => k.hooks));
    answers.forEach((a, i) => {
      if (!a.ok) {
        // -32601 (method not found) and the like: this node keeps no traces; stop asking.
        if (a.error.code === -32601 || /not (found|available|supported)|does not exist|unsupported/i.test(a.error.message)) tracesAvailable = false;
        return;
      }
      tracesAvailable = true;
      const { r, managers } = wanted[i];
      const m = new Map<string, bigint>();
      for (const manager of managers) m.set(manager, nativeIntoManager(a.result, manager, hooks));
      out.set(r.transactionHash.toLowerCase(), m);
    });
    return out;
  }

  function dexOf(pool: string, kind: EvmDexKind): string {
    if (kind === 'v4') return dexForSingleton(chain, 'v4', pool)?.name ?? 'unknown-v4-fork';
    if (kind !== 'v2' && kind !== 'v3') return dexForSingleton(chain, kind, pool)?.name ?? 'unknown';
    const f = poolFactories.get(pool);
    const d = f ? dexForFactory(chain, f) : undefined;
    return d ? d.name : `unknown-${kind}-fork`;
  }

  /**
   * The wallet's Transfer logs (as sender, as receiver) over several block ranges, newest first,
   * in one JSON-RPC batch: 2 calls a range, so one HTTP request scans `rangesPerRequest` ranges.
   * A range's outcome is its logs, or the first refusal a provider gave for it.
   */
  async function getLogsRanges(wallet: string, ranges: readonly [number, number][], signal?: AbortSignal) {
    const topic = '0x' + wallet.slice(2).padStart(64, '0');
    const answers = await ethGetLogsMany(
      rpc,
      ranges.flatMap(([from, to]) => {
        const base = { fromBlock: hex(from), toBlock: hex(to) };
        return [
          { ...base, topics: [ERC20_TRANSFER_TOPIC, topic] },
          { ...base, topics: [ERC20_TRANSFER_TOPIC, null, topic] },
        ];
      }),
      signal,
    );
    return ranges.map((_, i) => {
      const pair = answers.slice(2 * i, 2 * i + 2);
      for (const a of pair) if (!a.ok) return { error: a.error, logs: [] };
      return { error: null, logs: pair.flatMap((a) => (a.ok && Array.isArray(a.result) ? a.result : [])) };
    });
  }

  /**
   * The largest block range the provider takes, once a refusal taught it (or RPC_LOGS_RANGE_<SLUG>
   * said it): kept for every later walk of this chain and in `hints` (the server's store), so a
   * refusal is paid once per chain, not once per walk and again each time the range grows back.
   */
  let learnedRange: Promise<number | null> | null = null;
  const logsRangeCap = (): Promise<number | null> =>
    (learnedRange ??= options.logsRange
      ? Promise.resolve(options.logsRange)
      : (options.hints?.get(chain.slug, [LOGS_RANGE_HINT]) ?? Promise.resolve(new Map<string, number>())).then(
          (m) => m.get(LOGS_RANGE_HINT) ?? null,
          () => null,
        ));
  function learnRange(size: number): void {
    learnedRange = logsRangeCap().then((cap) => {
      const next = cap === null ? size : Math.min(cap, size);
      if (next !== cap) void options.hints?.put(chain.slug, new Map([[LOGS_RANGE_HINT, next]])).catch(() => {});
      return next;
    });
  }

  /**
   * The range to try after a refusal of one `size` blocks long: the one the message suggests, else
   * half. Any refusal shrinks the range (providers word them in many ways); one block still
   * refused is a real error. A limit on the range is the provider's for good and is learned; one
   * on the results depends on how dense this stretch of the chain is, so it shrinks this walk's only.
   */
  function rangeAfterRefusal(size: number, error: { code: number; message: string }): number {
    if (size <= 1) throw rpcError('eth_getLogs', error);
    const suggested = suggestedRange(error.message);
    const next = suggested !== null && suggested > 0 && suggested < size ? suggested : Math.max(1, Math.floor(size / 2));
    if (!RESULT_LIMIT_TEXT.test(error.message)) learnRange(next);
    return next;
  }

  type TxMap = Map<string, { block: number; index: number; ts?: number }>;

  /** Transactions of the discovered logs, newest first, strictly below `below` when given. */
  function transactionsOf(logs: RpcLog[], below: string | undefined): { txs: TxMap; hashes: string[] } {
    // 4-topic Transfer logs are ERC-721 (tokenId indexed): never a fungible trade.
    const fungible = logs.filter((l) => l.topics.length === 3);
    const txs: TxMap = new Map();
    for (const l of fungible) {
      const h = l.transactionHash.toLowerCase();
      const t = txs.get(h) ?? { block: num(l.blockNumber), index: num(l.transactionIndex) };
      if (l.blockTimestamp) t.ts = num(l.blockTimestamp);
      txs.set(h, t);
    }
    const pos = (h: string) => evmPosition(txs.get(h)!.block, txs.get(h)!.index);
    let hashes = [...txs.keys()];
    if (below) hashes = hashes.filter((h) => pos(h) < below);
    hashes.sort((a, b) => (pos(b) < pos(a) ? -1 : 1));
    return { txs, hashes };
  }

  /** The trades in these transactions, receipts taken from `known` (the ots path's pages) or fetched in one batch. */
  async function buildTrades(
    wallet: string,
    txs: TxMap,
    hashes: string[],
    signal?: AbortSignal,
    known?: ReadonlyMap<string, RpcReceipt>,
    /** A third party named these (an explorer): one the RPC does not know is not served, not an error. */
    unvouched = false,
  ): Promise<SourceTrade[]> {
    if (!hashes.length) return [];
    const missing = hashes.filter((h) => !known?.has(h));
    const fetched = new Map<string, RpcReceipt>();
    if (missing.length) {
      (await ethGetReceipts(rpc, missing, signal)).forEach((r, i) => {
        if (!r) {
          if (unvouched) return;
          throw new HistoryError('rpc_malformed_response', `receipt of ${missing[i]} missing below the confirmation point`);
        }
        // The RPC's block is the truth: an explorer following another fork may place it elsewhere.
        const t = txs.get(missing[i]);
        if (t && unvouched) {
          t.block = num(r.blockNumber);
          t.index = num(r.transactionIndex);
        }
        fetched.set(missing[i], r);
      });
    }
    hashes = hashes.filter((h) => known?.has(h) || fetched.has(h));
    const receipts: RpcReceipt[] = hashes.map((h) => known?.get(h) ?? fetched.get(h)!);
    // Only the wallet's own transactions (or bundles, executions, settlements) can hold its trades: no lookups for others' swaps.
    const own = receipts.filter((r) => mayHoldWalletTrade(r, wallet));
    const poolKeys = await resolvePoolKeys(own, signal);
    const delegated = own.some((r) => r.to?.toLowerCase() === wallet && r.from?.toLowerCase() !== wallet) ? await isDelegated(wallet, signal) : false;
    const traced = await traceSilentHooks(own, poolKeys, signal);
    const decoded = receipts.map((r) => decodeReceipt(r, wallet, chain, poolKeys, { delegated, tracedNative: traced.get(r.transactionHash.toLowerCase()) }));
    const withTrades = receipts.filter((_, i) => decoded[i].length > 0);
    if (!withTrades.length) return [];

    // Timestamps the logs did not carry: one batch of headers.
    const needBlocks = [
      ...new Set(
        withTrades
          .map((r) => txs.get(r.transactionHash.toLowerCase())!)
          .filter((t) => t.ts === undefined)
          .map((t) => t.block),
      ),
    ];
    if (needBlocks.length) {
      const hs = await ethGetBlocks(rpc, needBlocks.map(hex), signal);
      const ts = new Map<number, number>();
      hs.forEach((h, i) => ts.set(needBlocks[i], num(h.timestamp)));
      for (const t of txs.values()) if (t.ts === undefined && ts.has(t.block)) t.ts = ts.get(t.block);
    }

    // Pool factories and token metadata in the same round trip (usually answered by the prefetch).
    await metadataInFlight;
    const tokenSet = [...new Set(decoded.flat().map((d) => d.token))];
    const [, info] = await Promise.all([
      resolvePools(
        withTrades.flatMap((r) => [...swapPools(r.logs)].filter(([, k]) => k === 'v2' || k === 'v3').map(([p]) => p)),
        signal,
      ),
      resolveTokens(chain.slug, tokenSet, tokens, rpc, signal),
    ]);

    const out: SourceTrade[] = [];
    receipts.forEach((r, i) => {
      const t = txs.get(r.transactionHash.toLowerCase())!;
      const aggregator = r.to ? aggregators.get(r.to.toLowerCase()) : undefined;
      decoded[i].forEach((d, leg) => {
        const ti = info.get(d.token);
        out.push({
          signature: r.transactionHash.toLowerCase(),
          side: d.side,
          token: ti?.symbol ?? '',
          tokenMint: toChecksumAddress(d.token),
          amountSol: d.nativeRaw === null ? null : formatUnits(d.nativeRaw, 18),
          amount: ti && ti.decimals >= 0 ? formatUnits(d.amountRaw, ti.decimals) : null,
          dex: aggregator ?? dexOf(d.pool, d.poolKind),
          blockTime: isoFromUnixSeconds(t.ts ?? 0),
          position: evmPosition(t.block, t.index),
          leg,
        });
      });
    });
    return out;
  }

  /** Starts token and pool look-ups for what the wallet's Transfer logs name; failures are left to the look-ups after the receipts. */
  function prefetchMetadata(wallet: string, logs: readonly RpcLog[], signal?: AbortSignal): void {
    const fungible = logs.filter((l) => l.topics.length === 3);
    if (!fungible.length) return;
    const tokenSet = [...new Set(fungible.map((l) => l.address.toLowerCase()))];
    const others = [
      ...new Set(
        fungible.map((l) => {
          const from = '0x' + l.topics[1].slice(-40).toLowerCase();
          return from === wallet ? '0x' + l.topics[2].slice(-40).toLowerCase() : from;
        }),
      ),
    ].filter((a) => !poolFactories.has(a));
    metadataInFlight = Promise.all([resolveTokens(chain.slug, tokenSet, tokens, rpc, signal), others.length ? resolvePools(others, signal) : null]).catch(
      () => {},
    );
  }
  /** The prefetch under way: the look-ups after the receipts wait for it, then find its answers cached. */
  let metadataInFlight: Promise<unknown> = Promise.resolve();

  /**
   * The log path: the wallet's Transfer logs, newest first, `rangesPerRequest` block ranges per
   * HTTP request, and the receipts of everything one request found in one batch (a wallet whose
   * trades are spread thinly pays one receipt request per scan request, not per range). The range
   * grows after each request taken whole, but only the request's first range tries the larger
   * size: a provider's limit then costs one refused range, not a request's worth.
   */
  async function* logsWalk(wallet: string, cur: Cursor, floor: number, firstHead: string | undefined, signal?: AbortSignal): AsyncIterable<HistoryBatch> {
    let head = firstHead;
    const cap = await logsRangeCap();
    let range = Math.min(maxRange, cap ?? initialRange);
    let probe = range;
    let to = cur.top;
    let below = cur.below;
    while (to >= floor) {
      signal?.throwIfAborted();
      // The next ranges, newest first, down to the floor; one request scans them all.
      const ranges: [number, number][] = [];
      for (let t = to; ranges.length < rangesPerRequest && t >= floor;) {
        const f = Math.max(floor, t - (ranges.length === 0 ? probe : range) + 1);
        ranges.push([f, t]);
        t = f - 1;
      }
      const results = await getLogsRanges(wallet, ranges, signal);
      // The ranges taken, up to the first refused one (those after it are scanned again).
      let taken = 0;
      const logs: RpcLog[] = [];
      for (; taken < ranges.length; taken++) {
        const r = results[taken];
        if (r.error) {
          range = rangeAfterRefusal(ranges[taken][1] - ranges[taken][0] + 1, r.error);
          probe = range;
          break;
        }
        logs.push(...r.logs);
      }
      if (taken > 0) {
        const from = ranges[taken - 1][0];
        const { txs, hashes } = transactionsOf(logs, below);
        below = undefined;
        // The Transfer logs name the tokens and, most of the time, the pools (the wallet's
        // counterparties): their metadata and factories are asked alongside the receipts rather
        // than after them, one round trip less before the first trades (a miss is asked after).
        prefetchMetadata(wallet, logs, signal);
        const done = from <= floor;
        // Dense stretches are decoded and delivered in parts, so a batch never waits for
        // thousands of receipts; a part's position is its oldest transaction (resume below it).
        for (let i = 0; i === 0 || i < hashes.length; i += receiptsPerBatch) {
          const part = hashes.slice(i, i + receiptsPerBatch);
          const trades = await buildTrades(wallet, txs, part, signal);
          trades.sort((a, b) => (a.position === b.position ? a.leg - b.leg : a.position < b.position ? 1 : -1));
          const last = i + receiptsPerBatch >= hashes.length;
          const oldest = txs.get(part[part.length - 1]);
          const position = last ? String(from) : evmPosition(oldest!.block, oldest!.index);
          yield { trades, position, ...(head !== undefined ? { head } : {}), done: last && done };
          head = undefined;
        }
        if (done) return;
        to = from - 1;
        // A request taken whole: the probe size is the range now, and the next probe is twice
        // that, never past what the provider is known to take.
        if (taken === ranges.length) {
          range = Math.max(range, probe);
          probe = Math.min(maxRange, range * 2, (await logsRangeCap()) ?? Infinity);
        }
      }
    }
    // Only reached when floor > 0 and the loop ended exactly on it.
    yield { trades: [], position: String(floor), done: true };
  }

  /**
   * The account-indexed path: the node's Otterscan index lists the wallet's transactions (sent
   * by it, to it, or calling it: an ERC-4337 account, a Safe or an EIP-7702 account is called
   * in its own trades) newest first with their receipts, a page per call. A full page may end
   * inside a block, so its oldest block is left to the next page (asked from just above that
   * block). What the index cannot see is a settlement paying the wallet by token transfer alone
   * (CoW, UniswapX): where the chain has settlement contracts, their logs naming the wallet are
   * scanned over the page's blocks.
   */
  async function* otsWalk(wallet: string, cur: Cursor, floor: number, firstHead: string | undefined, signal?: AbortSignal): AsyncIterable<HistoryBatch> {
    let head = firstHead;
    let top = cur.top;
    let below = cur.below;
    const pageSize = Math.max(1, Math.floor(options.otsPageSize ?? 100));
    for (;;) {
      signal?.throwIfAborted();
      const page = await otsSearchTransactionsBefore(rpc, wallet, top + 1, pageSize, signal);
      const txs: TxMap = new Map();
      const known = new Map<string, RpcReceipt>();
      page.txs.forEach((tx, i) => {
        const r = page.receipts[i];
        const h = tx.hash.toLowerCase();
        const t = { block: num(tx.blockNumber), index: num(tx.transactionIndex) } as { block: number; index: number; ts?: number };
        const stamp = r?.logs?.find((l) => l.blockTimestamp)?.blockTimestamp ?? (r as { timestamp?: string } | undefined)?.timestamp;
        if (stamp) t.ts = num(stamp);
        txs.set(h, t);
        if (r) known.set(h, { ...r, from: r.from ?? tx.from, to: r.to ?? tx.to ?? null });
      });
      const blocks = [...new Set([...txs.values()].map((t) => t.block))];
      const lowest = blocks.length ? Math.min(...blocks) : floor;
      let last = page.lastPage || blocks.length === 0 || lowest < floor;
      // The oldest block of a full page may continue on the next: hold it back (unless it is the whole page).
      let nextTop = lowest - 1;
      if (!last && blocks.length > 1) {
        nextTop = lowest;
        for (const [h, t] of txs) if (t.block === lowest) txs.delete(h);
      }
      if (nextTop < floor) last = true;
      const windowLow = last ? floor : nextTop + 1;
      if (settlementAddresses.length && top >= windowLow) {
        for (const l of await scanLogs(windowLow, top, settlementFilters(wallet), signal)) {
          const h = l.transactionHash.toLowerCase();
          if (!txs.has(h))
            txs.set(h, { block: num(l.blockNumber), index: num(l.transactionIndex), ...(l.blockTimestamp ? { ts: num(l.blockTimestamp) } : {}) });
        }
      }
      const pos = (h: string) => evmPosition(txs.get(h)!.block, txs.get(h)!.index);
      const hashes = [...txs.keys()].filter((h) => txs.get(h)!.block >= floor && txs.get(h)!.block <= top && (!below || pos(h) < below));
      hashes.sort((a, b) => (pos(b) < pos(a) ? -1 : 1));
      const trades = await buildTrades(wallet, txs, hashes, signal, known);
      trades.sort((a, b) => (a.position === b.position ? a.leg - b.leg : a.position < b.position ? 1 : -1));
      yield { trades, position: String(last ? floor : nextTop + 1), ...(head !== undefined ? { head } : {}), done: last };
      head = undefined;
      if (last) return;
      top = nextTop;
      below = undefined;
    }
  }

  const explorerClient = options.explorer
    ? (() => {
        const u = new URL(options.explorer.url);
        const query = Object.fromEntries(u.searchParams);
        u.search = '';
        return {
          client: createHttpJsonClient({ url: u.toString(), fetch: options.fetch, timeoutMs: options.timeoutMs, maxInFlight: 2 }),
          query,
          key: options.explorer.key,
        };
      })()
    : null;

  /**
   * The explorer path: the explorer's lists of the wallet's transactions (`txlist`) and token
   * transfers (`tokentx`), newest first, a page of each per step; the window of a step is the
   * blocks both lists cover whole (a full page's oldest block may continue on the next page, so it
   * is left to the next step). The receipts come from the chain's RPC, below its confirmation
   * point: a transaction the RPC does not know is not served.
   */
  async function* explorerWalk(wallet: string, cur: Cursor, floor: number, firstHead: string | undefined, signal?: AbortSignal): AsyncIterable<HistoryBatch> {
    const ex = explorerClient!;
    const pageSize = Math.max(2, Math.floor(options.explorerPageSize ?? 1_000));
    let head = firstHead;
    let top = cur.top;
    let below = cur.below;
    for (;;) {
      signal?.throwIfAborted();
      const lists = await Promise.all(
        (['txlist', 'tokentx'] as const).map((action) =>
          explorerAccountList(ex.client, { action, address: wallet, endBlock: top, offset: pageSize, key: ex.key, query: ex.query, signal }),
        ),
      );
      // Each full list is whole only above its oldest block; the window is what both cover.
      let low = floor;
      for (const l of lists) {
        if (l.length >= pageSize) {
          const oldest = Math.min(...l.map((e) => num(e.blockNumber)));
          low = Math.max(low, oldest + 1);
        }
      }
      if (low > top) low = top; // a single block fuller than a page: take what was listed
      const txs: TxMap = new Map();
      for (const e of lists.flat()) {
        const b = num(e.blockNumber);
        if (b < low || b > top) continue;
        const h = e.hash.toLowerCase();
        if (!txs.has(h)) txs.set(h, { block: b, index: e.transactionIndex !== undefined ? num(e.transactionIndex) : 0 });
      }
      const last = low <= floor;
      const trades = await buildTrades(wallet, txs, [...txs.keys()], signal, undefined, true);
      // Where the RPC's receipts put them, inside this step's window and below the confirmation
      // point (an explorer's index may be ahead of the RPC, or stale).
      const kept = trades.filter((t) => {
        const b = Number(t.position.slice(0, 12));
        return b >= low && b <= top && (!below || t.position < below);
      });
      kept.sort((a, b) => (a.position === b.position ? a.leg - b.leg : a.position < b.position ? 1 : -1));
      yield { trades: kept, position: String(last ? floor : low), ...(head !== undefined ? { head } : {}), done: last };
      head = undefined;
      if (last) return;
      top = low - 1;
      below = undefined;
    }
  }

  const settlementAddresses = chain.dexes.filter((d) => d.kind === 'cow' || d.kind === 'uniswapx').map((d) => dexAddress(d));
  /** Settlement events naming the wallet: CoW's Trade (owner, topic 1), UniswapX's Fill (swapper, topic 3). */
  const settlementFilters = (wallet: string) => (from: number, to: number) => {
    const w = '0x' + wallet.slice(2).padStart(64, '0');
    const base = { fromBlock: hex(from), toBlock: hex(to), address: settlementAddresses };
    return [
      { ...base, topics: [COW_TRADE_TOPIC, w] },
      { ...base, topics: [UNISWAPX_FILL_TOPIC, null, null, w] },
    ];
  };

  /** Every log of `filtersFor` over [from, to], in ranges the provider takes (the learned cap, shrunk on refusal). */
  async function scanLogs(from: number, to: number, filtersFor: (from: number, to: number) => LogFilter[], signal?: AbortSignal): Promise<RpcLog[]> {
    const out: RpcLog[] = [];
    let range = Math.min(maxRange, (await logsRangeCap()) ?? maxRange);
    let t = to;
    while (t >= from) {
      signal?.throwIfAborted();
      const ranges: [number, number][] = [];
      for (let x = t; ranges.length < rangesPerRequest && x >= from;) {
        const f = Math.max(from, x - range + 1);
        ranges.push([f, x]);
        x = f - 1;
      }
      const per = ranges.map(([a, b]) => filtersFor(a, b));
      const answers = await ethGetLogsMany(rpc, per.flat(), signal);
      let k = 0;
      for (let i = 0; i < ranges.length; i++) {
        const n = per[i].length;
        const mine = answers.slice(k, k + n);
        k += n;
        const bad = mine.find((a) => !a.ok);
        if (bad && !bad.ok) {
          range = rangeAfterRefusal(ranges[i][1] - ranges[i][0] + 1, bad.error);
          break;
        }
        for (const a of mine) if (a.ok && Array.isArray(a.result)) out.push(...a.result);
        t = ranges[i][0] - 1;
      }
    }
    return out;
  }

  /**
   * The cheapest path the endpoints offer, asked once (ots_getApiLevel) unless configured: the
   * node's Otterscan index, else the explorer API when one is configured, else log scans.
   */
  let path: Promise<Path> | null = null;
  let chosen: Path | undefined;
  const PATH_TEXT: Record<Path, string> = {
    ots: "the node's Otterscan index (ots_)",
    explorer: 'the explorer API (txlist, tokentx) and the RPC',
    logs: 'Transfer-log range scans',
  };
  function choose(p: Path): void {
    if (chosen !== p) options.log?.(`${chain.slug}: finding wallets' transactions by ${PATH_TEXT[p]}`);
    chosen = p;
  }
  function discoveryPath(signal?: AbortSignal): Promise<Path> {
    if (!path) {
      const mode = options.discovery ?? 'auto';
      const otherwise: Path = explorerClient ? 'explorer' : 'logs';
      path =
        mode === 'ots' || mode === 'logs' || (mode === 'explorer' && explorerClient)
          ? Promise.resolve(mode as Path)
          : mode === 'explorer'
            ? Promise.resolve('logs' as Path)
            : otsApiLevel(rpc, signal).then(
                (level): Path => (typeof level === 'number' && level >= 8 ? 'ots' : otherwise),
                (e) => {
                  // A node without the namespace answers "method not found": the next path. A
                  // network failure says nothing: ask again on the next walk.
                  if (e instanceof HistoryError && e.code === 'rpc_error') return otherwise;
                  path = null;
                  throw e;
                },
              );
      path.then(choose, () => {});
    }
    return path;
  }

  async function* history(p: HistoryParameters): AsyncIterable<HistoryBatch> {
    const wallet = normalizeEvmAddress(p.wallet);
    if (!wallet) throw new HistoryError('invalid_address', `not an EVM address: ${p.wallet}`);
    const signal = p.signal;
    const floor = p.until !== undefined ? parseUntil(p.until) + 1 : 0;
    let head: string | undefined;
    let cur: Cursor;
    // The discovery path is asked alongside the head (one round trip for both on a first walk).
    const pathChosen = discoveryPath(signal);
    pathChosen.catch(() => {});
    if (p.before !== undefined) cur = parseBefore(p.before);
    else {
      const h = await confirmedHead(signal);
      head = String(h);
      cur = { top: h };
    }
    if (cur.top < floor) {
      yield { trades: [], position: String(Math.max(floor, 0)), ...(head !== undefined ? { head } : {}), done: true };
      return;
    }
    // A path that refuses (an index turned off, a method a load balancer routes elsewhere, an
    // explorer key revoked) hands this walk to the next one from the last position delivered, and
    // later walks start there: nothing delivered is lost or repeated.
    let p0 = await pathChosen;
    while (p0 !== 'logs') {
      const walk = p0 === 'ots' ? otsWalk : explorerWalk;
      try {
        for await (const b of walk(wallet, cur, floor, head, signal)) {
          yield b;
          if (b.done) return;
          cur = parseBefore(b.position);
          head = undefined;
        }
        return;
      } catch (e) {
        if (!(e instanceof HistoryError && e.code === 'rpc_error')) throw e;
        const next: Path = p0 === 'ots' && explorerClient ? 'explorer' : 'logs';
        options.log?.(`${chain.slug}: ${PATH_TEXT[p0]} refused (${e.message}); using ${PATH_TEXT[next]}`);
        path = Promise.resolve(next);
        choose(next);
        p0 = next;
      }
    }
    yield* logsWalk(wallet, cur, floor, head, signal);
  }

  return {
    chain: chain.slug,
    stats: rpc.stats,
    get discovery() {
      return chosen;
    },
    history,
  };
}
