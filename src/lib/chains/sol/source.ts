/**
 * The Solana chain source: a wallet's trades, newest first, from any Solana JSON-RPC endpoint.
 * It composes the stages of a walk (all requests through one limiter, so at most `maxInFlight`
 * HTTP requests at once):
 *
 *   discovery/  getSignaturesForAddress pages of 1,000 in sequence, each signature numbered
 *   fetch/      each page cut into chunks of `batchSize`; each chunk one getTransaction batch,
 *               started at once (up to `lookahead` chunks ahead of the consumer) and decoded
 *               transaction by transaction as its answer arrives, here or in the offload
 *   enrich/     the decoded trades' symbols; at a cold start, the held mints' symbols meanwhile
 *
 * Chunks are yielded in order as HistoryBatches, each with the position reached. A failure that
 * survives the transport's retries ends the walk by throwing, after every chunk before it was
 * yielded, so the caller keeps all that was fetched and resumes from the last position it stored.
 * (A realtime stage, following the chain's head, would sit beside discovery and feed the same
 * fetch stage.)
 *
 * A re-decode (`redecode`) skips discovery: the named transactions go through the same fetch and
 * enrich stages (fetch/refetch-transactions.ts), each keeping the position it was named with.
 */
import { wsUrlOf } from '../../rpc/ws-subscriptions.js';
import { solanaRealtime } from './realtime/logs-subscribe.js';
import {
  type ChainSource,
  type HistoryBatch,
  type HistoryParameters,
  type RedecodeParameters,
  type RedecodeResult,
  type TokenCache,
  type TokenInfo,
} from '../../core/chain-source.js';
import { newestListed } from '../../core/activity.js';
import { HistoryError } from '../../core/errors.js';
import { newestFirst } from '../../core/trade.js';
import type { Offload } from '../../core/offload.js';
import { createRpcTransport, type RpcTransport, type RpcTransportOptions } from '../../rpc/json-rpc.js';
import { isSolanaAddress } from './address.js';
import type { SolanaDecoder } from './decode/decode-batch.js';
import { decodeSolanaTransaction } from './decode/decode-transaction.js';
import { signaturePages } from './discovery/signature-pages.js';
import { prefetchHeldMints } from './enrich/prefetch-held-mints.js';
import { withSymbols, type WithSymbolsResult } from './enrich/with-symbols.js';
import { ChunkQueue } from './fetch/chunk-queue.js';
import { fetchTransactions, type FetchTransactionsContext } from './fetch/fetch-transactions.js';
import { refetchTransactions } from './fetch/refetch-transactions.js';
import { scheduleChunks } from './fetch/schedule-chunks.js';
import { decodeState, encodeState, END_POSITION } from './position.js';
import type { SignatureInfo } from './rpc-methods.js';
import { createSolanaTokenResolver, type SolanaTokenResolver } from './tokens/token-resolver.js';

export type { SolanaDecoder } from './decode/decode-batch.js';
export { tradePosition } from './position.js';

/**
 * The version of the Solana decoding rules (ChainSource.decoderVersion); histories stored by an
 * older one are decoded again. 0 (none stated): the rules before issue 23. 1: Moonit trades from
 * its log-line events, Jupiter v1-v3 routes.
 */
export const SOLANA_DECODER_VERSION = 1;

export interface SolanaSourceOptions {
  /** The endpoint (RPC_URL_SOL); or pass a ready `transport`. */
  rpcUrl?: string;
  transport?: RpcTransport;
  tokens: TokenCache;
  /** Signatures per getTransaction batch and per HistoryBatch. Default 100. */
  batchSize?: number;
  /** HTTP requests in flight (when the source builds the transport). Default 8. */
  maxInFlight?: number;
  /** HTTP request starts per second (when the source builds the transport). Default unlimited. */
  requestsPerSecond?: number;
  /** Further transport settings (timeouts, retries, batching) when the source builds it. */
  transportOptions?: Partial<RpcTransportOptions>;
  /**
   * Signatures in a walk's first chunk. Default 20: the first batch is what a client waits for
   * (the first NDJSON line), and 20 transactions (~300 KB) parse and decode in a few ms where
   * 100 (~1.5 MB) take tens of ms on a busy core.
   */
  firstBatchSize?: number;
  /** The realtime stage's WebSocket (logsSubscribe); undefined: the RPC URL's, null: none (poll only). */
  wsUrl?: string | null;
  /** The realtime stage's safety poll of each followed wallet (default 10,000 ms). */
  realtimePollMs?: number;
  /** Signatures per getSignaturesForAddress page. Default and RPC maximum 1,000. */
  pageSize?: number;
  /** Chunks fetched ahead of the consumer. Default 2 x maxInFlight, enough to keep every slot busy. */
  lookahead?: number;
  commitment?: 'confirmed' | 'finalized';
  decode?: SolanaDecoder;
  /**
   * Another thread to read and decode getTransaction batch answers in (the server's worker
   * pool): JSON parsing and decoding, about two thirds of a walk's CPU, then run beside the
   * fetching and storing instead of taking turns with them. Not used with a custom `decode`.
   */
  offload?: Offload;
  /**
   * Mints held by the wallet whose symbols are looked up while the first signature page is
   * fetched, at the start of a walk from the top. Default 100; 0 turns it off. See `speculate`.
   */
  prefetchHeldMints?: number;
  /** Resolver of symbols; built from `transport` and `tokens` when omitted. */
  tokenResolver?: SolanaTokenResolver;
}

