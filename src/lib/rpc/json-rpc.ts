/**
 * JSON-RPC 2.0 for every chain that speaks it (Solana, EVM), on the shared HTTP pieces of http.ts
 * (fetch with a timeout, the limiter, the retry policy). Plain Web APIs: it runs in a Web Worker too.
 *
 * - `call` sends one request; `callMany` sends many as JSON-RPC batch arrays of `batchSize`,
 *   or as single requests when the endpoint refuses batches (detected once, then remembered).
 * - Every HTTP request goes through one limiter: at most `maxInFlight` at once and at most
 *   `requestsPerSecond` starts.
 * - Retries with exponential backoff and full jitter on 429 (waiting at least Retry-After),
 *   5xx, network errors, timeouts and malformed or truncated bodies; per-item errors in a
 *   batch that are transient (node behind, rate limited) are retried for those items only.
 * - Errors are HistoryError with rpc_* codes, the URL redacted, the last failure as `cause`.
 * - A batch answer is read as bytes while the request holds its limiter slot, then parsed item
 *   by item (json-items.ts), each result handed to the caller's `map` before the next is parsed:
 *   a batch of 100 transactions is never one string or one object tree (see json-items.ts for
 *   the garbage collection this saves).
 */
import { HistoryError, redactUrl, type HistoryErrorCode } from '../core/errors.js';
import { answerText, createFetchTransport, statusError, withLimiter, withRetries, type RetryPolicy } from './http.js';
import { CutShort } from './json-items.js';
import { createLimiter, type Limiter, type Priority } from './limiter.js';
import { readItems, type BatchReading, type JsonRpcErrorObject, type JsonRpcResponse, type PreparedItem, type ReadCost } from './read-batch.js';
import { sleep as sleepFor } from '../core/wait.js';

export { nextTurn, sleep } from '../core/wait.js';
export { parseRetryAfter } from './http.js';

export interface RpcCall {
  method: string;
  params: unknown[];
}

export interface CallOptions {
  signal?: AbortSignal;
  priority?: Priority;
}

export interface CallManyOptions<T, R> extends CallOptions {
  /**
   * Applied to each result as soon as it is parsed (with the call's index), before the next
   * result of the batch is parsed; `callMany` then returns what it returned. Lets a caller decode
   * a transaction and drop it at once, so large results die young instead of all being alive
   * together. Runs after the request's limiter slot is let go. Must be pure: a retried batch maps
   * its results again. An error it throws fails the call (a HistoryError as it is, retried only
   * when marked retryable).
   */
  map?: (result: T, index: number) => R;
  /**
   * Reads a batch answer somewhere else (a worker thread): given its bytes, returns its items
   * with their results already mapped (read-batch.ts), so neither the parsing nor the mapping
   * runs on this thread. Calls sent one by one still go through `map` here.
   */
  readBatch?: (body: Uint8Array) => Promise<BatchReading<R>>;
}

export interface RpcTransportStats {
  /** HTTP requests sent, retries included. */
  httpRequests: number;
  /** JSON-RPC calls sent, retries included. */
  calls: number;
  retries: number;
  /**
   * Milliseconds spent in JSON.parse of response bodies (of each item, for batches read item by
   * item), not counting the scan that finds the items (`scanMs`).
   */
  parseMs: number;
  /** Milliseconds spent finding the items of batch responses read item by item. */
  scanMs: number;
  /** Bytes of response bodies (UTF-16 code units, close to bytes for this ASCII JSON). */
  responseChars: number;
}

/** One answer of callManySettled: its result, or the JSON-RPC error the node gave for that call. */
export type RpcOutcome<T = unknown> = { ok: true; result: T } | { ok: false; error: { code: number; message: string; data?: unknown } };

export interface SettledOptions extends CallOptions {
  /**
   * Send again the calls answered with a transient error (rate limited, node behind) before
   * settling them. Default true; false hands every error back at once (the EVM source reads a
   * provider's eth_getLogs refusal, often -32005, to shrink its block range).
   */
  retryItemErrors?: boolean;
}

