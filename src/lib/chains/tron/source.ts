/**
 * The Tron chain source, on the four TronGrid endpoints of tron-endpoints.md. It composes the
 * stages of a walk:
 *
 *   discovery/  the wallet's own confirmed transactions, newest first, 200 a page (the next page
 *               fetched while this one is decoded), in runs with durable positions (position.ts)
 *   fetch/      of each run, the successful contract calls the wallet sent that can be swaps,
 *               their transaction infos (as many at once as the chain's limiter lets through),
 *               decoded
 *   enrich/     the SunSwap V4 pool keys a multi-hop route needs (before decoding), the trades'
 *               token symbols and decimals
 *
 * A page yields one batch. (A realtime stage, following the chain's head, would sit beside
 * discovery and feed the same fetch stage.)
 */
import {
  pollingRealtime,
  type ChainSource,
  type HistoryBatch,
  type HistoryParameters,
  type RedecodeParameters,
  type RedecodeResult,
  type TokenCache,
} from '../../core/chain-source.js';
import { HistoryError } from '../../core/errors.js';
import { createHttpJsonClient, type HttpJsonClient, type HttpJsonStats } from '../../rpc/http-json.js';
import type { Limiter } from '../../rpc/limiter.js';
import { tronToHex } from './address.js';
import { accountPages, type AccountRun } from './discovery/account-pages.js';
import { createTronPoolKeys, type TronPoolKeyCache } from './enrich/pool-keys.js';
import { withTokens } from './enrich/with-tokens.js';
import { fetchSwapCalls, type DecodedCall, type FetchedCalls } from './fetch/fetch-swap-calls.js';
import { refetchRecords } from './fetch/refetch-records.js';
import { END_MARKER, marker, parseMarker, type Marker } from './position.js';
import { unsolidifiedError } from './rpc-methods.js';
import { recentWalletTokens, type RecentTokens } from './tokens/resolve-tokens.js';

export { tronTradePosition } from './position.js';

/**
 * The version of the Tron decoding rules (ChainSource.decoderVersion); histories stored by an
 * older one are decoded again. 0 (none stated): the rules before issue 23. 1: a SunSwap V4 route's
 * TRX middle leg from its Swap deltas, V4 hooks' TRX fees inside the venue's figure, OKX's DEX
 * router as the aggregator `okx`.
 */
export const TRON_DECODER_VERSION = 1;

export interface TronSourceOptions {
  rpcUrl: string;
  /** The chain's slug (`tron`). */
  chain?: string;
  tokens: TokenCache;
  /** SunSwap V4 pool keys by pool id, looked up once per pool (the server's store; memory when absent). */
  poolKeys?: TronPoolKeyCache;
  /** Sent with every request (TRON-PRO-API-KEY). */
  headers?: Record<string, string>;
  /** HTTP requests in flight (RPC_MAX_IN_FLIGHT_TRON, default 8) and started per second (RPC_RPS_TRON). */
  maxInFlight?: number;
  requestsPerSecond?: number;
  timeoutMs?: number;
  /** A limiter shared beyond this source (the server's cross-instance rate); else its own. */
  limiter?: Limiter;
  /** Records per account page; TronGrid's maximum, 200, by default. */
  pageSize?: number;
  fetch?: typeof fetch;
  /** A client to share (tests count its requests); built from rpcUrl when absent. */
  client?: HttpJsonClient;
}

export interface TronSource extends ChainSource {
  /** HTTP requests, retries and parse time of its client, and the milliseconds spent decoding. */
  readonly stats: HttpJsonStats & { decodeMs: number };
}

/**
 * A run's calls to deliver, and the head it names. A transaction listed as confirmed whose info
 * the solidity node does not give yet (the listing node is a moment ahead of it) is neither
 * delivered nor passed over. On a walk's first run, the one naming the head, its block and every
 * newer one wait: the run delivers the calls below that block and names a head below it, so the
 * next refresh, walking down to that head, reads them again (solidification goes block by block,
 * so these are the newest). On any other run (a later one, whose walk named a head above it
 * already, or a walk resumed from a position) the walk fails, retryable: nothing past it is
 * delivered, and a walk resumed from the positions stored reads it again.
 */
