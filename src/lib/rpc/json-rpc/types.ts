/**
 * The JSON-RPC client's public types: what a chain source passes in and gets back. Their own
 * module so that the parts of the client (json-rpc/*.ts) and its entry (json-rpc.ts) import them
 * without importing each other.
 */
import type { Limiter, Priority } from '../limiter.js';
import type { BatchReading } from '../read-batch.js';

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
