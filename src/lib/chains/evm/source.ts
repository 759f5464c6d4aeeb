import { toFunctionSelector } from 'viem';
import type { ChainKeyedCache, ChainSource, HistoryBatch, HistoryParameters, TokenCache } from '../../core/chain-source.js';
import { formatUnits } from '../../core/decimal.js';
import { HistoryError } from '../../core/errors.js';
import { isoFromUnixSeconds, type SourceTrade } from '../../core/trade.js';
import { ERC20_TRANSFER_TOPIC } from '../shared/uniswap-v2-events.js';
import { normalizeEvmAddress, toChecksumAddress } from './address.js';
import { decodeReceipt, swapPools, USER_OPERATION_EVENT_TOPIC, type RpcLog, type RpcReceipt } from './decode/decode-receipt.js';
import { createMemoryPoolKeyCache, type PoolKeyCache } from './decode/pool-key-cache.js';
import { decodeInitializeLog, decodePoolKeysResult, poolKeysCallData, v4PoolIds, V4_INITIALIZE_TOPIC, type V4PoolKey } from './decode/v4.js';
import { dexForFactory, dexForSingleton, type EvmChainConfig, type EvmDexKind } from './registry.js';
import { createRpcTransport, type RpcTransport, type RpcTransportStats } from '../../rpc/json-rpc.js';
import { ethBlockNumber, ethCallMany, ethGetBlockByNumber, ethGetBlocks, ethGetLogsMany, ethGetReceipts, rpcError } from './rpc-methods.js';
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
  /** Block ranges scanned per HTTP request (2 eth_getLogs calls each). Default 8. */
  rangesPerRequest?: number;
  /** What the source learns of its provider (the largest range it takes), kept across walks and restarts (the server's store). */
  hints?: ChainKeyedCache<number>;
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