export interface SolanaSourceStats {
  signaturePages: number;
  /** getTransaction batch requests (one per chunk with a successful signature). */
  transactionBatches: number;
  transactions: number;
  /** Milliseconds spent in the decoder (JSON.parse time is in transport.stats.parseMs). */
  decodeMs: number;
}

export interface SolanaSource extends ChainSource {
  readonly transport: RpcTransport;
  readonly tokenResolver: SolanaTokenResolver;
  readonly stats: SolanaSourceStats;
}

/** What a walk shares with the stages: the settings resolved from the options, once. */
interface SolanaWalkContext extends FetchTransactionsContext {
  tokenResolver: SolanaTokenResolver;
  batchSize: number;
  firstBatchSize: number;
  pageSize: number;
  lookahead: number;
  prefetchHeldMints: number;
  stats: SolanaSourceStats;
}

export function createSolanaSource(options: SolanaSourceOptions): SolanaSource {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 100));
  const maxInFlight = options.maxInFlight ?? 8;
  if (!options.transport && !options.rpcUrl) throw new HistoryError('config_invalid', 'createSolanaSource needs rpcUrl or transport');
  const transport =
    options.transport ??
    createRpcTransport({
      url: options.rpcUrl ?? '',
      batchSize,
      maxInFlight,
      requestsPerSecond: options.requestsPerSecond,
      ...options.transportOptions,
    });
  const commitment = options.commitment ?? 'confirmed';
  const offload = options.decode ? undefined : options.offload;
  // Built on the first request for the chain: the worker boots while that request's first
  // signature page is fetched, and a server that never serves Solana never starts one.
  void offload?.warm?.();
  const ctx: SolanaWalkContext = {
    transport,
    commitment,
    decode: options.decode ?? decodeSolanaTransaction,
    offload,
    tokenResolver: options.tokenResolver ?? createSolanaTokenResolver({ transport, cache: options.tokens, commitment }),
    batchSize,
    firstBatchSize: Math.max(1, Math.min(batchSize, Math.floor(options.firstBatchSize ?? 20))),
    pageSize: Math.min(1000, Math.max(1, Math.floor(options.pageSize ?? 1000))),
    lookahead: Math.max(1, options.lookahead ?? 2 * maxInFlight),
    prefetchHeldMints: Math.max(0, Math.floor(options.prefetchHeldMints ?? 100)),
    stats: { signaturePages: 0, transactionBatches: 0, transactions: 0, decodeMs: 0 },
  };
  return {
    chain: 'sol',
    decoderVersion: SOLANA_DECODER_VERSION,
    transport,
    tokenResolver: ctx.tokenResolver,
    stats: ctx.stats,
    history: (parameters) => walk(ctx, parameters),
    redecode: (parameters) => redecode(ctx, parameters),
    // logsSubscribe over the WebSocket, and the safety poll of issue 24: each followed wallet's
    // refresh every 10 s (getSignaturesForAddress down to the newest known signature: one request
    // when nothing is new).
    realtime: (parameters) =>
      solanaRealtime(
        { wsUrl: options.wsUrl === undefined ? (options.rpcUrl ? wsUrlOf(options.rpcUrl) : null) : options.wsUrl, pollMs: options.realtimePollMs ?? 10_000 },
        parameters,
      ),
  };
}

