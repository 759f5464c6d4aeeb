/**
 * What every part of the JSON-RPC client shares, built once per transport from its options: the
 * HTTP pipeline (fetch with a timeout behind the limiter, http.ts), the counts, the retry policy and
 * the one id counter.
 */
import { redactUrl } from '../../core/errors.js';
import { sleep as sleepFor } from '../../core/wait.js';
import { createFetchTransport, withLimiter, type HttpTransport, type RetryPolicy } from '../http.js';
import { createLimiter } from '../limiter.js';
import { createRpcStats } from './stats.js';
import type { RpcTransportOptions, RpcTransportStats } from './types.js';

export interface RpcContext {
  /** The endpoint as errors and logs may show it (credentials removed). */
  readonly safeUrl: string;
  readonly http: HttpTransport;
  readonly stats: RpcTransportStats;
  /** Whole requests: withRetries' jittered backoff, at least Retry-After. */
  readonly retryPolicy: RetryPolicy;
  /** Item re-sends (with-item-resends.ts): at most `maxRetries` rounds, `baseDelayMs` × 2^round apart. */
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The next JSON-RPC id: one counter for all requests of the transport, so ids never repeat. */
  nextId(): number;
}

export function createRpcContext(options: RpcTransportOptions): RpcContext {
  const maxRetries = options.maxRetries ?? 6;
  const baseDelayMs = options.baseDelayMs ?? 200;
  const sleep = options.sleep ?? sleepFor;
  const limiter = options.limiter ?? createLimiter({ maxInFlight: options.maxInFlight ?? 8, requestsPerSecond: options.requestsPerSecond });
  const stats = createRpcStats();
  const http = withLimiter(
    createFetchTransport({
      url: options.url,
      timeoutMs: options.timeoutMs ?? 30_000,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
      fetch: options.fetch,
      stats,
    }),
    limiter,
  );
  let id = 1;
  return {
    safeUrl: redactUrl(options.url),
    http,
    stats,
    retryPolicy: { maxRetries, baseDelayMs, maxDelayMs: options.maxDelayMs, maxRetryAfterMs: options.maxRetryAfterMs, random: options.random, sleep },
    maxRetries,
    baseDelayMs,
    sleep,
    nextId: () => id++,
  };
}