export interface EvmSource extends ChainSource {
  readonly stats: RpcTransportStats;
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
    });
  const initialRange = Math.max(1, options.initialRange ?? 2_000);
  const maxRange = Math.max(initialRange, options.maxRange ?? 1_000_000);
  const receiptsPerBatch = Math.max(1, options.receiptsPerBatch ?? 400);
  const rangesPerRequest = Math.max(1, Math.floor(options.rangesPerRequest ?? 8));
  /** Pool -> factory (lowercase) or null when `factory()` is absent; kept for the source's lifetime. */
  const poolFactories = new Map<string, string | null>();
  const aggregators = new Map((chain.aggregators ?? []).map((a) => [a.address, a.name]));
  const poolKeyCache = options.poolKeys ?? createMemoryPoolKeyCache();
  const positionManagers = new Map<string, string>();
  for (const d of chain.dexes) if (d.kind === 'v4' && d.positionManager) positionManagers.set(d.poolManager, d.positionManager);

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
   * Keys of the V4 pools swapped in these receipts: from the cache, else one batch of the
   * PositionManager's `poolKeys` (configured managers), else one batch of `Initialize` logs of
   * the pool id. A key not found leaves that pool's native side unknown (not cached, retried).
   */
  async function resolvePoolKeys(receipts: readonly RpcReceipt[], signal?: AbortSignal): Promise<Map<string, V4PoolKey>> {
    const ids = new Map<string, string>();
    for (const r of receipts) for (const [id, m] of v4PoolIds(r.logs)) ids.set(id, m);
    if (!ids.size) return new Map();
    const keys = await poolKeyCache.get(chain.slug, [...ids.keys()]);
    const found = new Map<string, V4PoolKey>();
    let missing = [...ids.keys()].filter((id) => !keys.has(id));
    const viaPositions = missing.filter((id) => positionManagers.has(ids.get(id)!));
    if (viaPositions.length) {
      const answers = await ethCallMany(
        rpc,
        viaPositions.map((id) => ({ to: positionManagers.get(ids.get(id)!)!, data: poolKeysCallData(id) })),
        signal,
      );
      viaPositions.forEach((id, i) => {
        const a = answers[i];
        const k = a.ok ? decodePoolKeysResult(a.result) : null;
        if (k) found.set(id, k);
      });
      missing = missing.filter((id) => !found.has(id));
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

  function dexOf(pool: string, kind: EvmDexKind): string {
    if (kind === 'v4') return dexForSingleton(chain, 'v4', pool)?.name ?? 'unknown-v4-fork';
    if (kind === 'balancer-v2') return dexForSingleton(chain, 'balancer-v2', pool)?.name ?? 'unknown';
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

  async function buildTrades(wallet: string, txs: TxMap, hashes: string[], signal?: AbortSignal): Promise<SourceTrade[]> {
    if (!hashes.length) return [];
    const receipts: RpcReceipt[] = (await ethGetReceipts(rpc, hashes, signal)).map((r, i) => {
      if (!r) throw new HistoryError('rpc_malformed_response', `receipt of ${hashes[i]} missing below the confirmation point`);
      return r;
    });
    // Only the wallet's own transactions (or bundles) can hold its trades: no lookups for others' swaps.
    const own = receipts.filter((r) => r.from?.toLowerCase() === wallet || r.logs.some((l) => l.topics[0]?.toLowerCase() === USER_OPERATION_EVENT_TOPIC));
    const poolKeys = await resolvePoolKeys(own, signal);
    const decoded = receipts.map((r) => decodeReceipt(r, wallet, chain, poolKeys));
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

    await resolvePools(
      withTrades.flatMap((r) => [...swapPools(r.logs)].filter(([, k]) => k === 'v2' || k === 'v3').map(([p]) => p)),
      signal,
    );
    const tokenSet = [...new Set(decoded.flat().map((d) => d.token))];
    const info = await resolveTokens(chain.slug, tokenSet, tokens, rpc, signal);

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

  async function* history(p: HistoryParameters): AsyncIterable<HistoryBatch> {
    const wallet = normalizeEvmAddress(p.wallet);
    if (!wallet) throw new HistoryError('invalid_address', `not an EVM address: ${p.wallet}`);
    const signal = p.signal;
    const floor = p.until !== undefined ? parseUntil(p.until) + 1 : 0;
    let head: string | undefined;
    let cur: Cursor;
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
    const cap = await logsRangeCap();
    let range = Math.min(maxRange, cap ?? initialRange);
    let to = cur.top;
    let below = cur.below;
    while (to >= floor) {
      signal?.throwIfAborted();
      // The next ranges, newest first, down to the floor; one request scans them all.
      const ranges: [number, number][] = [];
      for (let t = to; ranges.length < rangesPerRequest && t >= floor;) {
        const f = Math.max(floor, t - range + 1);
        ranges.push([f, t]);
        t = f - 1;
      }
      const results = await getLogsRanges(wallet, ranges, signal);
      let refused = false;
      for (let k = 0; k < ranges.length; k++) {
        const [from, rto] = ranges[k];
        const r = results[k];
        if (r.error) {
          const size = rto - from + 1;
          // Any refusal shrinks the range (providers word them in many ways); one block still
          // refused is a real error. Ranges after it are scanned again at the new size.
          if (size <= 1) throw rpcError('eth_getLogs', r.error);
          const suggested = suggestedRange(r.error.message);
          range = suggested !== null && suggested > 0 && suggested < size ? suggested : Math.max(1, Math.floor(size / 2));
          // A limit on the range is the provider's for good; one on the results depends on how
          // dense this stretch of the chain is, so it shrinks this walk's range only.
          if (!RESULT_LIMIT_TEXT.test(r.error.message)) learnRange(range);
          refused = true;
          break;
        }
        const { txs, hashes } = transactionsOf(r.logs, below);
        below = undefined;
        const done = from <= floor;
        // A dense range is decoded and delivered in parts, so a batch never waits for thousands of
        // receipts; a part's position is its oldest transaction (resume strictly below it).
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
      }
      // Grow after a request taken whole, never past what the provider is known to take.
      if (!refused) range = Math.min(maxRange, range * 2, (await logsRangeCap()) ?? Infinity);
    }
    // Only reached when floor > 0 and the loop ended exactly on it.
    yield { trades: [], position: String(floor), done: true };
  }

  return { chain: chain.slug, stats: rpc.stats, history };
}