/**
 * The wallet's trades in the named transactions as this version decodes them, and those no trade
 * explains, newest first (by position, then leg), as a walk yields them: each transaction fetched
 * again and decoded (refetch-transactions.ts), then the symbols (the enrich stage). Nothing for a
 * transaction that is neither or failed; a transaction the node does not return fails the call,
 * retryable.
 */
async function redecode(ctx: SolanaWalkContext, p: RedecodeParameters): Promise<RedecodeResult> {
  if (!isSolanaAddress(p.wallet)) throw new HistoryError('invalid_address', 'not a Solana address', { context: { wallet: p.wallet } });
  const signal = p.signal ?? new AbortController().signal;
  const decoded = await refetchTransactions(ctx, p.wallet, p.transactions, signal);
  // A symbol memory of this call only; the resolver's cache keeps them beyond it.
  const { trades, unexplained } = await withSymbols({ tokenResolver: ctx.tokenResolver, known: new Map() }, decoded, signal);
  return {
    trades: trades.sort(newestFirst),
    unexplained: unexplained.sort(newestListed),
  };
}

async function* walk(ctx: SolanaWalkContext, parameters: HistoryParameters): AsyncGenerator<HistoryBatch> {
  const { wallet } = parameters;
  if (!isSolanaAddress(wallet)) throw new HistoryError('invalid_address', 'not a Solana address', { context: { wallet } });
  parameters.signal?.throwIfAborted();
  const start = parameters.before ? decodeState(parameters.before, 'before') : null;
  const until = parameters.until ? decodeState(parameters.until, 'until') : null;
  const untilSignature = until && until !== 'end' ? until.signature : undefined;
  if (start === 'end') {
    yield { trades: [], position: END_POSITION, done: true };
    return;
  }

  const ctl = new AbortController();
  const outer = parameters.signal;
  const onAbort = () => ctl.abort(outer!.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  const signal = ctl.signal;

  const queue = new ChunkQueue(ctx.lookahead);
  const symbols = { tokenResolver: ctx.tokenResolver, known: new Map<string, TokenInfo>() };
  const fetchChunk = async (signatures: readonly SignatureInfo[], positions: readonly string[], first: boolean): Promise<WithSymbolsResult> =>
    withSymbols(symbols, await fetchTransactions(ctx, { wallet, signatures, positions, first, signal }), signal);
  const scheduled = scheduleChunks(
    { batchSize: ctx.batchSize, firstBatchSize: ctx.firstBatchSize, fetchChunk },
    {
      pages: signaturePages({ ...ctx, firstPageSize: ctx.firstBatchSize }, { wallet, from: start, untilSignature, signal }),
      queue,
      // Resume point of the empty walk: unchanged.
      startPosition: start ? encodeState(start) : (parameters.until ?? END_POSITION),
      fromTop: !start,
      until: parameters.until,
      // A cold walk from the top: look up the symbols of the wallet's held mints meanwhile. Not
      // on resumes (deep in the history) nor refreshes (the symbols are known by then). Asked
      // for after the page, so the page (the first line's critical path) takes the connection
      // already open and the listing any new one (a TCP, or TLS, handshake).
      onFirstPageAsked: () => {
        if (!start && !untilSignature && ctx.prefetchHeldMints > 0) {
          prefetchHeldMints({ ...ctx, limit: ctx.prefetchHeldMints }, wallet, signal).catch(() => {});
        }
      },
      signal,
    },
  ).then(
    () => queue.end(),
    (e) => queue.end(e),
  );

  try {
    for (;;) {
      // Batches already fetched are not handed out after an abort: the caller asked to stop.
      if (outer?.aborted) throw outer.reason;
      const chunk = await queue.take();
      if (!chunk) {
        if (outer?.aborted) throw outer.reason;
        throw queue.endError ?? new HistoryError('internal', 'walk ended without a last batch');
      }
      let found: WithSymbolsResult;
      try {
        found = await chunk.result;
      } catch (e) {
        if (outer?.aborted) throw outer.reason;
        throw e;
      }
      const batch: HistoryBatch = { trades: found.trades, position: chunk.position, done: chunk.done };
      // Positions of a chunk go down in walk order: newest first already.
      if (found.unexplained.length) batch.unexplained = found.unexplained;
      if (chunk.head !== undefined) batch.head = chunk.head;
      yield batch;
      if (chunk.done) return;
    }
  } finally {
    ctl.abort(outer?.aborted ? outer.reason : new DOMException('walk ended', 'AbortError'));
    queue.notifyScheduler();
    outer?.removeEventListener('abort', onAbort);
    await scheduled;
  }
}
