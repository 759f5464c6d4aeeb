import { HistoryError, redactUrl } from '../../core/errors.js';

/**
 * A JSON-RPC 2.0 client on plain `fetch` (so it runs in a Web Worker too) that sends calls in
 * batch arrays, counts what it sends (calls and HTTP requests, for the bench and the loader's
 * metrics) and falls back to smaller batches when an endpoint refuses large ones.
 */

export interface RpcRequest {
  method: string;
  params: unknown[];
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** One answer of a batch: `result` or `error`, in request order. */
export type RpcOutcome = { ok: true; result: unknown } | { ok: false; error: RpcErrorObject };

export interface RpcStats {
  /** JSON-RPC calls sent (each element of a batch counts once). */
  calls: number;
  /** HTTP requests made. */
  httpRequests: number;
}

export interface RpcTransport {
  readonly url: string;
  readonly stats: RpcStats;
  /** One call; a JSON-RPC error becomes HistoryError `rpc_error` with the error in `context`. */
  call<T = unknown>(method: string, params: unknown[], signal?: AbortSignal): Promise<T>;
  /** Many calls in as few HTTP requests as the batch size allows; per-call errors are returned, not thrown. */
  batch(requests: readonly RpcRequest[], signal?: AbortSignal): Promise<RpcOutcome[]>;
}

export interface RpcTransportOptions {
  url: string;
  /** Calls per HTTP request. 100 is what most public nodes accept (geth's default limit is 1,000). */
  batchSize?: number;
  /** Per HTTP request. */
  timeoutMs?: number;
  /** Retries of a retryable failure (429, 5xx, timeout, network), with backoff 250 ms x 2^n. */
  retries?: number;
  fetch?: typeof fetch;
}

function combineSignals(a: AbortSignal | undefined, ms: number): { signal: AbortSignal; done: () => void } {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(new HistoryError('rpc_timeout', `RPC request timed out after ${ms} ms`)), ms);
  const onAbort = () => ctl.abort(a!.reason);
  if (a) {
    if (a.aborted) ctl.abort(a.reason);
    else a.addEventListener('abort', onAbort, { once: true });
  }
  return {
    signal: ctl.signal,
    done: () => {
      clearTimeout(timer);
      a?.removeEventListener('abort', onAbort);
    },
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });
}

