/**
 * A REST JSON client on the same HTTP pieces as the JSON-RPC client (http.ts): fetch with a
 * timeout, the limiter, the retry policy, credentials from the URL sent as a header. For
 * endpoints that are not JSON-RPC, such as TronGrid's (`GET /v1/accounts/{a}/transactions`,
 * `POST /wallet/gettransactioninfobyid`): the Tron source calls it.
 */
import { HistoryError } from '../core/errors.js';
import { answerText, createFetchTransport, parseEndpoint, statusError, withLimiter, withRetries, type HttpStats, type RetryPolicy } from './http.js';
import { createLimiter, type Limiter, type Priority } from './limiter.js';

export interface HttpJsonClientOptions extends RetryPolicy {
  url: string;
  /** Sent with every request (e.g. `TRON-PRO-API-KEY`). */
  headers?: Record<string, string>;
  /** HTTP requests in flight. Default 8. */
  maxInFlight?: number;
  /** HTTP request starts per second. Default unlimited. */
  requestsPerSecond?: number;
  /** Per attempt, including reading the body. Default 30 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  limiter?: Limiter;
}

export interface RequestOptions {
  signal?: AbortSignal;
  priority?: Priority;
  /**
   * Checks a parsed 2xx answer and throws a HistoryError for one that is a failure in disguise
   * (an explorer API's `{"status":"0","result":"Max rate limit reached"}`): retried like a 429
   * when the error is retryable.
   */
  validate?: (body: unknown) => void;
}

/** The transport's counts, and the milliseconds spent parsing answers. */
export interface HttpJsonStats extends HttpStats {
  parseMs: number;
}

export interface HttpJsonClient {
  readonly url: string;
  readonly stats: HttpJsonStats;
  /** GET `path` with `query` (undefined values left out); the parsed JSON body of a 2xx answer. */
  get<T = unknown>(path: string, query?: Record<string, string | number | boolean | undefined>, options?: RequestOptions): Promise<T>;
  /** POST `body` as JSON to `path`; the parsed JSON body of a 2xx answer. */
  post<T = unknown>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
}

export function createHttpJsonClient(o: HttpJsonClientOptions): HttpJsonClient {
  const { safeUrl } = parseEndpoint(o.url);
  const stats: HttpJsonStats = { httpRequests: 0, retries: 0, parseMs: 0 };
  const http = withLimiter(
    createFetchTransport({
      url: o.url,
      timeoutMs: o.timeoutMs ?? 30_000,
      headers: { accept: 'application/json', ...o.headers },
      fetch: o.fetch,
      stats,
    }),
    o.limiter ?? createLimiter({ maxInFlight: o.maxInFlight ?? 8, requestsPerSecond: o.requestsPerSecond }),
  );

  function send<T>(method: 'GET' | 'POST', path: string, body: string | undefined, opts: RequestOptions): Promise<T> {
    return withRetries(
      async () => {
        const a = await http({ method, path, body, signal: opts.signal, priority: opts.priority, label: `${method} ${path.split('?')[0]}` });
        const text = answerText(a);
        const err = statusError(a.status, a.headers, text, `${method} ${path.split('?')[0]}`, safeUrl);
        if (err) throw err;
        const t0 = performance.now();
        let parsed: T;
        try {
          parsed = JSON.parse(text) as T;
        } catch (e) {
          // A body cut short in transit is worth another try.
          throw new HistoryError('rpc_malformed_response', `${method} ${path.split('?')[0]}: body is not JSON (${text.length} chars, ${safeUrl})`, {
            cause: e,
            context: { url: safeUrl },
          });
        } finally {
          stats.parseMs += performance.now() - t0;
        }
        opts.validate?.(parsed);
        return parsed;
      },
      o,
      opts.signal,
      stats,
    );
  }

  return {
    url: o.url,
    stats,
    get(path, query = {}, opts = {}) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
      const qs = q.toString();
      return send('GET', qs ? `${path}?${qs}` : path, undefined, opts);
    },
    post(path, body, opts = {}) {
      return send('POST', path, JSON.stringify(body), opts);
    },
  };
}