function holdUnsolidified(run: AccountRun, fetched: FetchedCalls, until: Marker | null): { calls: DecodedCall[]; head?: string } {
  if (!fetched.unsolidified.length) return { calls: fetched.calls, head: run.head };
  if (run.head === undefined) throw unsolidifiedError(fetched.unsolidified[0].txID);
  const cut = Math.min(...fetched.unsolidified.map((r) => r.blockNumber));
  // The newest record below the cut; else the block the next run delivers (its oldest, held back
  // by discovery); else, on the last run, the head the walk started from.
  const below = run.records.find((r) => r.blockNumber < cut);
  const head = below ? marker({ block: below.blockNumber, ts: below.block_timestamp }) : !run.last ? run.position : until ? marker(until) : END_MARKER;
  return { calls: fetched.calls.filter((c) => c.record.blockNumber < cut), head };
}

export function createTronSource(options: TronSourceOptions): TronSource {
  const chain = options.chain ?? 'tron';
  const client =
    options.client ??
    createHttpJsonClient({
      url: options.rpcUrl,
      headers: options.headers,
      maxInFlight: options.maxInFlight,
      requestsPerSecond: options.requestsPerSecond,
      limiter: options.limiter,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    });
  const pageSize = Math.min(200, Math.max(1, options.pageSize ?? 200));
  const stats = { decodeMs: 0 };
  const poolKeys = createTronPoolKeys({ client, chain, cache: options.poolKeys });

  async function* history(p: HistoryParameters): AsyncIterable<HistoryBatch> {
    const wallet = tronToHex(p.wallet);
    if (!wallet) throw new HistoryError('invalid_address', `not a Tron address: ${p.wallet}`);
    const signal = p.signal;
    const before = p.before !== undefined ? parseMarker(p.before, 'position') : null;
    const until = p.until !== undefined ? parseMarker(p.until, 'head marker') : null;
    // The wallet's recent tokens, asked once a walk and only when a token is not cached.
    let recentTokens: Promise<RecentTokens> | null = null;
    const recent = () => (recentTokens ??= recentWalletTokens(client, p.wallet, signal));
    for await (const run of accountPages({ client, pageSize }, { wallet: p.wallet, before, until, signal })) {
      const fetched = await fetchSwapCalls({ client, stats, poolKeys }, wallet, run.records, signal);
      const { calls, head } = holdUnsolidified(run, fetched, until);
      const { trades, unexplained } = await withTokens({ chain, client, tokens: options.tokens }, calls, { wallet: p.wallet, recent, signal });
      yield {
        trades,
        position: run.position,
        ...(head !== undefined ? { head } : {}),
        done: run.last,
        ...(unexplained.length ? { unexplained } : {}),
      };
    }
  }

  /** The stored trades' transactions decoded again: fetched by id (refetch-records.ts), then as a walk decodes them. */
  async function redecode(p: RedecodeParameters): Promise<RedecodeResult> {
    const wallet = tronToHex(p.wallet);
    if (!wallet) throw new HistoryError('invalid_address', `not a Tron address: ${p.wallet}`);
    if (p.transactions.length === 0) return { trades: [], unexplained: [] };
    const { records, infos } = await refetchRecords(
      client,
      p.wallet,
      p.transactions.map((t) => t.signature),
      p.signal,
    );
    // Every info is known here (refetchRecords fetched each, or failed): none is left unsolidified.
    const { calls } = await fetchSwapCalls({ client, stats, poolKeys }, wallet, records, p.signal, infos);
    let recentTokens: Promise<RecentTokens> | null = null;
    const recent = () => (recentTokens ??= recentWalletTokens(client, p.wallet, p.signal));
    const read = calls.filter((c) => c.trades.length || c.unexplained);
    return withTokens({ chain, client, tokens: options.tokens }, read, { wallet: p.wallet, recent, signal: p.signal });
  }

  return {
    chain,
    decoderVersion: TRON_DECODER_VERSION,
    get stats() {
      return { ...client.stats, decodeMs: stats.decodeMs };
    },
    history,
    redecode,
    // TronGrid pushes nothing: every followed wallet's newest transactions are asked for every 3 s
    // (its refresh: one account request when nothing is new), through the chain's shared limiter.
    realtime: pollingRealtime(3_000),
  };
}