export function createRpcTransport(options: RpcTransportOptions): RpcTransport {
  const url = options.url;
  const doFetch = options.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retries = options.retries ?? 2;
  let batchSize = Math.max(1, options.batchSize ?? 100);
  const stats: RpcStats = { calls: 0, httpRequests: 0 };
  let nextId = 1;

  async function post(body: unknown, count: number, signal?: AbortSignal): Promise<unknown> {
    let attempt = 0;
    for (;;) {
      const { signal: s, done } = combineSignals(signal, timeoutMs);
      stats.httpRequests += 1;
      stats.calls += count;
      try {
        let res: Response;
        try {
          res = await doFetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
            signal: s,
          });
        } catch (e) {
          if (signal?.aborted) throw signal.reason ?? e;
          if (e instanceof HistoryError) throw e;
          if (s.aborted && s.reason instanceof HistoryError) throw s.reason;
          throw new HistoryError('rpc_http_error', `RPC endpoint ${redactUrl(url)} unreachable`, { cause: e });
        }
        if (res.status === 429) {
          const ra = Number(res.headers.get('retry-after'));
          throw new HistoryError('rpc_rate_limited', `RPC endpoint ${redactUrl(url)} rate limited the request`, {
            retryAfter: Number.isFinite(ra) && ra > 0 ? ra : undefined,
          });
        }
        const text = await res.text();
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch (e) {
          if (!res.ok)
            throw new HistoryError('rpc_http_error', `RPC endpoint ${redactUrl(url)} answered HTTP ${res.status}`, { context: { status: res.status } });
          throw new HistoryError('rpc_malformed_response', `RPC endpoint ${redactUrl(url)} answered non-JSON`, { cause: e });
        }
        // Some providers answer a refused batch with HTTP 4xx and a JSON error body: let the caller see it.
        if (!res.ok && (typeof json !== 'object' || json === null)) {
          throw new HistoryError('rpc_http_error', `RPC endpoint ${redactUrl(url)} answered HTTP ${res.status}`, { context: { status: res.status } });
        }
        if (res.status >= 500) {
          throw new HistoryError('rpc_http_error', `RPC endpoint ${redactUrl(url)} answered HTTP ${res.status}`, {
            context: { status: res.status, body: json },
          });
        }
        return json;
      } catch (e) {
        if (e instanceof HistoryError && e.retryable && attempt < retries && !signal?.aborted) {
          await sleep(e.retryAfter ? e.retryAfter * 1000 : 250 * 2 ** attempt, signal);
          attempt += 1;
          continue;
        }
        throw e;
      } finally {
        done();
      }
    }
  }

  function toOutcome(item: unknown): RpcOutcome {
    if (typeof item !== 'object' || item === null) {
      throw new HistoryError('rpc_malformed_response', 'RPC answer is not an object');
    }
    const o = item as { result?: unknown; error?: RpcErrorObject };
    if (o.error) return { ok: false, error: { code: Number(o.error.code), message: String(o.error.message ?? ''), data: o.error.data } };
    if (!('result' in o)) throw new HistoryError('rpc_malformed_response', 'RPC answer has neither result nor error');
    return { ok: true, result: o.result };
  }

  async function sendChunk(chunk: readonly RpcRequest[], signal?: AbortSignal): Promise<RpcOutcome[]> {
    const ids = chunk.map(() => nextId++);
    const body = chunk.map((r, i) => ({ jsonrpc: '2.0', id: ids[i], method: r.method, params: r.params }));
    const json = await post(body, chunk.length, signal);
    if (!Array.isArray(json)) {
      // A single error object instead of an array: the endpoint refuses batches of this size.
      if (chunk.length > 1) {
        batchSize = Math.max(1, Math.floor(chunk.length / 2));
        return batch(chunk, signal);
      }
      return [toOutcome(json)];
    }
    const byId = new Map<number, unknown>();
    for (const item of json) byId.set(Number((item as { id?: unknown })?.id), item);
    return ids.map((id) => {
      const item = byId.get(id);
      if (item === undefined) throw new HistoryError('rpc_malformed_response', `RPC batch answer lacks id ${id}`);
      return toOutcome(item);
    });
  }

  async function batch(requests: readonly RpcRequest[], signal?: AbortSignal): Promise<RpcOutcome[]> {
    const out: RpcOutcome[] = [];
    for (let i = 0; i < requests.length;) {
      const size = batchSize;
      const part = await sendChunk(requests.slice(i, i + size), signal);
      out.push(...part);
      i += size;
    }
    return out;
  }

  async function call<T>(method: string, params: unknown[], signal?: AbortSignal): Promise<T> {
    const id = nextId++;
    const json = await post({ jsonrpc: '2.0', id, method, params }, 1, signal);
    const o = toOutcome(Array.isArray(json) ? json[0] : json);
    if (!o.ok) throw rpcError(method, o.error);
    return o.result as T;
  }

  return { url, stats, call, batch };
}

/** A JSON-RPC error as a HistoryError (not retryable: the node answered, and would again). */
export function rpcError(method: string, error: RpcErrorObject): HistoryError {
  return new HistoryError('rpc_error', `${method} failed: ${error.message} (code ${error.code})`, {
    context: { method, code: error.code, message: error.message },
  });
}

/** A per-call error worth retrying: the provider's limit or capacity, not the call itself. */
export function isTransientItemError(e: RpcErrorObject): boolean {
  return e.code === -32005 || e.code === 429 || /rate|too many|capacity|batch|busy|timeout|timed out|try again/i.test(e.message);
}

/**
 * `batch` that resends the calls a provider refused inside an accepted batch (some cap batch
 * sizes or rates per item rather than per request), up to `attempts` more times with backoff
 * 250 ms x 2^n; other per-call errors are returned as they are.
 */
export async function batchRetrying(rpc: RpcTransport, requests: readonly RpcRequest[], signal?: AbortSignal, attempts = 3): Promise<RpcOutcome[]> {
  const out = await rpc.batch(requests, signal);
  for (let n = 0; n < attempts; n++) {
    const failed = out.flatMap((o, i) => (!o.ok && isTransientItemError(o.error) ? [i] : []));
    if (!failed.length) break;
    await sleep(250 * 2 ** n, signal);
    const again = await rpc.batch(
      failed.map((i) => requests[i]),
      signal,
    );
    failed.forEach((i, j) => (out[i] = again[j]));
  }
  return out;
}