export interface RpcTransport {
  readonly url: string;
  call<T = unknown>(method: string, params: unknown[], options?: CallOptions): Promise<T>;
  /** Results in the order of `calls`; throws when any call fails after retries. */
  callMany<T = unknown, R = T>(calls: readonly RpcCall[], options?: CallManyOptions<T, R>): Promise<R[]>;
  /**
   * Per-call outcomes in the order of `calls`: a call the node answered with an error is returned
   * as that error (visible to the caller), not thrown; transport failures still throw.
   */
  callManySettled<T = unknown>(calls: readonly RpcCall[], options?: SettledOptions): Promise<RpcOutcome<T>[]>;
  readonly stats: RpcTransportStats;
  /** False once the endpoint refused a batch (or batching was turned off). */
  readonly batching: boolean;
}

export interface RpcTransportOptions {
  url: string;
  /** Calls per JSON-RPC batch array. Default 100 (common provider cap); 1 turns batching off. */
  batchSize?: number;
  /** `auto` (default): try batches, fall back to single calls when refused. */
  batch?: 'auto' | boolean;
  /** HTTP requests in flight. Default 8. */
  maxInFlight?: number;
  /** HTTP request starts per second. Default unlimited; the public mainnet endpoint allows ~10. */
  requestsPerSecond?: number;
  /** Per attempt, including reading the body. Default 30 s: a batch of 100 transactions is ~1.5 MB. */
  timeoutMs?: number;
  /** Attempts after the first. Default 6: at a 10% fault rate 7 failures in a row is ~1e-7. */
  maxRetries?: number;
  /** First backoff. Default 200 ms, doubling to `maxDelayMs` (default 10 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Cap on a Retry-After wait. Default 60 s. */
  maxRetryAfterMs?: number;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** Shared limiter (e.g. one per endpoint across sources). */
  limiter?: Limiter;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** JSON-RPC error codes that mean "try again": node behind (-32005), rate limited, internal. */
const RETRYABLE_RPC_CODES = new Set([-32005, -32429, 429, -32603, -32004, -32014]);
/** HTTP statuses with which providers refuse a batch array (400 invalid request, 403 plan, 413 size). */
const BATCH_REFUSED_STATUS = new Set([400, 403, 405, 413, 422]);

class BatchRefused extends Error {}

/** Internal: batchOnce returns per-call outcomes instead of throwing on a node's error. */
interface Settle {
  settle?: boolean;
  retryItemErrors?: boolean;
}

function settledError(e: JsonRpcErrorObject): { ok: false; error: { code: number; message: string; data?: unknown } } {
  return { ok: false, error: { code: Number(e.code), message: String(e.message ?? ''), data: e.data } };
}

/** What a batch answer read item by item leaves for `handle`: the items went to `onItem`. */
const STREAMED = Symbol('streamed');

/**
 * A batch answer's bytes, read while holding the limiter's slot and parsed after it is let go:
 * the slot is held for the HTTP exchange only, as before, not for the decoding a caller's `map`
 * does item by item.
 */
class BufferedBody {
  constructor(readonly chunks: Uint8Array[]) {}
}

export function createRpcTransport(options: RpcTransportOptions): RpcTransport {
  const url = options.url;
  const safeUrl = redactUrl(url);
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 100));
  let batching = options.batch !== false && batchSize > 1;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRetries = options.maxRetries ?? 6;
  const baseDelayMs = options.baseDelayMs ?? 200;
  const sleep = options.sleep ?? sleepFor;
  const retryPolicy: RetryPolicy = {
    maxRetries,
    baseDelayMs,
    maxDelayMs: options.maxDelayMs,
    maxRetryAfterMs: options.maxRetryAfterMs,
    random: options.random,
    sleep,
  };
  const limiter = options.limiter ?? createLimiter({ maxInFlight: options.maxInFlight ?? 8, requestsPerSecond: options.requestsPerSecond });
  const stats: RpcTransportStats = { httpRequests: 0, calls: 0, retries: 0, parseMs: 0, scanMs: 0, responseChars: 0 };
  const http = withLimiter(
    createFetchTransport({
      url,
      timeoutMs,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
      fetch: options.fetch,
      stats,
    }),
    limiter,
  );
  let nextId = 1;

  function fail(
    code: HistoryErrorCode,
    message: string,
    extra: { cause?: unknown; retryAfter?: number; retryable?: boolean; context?: Record<string, unknown> } = {},
  ): HistoryError {
    return new HistoryError(code, `${message} (${safeUrl})`, {
      cause: extra.cause,
      retryAfter: extra.retryAfter,
      retryable: extra.retryable,
      context: { url: safeUrl, ...extra.context },
    });
  }

  /**
   * One HTTP attempt. Resolves with the parsed body; throws a HistoryError (retryable or not),
   * BatchRefused, or the caller's abort reason.
   */
  async function attempt(body: string, isBatch: boolean, opts: CallOptions, method: string, buffer = false): Promise<unknown> {
    const a = await http({ method: 'POST', body, signal: opts.signal, priority: opts.priority, label: method });
    // A batch answer to read item by item: its bytes as they came, read once the slot is free.
    if (buffer && a.status === 200) return new BufferedBody(a.chunks);
    const text = answerText(a);
    stats.responseChars += text.length;
    const err = statusError(a.status, a.headers, text, method, safeUrl);
    if (err?.code === 'rpc_rate_limited') throw err;
    if (isBatch && BATCH_REFUSED_STATUS.has(a.status)) throw new BatchRefused(`HTTP ${a.status}: ${text.slice(0, 200)}`);
    if (err) throw err;
    return parseBody(text, isBatch, method);
  }

  /** A 200 body parsed; for a batch, anything but an array becomes the error it stands for. */
  function parseBody(text: string, isBatch: boolean, method: string): unknown {
    const t0 = performance.now();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw fail('rpc_malformed_response', `${method}: body is not JSON (${text.length} chars)`, { cause: e, context: { method } });
    } finally {
      stats.parseMs += performance.now() - t0;
    }
    if (isBatch && !Array.isArray(parsed)) {
      const err = (parsed as JsonRpcResponse | null)?.error;
      // A single error object in answer to an array: the endpoint does not take batches
      // (-32600 invalid request) or is rate limiting; anything else is malformed.
      if (err && typeof err === 'object') {
        if (err.code !== undefined && RETRYABLE_RPC_CODES.has(err.code)) {
          const code = err.code === 429 || err.code === -32429 ? 'rpc_rate_limited' : 'rpc_error';
          throw fail(code, `${method}: ${err.message ?? 'error'} (${err.code})`, { retryable: true, context: { method, rpcCode: err.code } });
        }
        throw new BatchRefused(`${err.code}: ${err.message}`);
      }
      throw fail('rpc_malformed_response', `${method}: expected a batch array`, { context: { method } });
    }
    return parsed;
  }

  /**
   * A buffered 200 answer to a batch, item by item: each item is parsed and handed to `onItem`
   * before the next is parsed (see json-items.ts). Returns STREAMED, or what parseBody makes of
   * a body that is not an array. Throws rpc_malformed_response on a cut or broken array, or what
   * `onItem` throws.
   */
  function readBuffered(b: BufferedBody, onItem: (item: JsonRpcResponse) => void, isBatch: boolean, method: string): unknown {
    const cost: ReadCost = { parseMs: 0, scanMs: 0, mapMs: 0, chars: 0 };
    let whole: string | null;
    try {
      whole = readItems(b.chunks, onItem, cost);
    } catch (e) {
      if (e instanceof CutShort) throw cutShort(method, e.message, e);
      throw e;
    } finally {
      addCost(cost);
    }
    return whole !== null ? parseBody(whole, isBatch, method) : STREAMED;
  }

  function addCost(cost: ReadCost): void {
    stats.parseMs += cost.parseMs;
    stats.scanMs += cost.scanMs;
    stats.responseChars += cost.chars;
  }

  function cutShort(method: string, message: string, cause?: unknown): HistoryError {
    return fail('rpc_malformed_response', `${method}: batch answer cut short or not JSON (${message})`, { cause, context: { method } });
  }

  /** A batch answer read by `readBatch` elsewhere: its prepared items go to `onPrepared`. */
  async function readRemotely(
    b: BufferedBody,
    readBatch: (body: Uint8Array) => Promise<BatchReading<unknown>>,
    onPrepared: (item: PreparedItem<unknown>) => void,
    isBatch: boolean,
    method: string,
  ): Promise<unknown> {
    // One buffer of its own, moved (not copied) to the worker: the chunks may be views into
    // buffers the HTTP client reuses (one copy: ~0.1 ms for a 1.5 MB batch).
    const body = new Uint8Array(b.chunks.reduce((n, c) => n + c.length, 0));
    let o = 0;
    for (const c of b.chunks) {
      body.set(c, o);
      o += c.length;
    }
    b.chunks.length = 0;
    const reading = await readBatch(body);
    if (reading.kind === 'cut') throw cutShort(method, reading.message);
    if (reading.kind === 'whole') return parseBody(reading.text, isBatch, method);
    addCost(reading);
    for (const item of reading.items) onPrepared(item);
    return STREAMED;
  }

  /** Sends with the retry policy; `handle` turns a parsed body into results or throws. BatchRefused goes straight out. */
  async function send<R>(
    build: () => { body: string; isBatch: boolean; count: number },
    handle: (parsed: unknown) => R,
    method: string,
    opts: CallOptions,
    onItem?: (item: JsonRpcResponse) => void,
    remote?: { readBatch: (body: Uint8Array) => Promise<BatchReading<unknown>>; onPrepared: (item: PreparedItem<unknown>) => void },
  ): Promise<R> {
    return withRetries(
      async () => {
        const { body, isBatch, count } = build();
        stats.calls += count;
        let got = await attempt(body, isBatch, opts, method, onItem !== undefined);
        if (got instanceof BufferedBody && remote) {
          got = await readRemotely(got, remote.readBatch, remote.onPrepared, isBatch, method);
        } else if (got instanceof BufferedBody) {
          // Decoding a batch takes a while: first let the event loop send the requests that
          // the freed slot let start, and take in answers that arrived meanwhile (the next
          // signature page among them), so the pipeline stays full while this one is read.
          // Not for a high-priority batch (what a client is waiting for): it goes first.
          if (opts.priority !== 'high') await sleepFor(0, opts.signal);
          got = readBuffered(got, onItem!, isBatch, method);
        }
        return handle(got);
      },
      retryPolicy,
      opts.signal,
      stats,
    );
  }

  function resultOf<T>(r: JsonRpcResponse, method: string): T {
    if (r.error) {
      const code = r.error.code;
      const retryable = code !== undefined && RETRYABLE_RPC_CODES.has(code);
      throw fail(retryable && (code === 429 || code === -32429) ? 'rpc_rate_limited' : 'rpc_error', `${method}: ${r.error.message ?? 'error'} (${code})`, {
        retryable,
        context: { method, rpcCode: code, rpcMessage: r.error.message, data: r.error.data },
      });
    }
    if (!('result' in r)) throw fail('rpc_malformed_response', `${method}: response has neither result nor error`, { context: { method } });
    return r.result as T;
  }

  async function call<T>(method: string, params: unknown[], opts: CallOptions = {}): Promise<T> {
    return send(
      () => ({ body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }), isBatch: false, count: 1 }),
      (parsed) => {
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
          throw fail('rpc_malformed_response', `${method}: expected a JSON-RPC response object`, { context: { method } });
        }
        return resultOf<T>(parsed as JsonRpcResponse, method);
      },
      method,
      opts,
    );
  }

  /**
   * One batch array with retries. Items answered with a transient error are sent again (only
   * those); an item with a permanent error fails the whole batch. The answer's items are parsed
   * and mapped one by one (`opts.map`), after its slot in the limiter is let go.
   */
  async function batchOnce<T, R>(calls: readonly RpcCall[], opts: CallManyOptions<T, R> & Settle, offset: number): Promise<R[]> {
    const out = new Array<R>(calls.length);
    let pending = calls.map((_, i) => i);
    const method = calls[0].method;
    const map = opts.map;
    for (let round = 0; pending.length > 0; round++) {
      let ids = new Map<number, number>();
      const todo = pending;
      let retryItems: number[] = [];
      let seen = new Set<number>();
      /** One response object; `prepared`: read elsewhere, its result already mapped. */
      const take = (r: JsonRpcResponse | PreparedItem<R>, prepared: boolean) => {
        const i = typeof r?.id === 'number' ? ids.get(r.id) : undefined;
        if (i === undefined || seen.has(i)) return;
        seen.add(i);
        const p = r as PreparedItem<R>;
        if (prepared && p.failed !== undefined) throw new HistoryError('internal', p.failed, { retryable: false, context: { method } });
        let result: T;
        try {
          result = resultOf<T>(prepared && p.malformed ? {} : r, calls[i].method);
        } catch (e) {
          if (e instanceof HistoryError && e.retryable && opts.retryItemErrors !== false) return void retryItems.push(i);
          if (opts.settle && r.error) return void (out[i] = settledError(r.error) as R);
          throw e;
        }
        if (opts.settle) out[i] = { ok: true, result } as R;
        else out[i] = prepared ? (result as unknown as R) : map ? map(result, offset + i) : (result as unknown as R);
      };
      const item = (r: JsonRpcResponse) => take(r, false);
      const readBatch = opts.readBatch;
      const remote = readBatch
        ? {
            readBatch: readBatch as (body: Uint8Array) => Promise<BatchReading<unknown>>,
            onPrepared: (r: PreparedItem<unknown>) => take(r as PreparedItem<R>, true),
          }
        : undefined;
      await send(
        () => {
          // This attempt's answer only (an earlier one may have been malformed).
          ids = new Map();
          retryItems = [];
          seen = new Set();
          const body = todo.map((i) => {
            const id = nextId++;
            ids.set(id, i);
            return { jsonrpc: '2.0', id, method: calls[i].method, params: calls[i].params };
          });
          return { body: JSON.stringify(body), isBatch: true, count: todo.length };
        },
        (parsed) => {
          if (parsed !== STREAMED) for (const r of parsed as JsonRpcResponse[]) item(r);
          if (seen.size !== todo.length) {
            throw fail('rpc_malformed_response', `${method}: batch answered ${seen.size} of ${todo.length} calls`, { context: { method } });
          }
        },
        method,
        opts,
        item,
        remote,
      );
      if (retryItems.length > 0) {
        if (round >= maxRetries) {
          throw fail('rpc_error', `${method}: ${retryItems.length} calls still failing after ${round + 1} attempts`, { context: { method } });
        }
        stats.retries++;
        await sleep(baseDelayMs * 2 ** round, opts.signal);
      }
      pending = retryItems;
    }
    return out;
  }

  async function callManySettled<T>(calls: readonly RpcCall[], opts: SettledOptions = {}): Promise<RpcOutcome<T>[]> {
    if (calls.length === 0) return [];
    const settle: CallManyOptions<T, RpcOutcome<T>> & Settle = { ...opts, settle: true };
    if (batching && calls.length > 1) {
      const chunks: Promise<RpcOutcome<T>[]>[] = [];
      for (let i = 0; i < calls.length; i += batchSize) {
        const part = calls.slice(i, i + batchSize);
        chunks.push(
          batchOnce<T, RpcOutcome<T>>(part, settle, i).catch((e) => {
            if (!(e instanceof BatchRefused)) throw e;
            batching = false;
            return Promise.all(part.map((c) => settledCall<T>(c, opts)));
          }),
        );
      }
      return (await Promise.all(chunks)).flat();
    }
    return Promise.all(calls.map((c) => settledCall<T>(c, opts)));
  }

  /** One call sent alone, its node error returned as an outcome. */
  async function settledCall<T>(c: RpcCall, opts: CallOptions): Promise<RpcOutcome<T>> {
    try {
      return { ok: true, result: await call<T>(c.method, c.params, opts) };
    } catch (e) {
      if (!(e instanceof HistoryError) || typeof e.context.rpcCode !== 'number') throw e;
      return settledError({ code: e.context.rpcCode, message: String(e.context.rpcMessage ?? e.message), data: e.context.data });
    }
  }

  async function callMany<T, R = T>(calls: readonly RpcCall[], opts: CallManyOptions<T, R> = {}): Promise<R[]> {
    if (calls.length === 0) return [];
    const map = opts.map;
    const one = (c: RpcCall, i: number): Promise<R> =>
      map ? call<T>(c.method, c.params, opts).then((r) => map(r, i)) : (call<T>(c.method, c.params, opts) as Promise<unknown> as Promise<R>);
    if (batching && calls.length > 1) {
      const chunks: Promise<R[]>[] = [];
      for (let i = 0; i < calls.length; i += batchSize) {
        const part = calls.slice(i, i + batchSize);
        chunks.push(
          batchOnce<T, R>(part, opts, i).catch((e) => {
            if (!(e instanceof BatchRefused)) throw e;
            // The endpoint does not take batch arrays: remember, and send these one by one.
            batching = false;
            return Promise.all(part.map((c, j) => one(c, i + j)));
          }),
        );
      }
      return (await Promise.all(chunks)).flat();
    }
    return Promise.all(calls.map(one));
  }

  return {
    url,
    call,
    callMany,
    callManySettled,
    stats,
    get batching() {
      return batching;
    },
  };
}
