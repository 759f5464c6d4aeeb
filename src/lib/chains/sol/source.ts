/**
 * The Solana chain source: a wallet's trades, newest first, from any Solana JSON-RPC endpoint.
 *
 * Pipeline (all requests through one limiter, so at most `maxInFlight` HTTP requests at once):
 *  1. getSignaturesForAddress pages of 1,000, in sequence (each needs the previous page's last
 *     signature as `before`); the next page is asked for as soon as a page arrives.
 *  2. Each page is cut into chunks of `batchSize` signatures; each chunk is one getTransaction
 *     JSON-RPC batch, started at once (up to `lookahead` chunks ahead of the consumer), decoded
 *     for the wallet transaction by transaction as the batch answer arrives (the transport's
 *     `map`, so a parsed transaction is dropped before the next one is parsed), and its symbols
 *     resolved. Failed transactions (err set in the signature list) are skipped without fetching.
 *  3. Chunks are yielded in order as HistoryBatch es, each with the position reached.
 * A failure that survives the transport's retries ends the walk by throwing, after every chunk
 * before it was yielded, so the caller keeps all that was fetched and resumes from the last
 * position it stored.
 */
import type { ChainSource, HistoryBatch, HistoryParameters, TokenCache } from '../../core/chain-source.js';
import { HistoryError, redactUrl } from '../../core/errors.js';
import type { SourceTrade } from '../../core/trade.js';
import type { Offload } from '../../core/offload.js';
import { isSolanaAddress } from './address.js';
import {
  DECODE_TRANSACTION_BATCH,
  decodeForWallet,
  type DecodeTransactionBatchInput,
  type SolanaDecoder,
  type WalletTransaction,
} from './decode/decode-batch.js';
import { decodeSolanaTransaction, type SolanaDecodedTrade } from './decode/decode-transaction.js';
import type { BatchReading } from '../../rpc/read-batch.js';
import { createRpcTransport, type RpcTransport, type RpcTransportOptions } from '../../rpc/json-rpc.js';
import { nextTurn, sleep } from '../../core/wait.js';
import { base58Encode } from '../shared/base58.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './programs.js';
import {
  getSignaturesForAddress,
  getTokenAccountsByOwner,
  getTransaction,
  type SignatureInfo,
  type SignaturesConfig,
  type TokenAccountsResult,
} from './rpc-methods.js';
import { createSolanaTokenResolver, fromBase64, type SolanaTokenResolver } from './tokens/token-resolver.js';

export type { SolanaDecoder } from './decode/decode-batch.js';

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

/** Within-slot numbers count down from here: the first signature of a slot (newest) is largest. */
const SLOT_COUNTER_TOP = 99_999;
const SLOT_WIDTH = 12;
const COUNTER_WIDTH = 5;
const POSITION_PREFIX = 'sol1';
/** Position of a walk that found no signature at all: resuming from it finds nothing. */
const END_POSITION = `${POSITION_PREFIX}:end`;
/** getTransaction answering null (node behind the signature index): tries before giving up. */
const NOT_FOUND_RETRIES = 3;

interface WalkState {
  signature: string;
  slot: number;
  counter: number;
}

export function tradePosition(slot: number, counter: number): string {
  return `${String(slot).padStart(SLOT_WIDTH, '0')}.${String(counter).padStart(COUNTER_WIDTH, '0')}`;
}

function encodeState(s: WalkState): string {
  return `${POSITION_PREFIX}:${s.slot}:${s.counter}:${s.signature}`;
}

