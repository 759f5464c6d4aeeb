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
 *
 * Built from plain functions, one per behaviour, in json-rpc/:
 *
 *   context.ts            what the parts share: the HTTP pipeline, stats, retry policy, ids
 *   send-request.ts       one request with the retry policy: post, status, parse or buffer
 *   read-answer.ts        a batch answer read item by item, here or in a worker thread
 *   call.ts               one call in a request of its own
 *   batch-round.ts        one batch array: ids, answers matched item by item, every call answered
 *   with-item-resends.ts  the calls answered with a transient error sent again, only those
 *   with-batching.ts      calls cut into batch arrays; a refused batch turns batching off
 *   call-many.ts          results mapped, any failure thrown
 *   call-many-settled.ts  per-call outcomes, a node's error handed back
 *   errors.ts, stats.ts, parse-answer.ts, types.ts
 */
import { createCall } from './json-rpc/call.js';
import { createCallManySettled } from './json-rpc/call-many-settled.js';
import { createCallMany } from './json-rpc/call-many.js';
import { createRpcContext } from './json-rpc/context.js';
import type { RpcTransport, RpcTransportOptions } from './json-rpc/types.js';
import { createBatching } from './json-rpc/with-batching.js';

export { nextTurn, sleep } from '../core/wait.js';
export { parseRetryAfter } from './http.js';
export type {
  CallManyOptions,
  CallOptions,
  RpcCall,
  RpcOutcome,
  RpcTransport,
  RpcTransportOptions,
  RpcTransportStats,
  SettledOptions,
} from './json-rpc/types.js';

export function createRpcTransport(options: RpcTransportOptions): RpcTransport {
  const ctx = createRpcContext(options);
  const batching = createBatching(options);
  const call = createCall(ctx);
  return {
    url: options.url,
    call,
    callMany: createCallMany(ctx, batching, call),
    callManySettled: createCallManySettled(ctx, batching, call),
    stats: ctx.stats,
    get batching() {
      return batching.on;
    },
  };
}