function decodeState(p: string, what: string): WalkState | 'end' {
  if (p === END_POSITION) return 'end';
  const m = /^sol1:(\d{1,15}):(\d{1,5}):([1-9A-HJ-NP-Za-km-z]{32,90})$/.exec(p);
  if (!m) throw new HistoryError('invalid_position', `not a Solana ${what} position`, { context: { [what]: p } });
  return { slot: Number(m[1]), counter: Number(m[2]), signature: m[3] };
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
  const firstBatchSize = Math.max(1, Math.min(batchSize, Math.floor(options.firstBatchSize ?? 20)));
  const pageSize = Math.min(1000, Math.max(1, Math.floor(options.pageSize ?? 1000)));
  const lookahead = Math.max(1, options.lookahead ?? 2 * maxInFlight);
  const commitment = options.commitment ?? 'confirmed';
  const decode = options.decode ?? decodeSolanaTransaction;
  const offload = options.decode ? undefined : options.offload;
  // Built on the first request for the chain: the worker boots while
  // that request's first signature page is fetched, and a server that never serves Solana
  // never starts one.
  void offload?.warm?.();
  const tokenResolver = options.tokenResolver ?? createSolanaTokenResolver({ transport, cache: options.tokens, commitment });
  const stats: SolanaSourceStats = { signaturePages: 0, transactionBatches: 0, transactions: 0, decodeMs: 0 };
  const prefetchHeldMints = Math.max(0, Math.floor(options.prefetchHeldMints ?? 100));

  /**
   * The first NDJSON line of a cold wallet waits for three requests in a row: the signature
   * page, the transactions, then the symbols of the mints they name (measured: 4.1-4.9 round
   * trips). Mints the wallet still holds are likely among the newest trades' (a buy leaves its
   * token account open), and their list needs no signature: so while the first page is fetched,
   * the wallet's token accounts are listed (mint bytes only) and those mints' symbols looked up,
   * beside the first getTransaction batch. When they cover the first batch, its line is out after
   * two round trips. Only up to `prefetchHeldMints` mints (non-empty accounts first): a wallet
   * full of airdropped dust would cost many lookups for little.
   */
  async function speculate(wallet: string, signal: AbortSignal): Promise<void> {
    const answers = await transport.callMany<TokenAccountsResult>(
      [getTokenAccountsByOwner(wallet, TOKEN_PROGRAM, commitment, 72), getTokenAccountsByOwner(wallet, TOKEN_2022_PROGRAM, commitment, 72)],
      { signal, priority: 'high' },
    );
    const held: string[] = [];
    const empty: string[] = [];
    for (const a of answers) {
      for (const item of a?.value ?? []) {
        const b64 = item?.account?.data?.[0];
        if (typeof b64 !== 'string') continue;
        const bytes = fromBase64(b64);
        if (bytes.length < 72) continue;
        let nonZero = false;
        for (let i = 64; i < 72; i++) if (bytes[i] !== 0) nonZero = true;
        (nonZero ? held : empty).push(base58Encode(bytes, 0, 32));
      }
    }
    const mints = [...new Set([...held, ...empty])].slice(0, prefetchHeldMints);
    if (mints.length > 0) tokenResolver.prefetch(mints, { signal });
  }

  /** getTransaction for the chunk's successful signatures, decoded and with symbols. */
  async function fetchChunk(wallet: string, sigs: SignatureInfo[], positions: string[], signal: AbortSignal, first: boolean): Promise<SourceTrade[]> {
    const wanted: number[] = [];
    sigs.forEach((s, i) => {
      if (s.err === null || s.err === undefined) wanted.push(i);
    });
    if (wanted.length === 0) return [];
    stats.transactionBatches++;
    // Each transaction is decoded as soon as its part of the batch answer is parsed and then
    // dropped (the transport reads batches item by item): only the trades stay alive, so the
    // ~15 KB object tree of a transaction dies young instead of 100 of them being promoted
    // together (see rpc/json-items.ts). With an offload, that happens in a worker thread.
    const decodeOne = (tx: unknown): WalletTransaction | null => {
      const t0 = performance.now();
      try {
        return decodeForWallet(tx, wallet, decode);
      } finally {
        stats.decodeMs += performance.now() - t0;
      }
    };
    // A walk's first chunk (what the first NDJSON line waits for, ~20 transactions, a few ms to
    // decode) is decoded here: handing it over would add a thread hop to the client's wait.
    const readBatch =
      offload && !first
        ? async (body: Uint8Array) => {
            const input: DecodeTransactionBatchInput = { body, wallet };
            const r = await offload.run<BatchReading<WalletTransaction | null>>(DECODE_TRANSACTION_BATCH, input, [body.buffer as ArrayBuffer]);
            if (r.kind === 'items') stats.decodeMs += r.mapMs;
            return r;
          }
        : undefined;
    const results: (WalletTransaction | null)[] = await transport.callMany<unknown, WalletTransaction | null>(
      wanted.map((i) => getTransaction(sigs[i].signature, commitment)),
      { signal, map: decodeOne, readBatch, priority: first ? 'high' : 'normal' },
    );
    for (let attempt = 0; ; attempt++) {
      const missing = wanted.flatMap((_, k) => (results[k] === null || results[k] === undefined ? [k] : []));
      if (missing.length === 0) break;
      if (attempt >= NOT_FOUND_RETRIES) {
        throw new HistoryError('rpc_error', `getTransaction: ${missing.length} listed transactions not found`, {
          retryable: true,
          context: { url: redactUrl(transport.url), signature: sigs[wanted[missing[0]]].signature },
        });
      }
      await sleep(250 * 2 ** attempt, signal);
      const again = await transport.callMany<unknown, WalletTransaction | null>(
        missing.map((k) => getTransaction(sigs[wanted[k]].signature, commitment)),
        { signal, map: decodeOne, readBatch, priority: first ? 'high' : 'normal' },
      );
      missing.forEach((k, j) => (results[k] = again[j]));
    }
    stats.transactions += results.length;

    const decoded: { trades: SolanaDecodedTrade[]; position: string; hints: Map<string, number> }[] = [];
    for (let k = 0; k < wanted.length; k++) {
      const d = results[k]!;
      if (d.trades.length > 0) decoded.push({ trades: d.trades, position: positions[wanted[k]], hints: d.hints! });
    }
    if (decoded.length === 0) return [];

    const mints = new Set<string>();
    for (const d of decoded) for (const t of d.trades) mints.add(t.tokenMint);
    const hints = new Map<string, number>();
    for (const d of decoded) for (const [m, v] of d.hints) if (mints.has(m)) hints.set(m, v);
    const infos = await tokenResolver.resolve(mints, { decimalsHint: hints, signal });

    const out: SourceTrade[] = [];
    for (const d of decoded) {
      for (const t of d.trades) {
        out.push({
          signature: t.signature,
          side: t.side,
          token: infos.get(t.tokenMint)?.symbol ?? '',
          tokenMint: t.tokenMint,
          amountSol: t.amountSol,
          amount: t.amount,
          dex: t.dex,
          blockTime: t.blockTime,
          position: d.position,
          leg: t.leg,
        });
      }
    }
    return out;
  }

  async function* history(parameters: HistoryParameters): AsyncGenerator<HistoryBatch> {
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
    const from: WalkState | null = start;

    const ctl = new AbortController();
    const outer = parameters.signal;
    const onAbort = () => ctl.abort(outer!.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    const signal = ctl.signal;

    interface Task {
      result: Promise<SourceTrade[]>;
      position: string;
      done: boolean;
    }
    const tasks: Task[] = [];
    let head: string | undefined;
    let producerDone = false;
    let producerError: unknown;
    let wakeConsumer: (() => void) | null = null;
    let wakeProducer: (() => void) | null = null;
    const notifyConsumer = () => {
      wakeConsumer?.();
      wakeConsumer = null;
    };
    const notifyProducer = () => {
      wakeProducer?.();
      wakeProducer = null;
    };
    const push = (t: Task) => {
      t.result.catch(() => {}); // handled by the consumer when it gets there; never unhandled
      tasks.push(t);
      notifyConsumer();
    };

    async function produce(): Promise<void> {
      let state: WalkState | null = from;
      // Resume point of the empty walk: unchanged.
      let lastPosition = from ? encodeState(from) : (parameters.until ?? END_POSITION);
      let first = true;
      let firstChunk = true;
      const fetchPage = async (before: string | undefined, limit: number): Promise<SignatureInfo[]> => {
        const config: SignaturesConfig = { limit, commitment };
        if (before) config.before = before;
        if (untilSignature) config.until = untilSignature;
        const { method, params } = getSignaturesForAddress(wallet, config);
        const page = await transport.call<SignatureInfo[]>(method, params, { signal, priority: 'high' });
        if (!Array.isArray(page) || page.some((s) => typeof s?.signature !== 'string' || !Number.isSafeInteger(s?.slot))) {
          throw new HistoryError('rpc_malformed_response', 'getSignaturesForAddress: expected an array of signatures', {
            context: { url: redactUrl(transport.url) },
          });
        }
        return page;
      };
      // The first page holds just the first chunk: a node lists 20 signatures faster than 1,000
      // (here: ~5 ms less of the first line's wait; on a busy node, more), and the next page of
      // 1,000 is asked for as soon as it is back. One more page in sequence costs a walk of
      // 10,000 signatures one round trip that the transaction batches hide.
      let limit = Math.min(pageSize, firstBatchSize);
      let nextPage = fetchPage(state?.signature, limit);
      // A cold walk from the top: look up the symbols of the wallet's held mints meanwhile. Not
      // on resumes (deep in the history) nor refreshes (the symbols are known by then). Asked
      // for after the page, so the page (the first line's critical path) takes the connection
      // already open and the listing any new one (a TCP, or TLS, handshake).
      if (!start && !untilSignature && prefetchHeldMints > 0) speculate(wallet, signal).catch(() => {});
      for (;;) {
        const page = await nextPage;
        const lastPage = page.length < limit;
        // The following page is asked for at once, before this page's chunks wait for room in
        // the lookahead: the chain of pages is the walk's critical path (10 pages x 1 round trip
        // for 10,000 signatures) and must not stall behind a consumer that is busy. After the
        // first page, it goes just after the first chunk's request instead: a node answers in
        // the order requests arrive as often as not, and a page of 1,000 takes it longer to
        // build than 20 transactions (the replay server: 5 ms against 1 ms).
        const askNextPage = () => {
          if (lastPage) return;
          limit = pageSize;
          nextPage = fetchPage(page[page.length - 1].signature, limit);
          nextPage.catch(() => {}); // awaited on the next turn; a failure surfaces there
        };
        if (!firstChunk) askNextPage();
        stats.signaturePages++;
        const positions: string[] = [];
        const states: WalkState[] = [];
        for (const s of page) {
          // Newest first: the first signature of a slot gets 99,999 and later ones count down,
          // carried across pages through `state` (a slot split over two pages continues).
          const counter = state && state.slot === s.slot ? state.counter - 1 : SLOT_COUNTER_TOP;
          if (counter < 0) throw new HistoryError('internal', `more than ${SLOT_COUNTER_TOP + 1} signatures in slot ${s.slot}`);
          state = { signature: s.signature, slot: s.slot, counter };
          states.push(state);
          positions.push(tradePosition(s.slot, counter));
        }
        if (first && !start) head = states.length > 0 ? encodeState(states[0]) : parameters.until;
        first = false;
        if (page.length === 0) {
          push({ result: Promise.resolve([]), position: lastPosition, done: true });
          return;
        }
        for (let i = 0; i < page.length;) {
          while (tasks.length >= lookahead && !signal.aborted) await new Promise<void>((r) => (wakeProducer = r));
          signal.throwIfAborted();
          const end = Math.min(page.length, i + (firstChunk ? firstBatchSize : batchSize));
          const position = encodeState(states[end - 1]);
          // One turn of the event loop first: the connection the page came back on is only
          // free for the next request then (Node's fetch lets it go on a later turn), and the
          // first batch on a new connection waits for its handshake (5-8 ms here, where a TLS
          // handshake to a remote node takes round trips).
          if (firstChunk) await nextTurn(signal);
          const result = fetchChunk(wallet, page.slice(i, end), positions.slice(i, end), signal, firstChunk);
          push({ result, position, done: lastPage && end === page.length });
          if (firstChunk) {
            askNextPage();
            // The first batch is what a client waits for (the first NDJSON line): its
            // getTransaction batch and its symbol lookup have the connection to themselves
            // instead of queueing behind 7 batches of ~1.5 MB each and their parsing (measured
            // warm at 50 ms latency: first batch after ~210 ms this way, ~890 ms without). The
            // rest of the walk starts one round trip later, which costs a 10,000-trade walk ~1%.
            await result.then(
              () => {},
              () => {},
            );
            // And one turn later: launching the next 7 batches takes 5-8 ms of this thread, which
            // would otherwise run before the consumer has stored (and a server has sent) the
            // first batch, as this continuation was queued first.
            await nextTurn(signal);
          }
          firstChunk = false;
          lastPosition = position;
          i = end;
        }
        if (lastPage) return;
      }
    }

    const producer = produce().then(
      () => {
        producerDone = true;
        notifyConsumer();
      },
      (e) => {
        producerError = e;
        producerDone = true;
        notifyConsumer();
      },
    );

    try {
      let firstBatch = true;
      for (;;) {
        // Batches already fetched are not handed out after an abort: the caller asked to stop.
        if (outer?.aborted) throw outer.reason;
        while (tasks.length === 0 && !producerDone) await new Promise<void>((r) => (wakeConsumer = r));
        if (tasks.length === 0) {
          if (outer?.aborted) throw outer.reason;
          throw producerError ?? new HistoryError('internal', 'walk ended without a last batch');
        }
        const task = tasks.shift()!;
        notifyProducer();
        let trades: SourceTrade[];
        try {
          trades = await task.result;
        } catch (e) {
          if (outer?.aborted) throw outer.reason;
          throw e;
        }
        const batch: HistoryBatch = { trades, position: task.position, done: task.done };
        if (firstBatch && head !== undefined) batch.head = head;
        firstBatch = false;
        yield batch;
        if (task.done) return;
      }
    } finally {
      ctl.abort(outer?.aborted ? outer.reason : new DOMException('walk ended', 'AbortError'));
      notifyProducer();
      outer?.removeEventListener('abort', onAbort);
      await producer;
    }
  }

  return {
    chain: 'sol',
    transport,
    tokenResolver,
    stats,
    history,
  };
}
