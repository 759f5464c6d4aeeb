import { answerText, statusError, withRetries } from '../http.js';
import type { RpcContext } from './context.js';
import { BATCH_REFUSED_STATUS, BatchRefused } from './errors.js';
import { parseAnswer } from './parse-answer.js';
import { BufferedBody, type AnswerReader } from './read-answer.js';
import type { CallOptions } from './types.js';

/** One request's body, built again for each attempt (a batch takes fresh ids each time). */
export interface RpcRequest {
  body: string;
  isBatch: boolean;
  /** JSON-RPC calls in it, for the stats. */
  count: number;
}

/**
 * Sends a request with the retry policy: each attempt builds its body, posts it, reads the answer
 * (a batch answer through `read`, item by item) and gives it to `handle`, which turns it into
 * results or throws. BatchRefused goes straight out (it is not a HistoryError).
 */
export function sendRequest<R>(
  ctx: RpcContext,
  build: () => RpcRequest,
  handle: (parsed: unknown) => R,
  method: string,
  opts: CallOptions,
  read?: AnswerReader,
): Promise<R> {
  return withRetries(
    async () => {
      const { body, isBatch, count } = build();
      ctx.stats.calls += count;
      let got = await attempt(ctx, body, isBatch, opts, method, read !== undefined);
      if (got instanceof BufferedBody) got = await read!(got);
      return handle(got);
    },
    ctx.retryPolicy,
    opts.signal,
    ctx.stats,
  );
}

/**
 * One HTTP attempt. Resolves with the parsed body, or with a 200 body's bytes when `buffer` (a
 * batch answer to read item by item); throws a HistoryError (retryable or not), BatchRefused, or
 * the caller's abort reason.
 */
async function attempt(ctx: RpcContext, body: string, isBatch: boolean, opts: CallOptions, method: string, buffer: boolean): Promise<unknown> {
  const a = await ctx.http({ method: 'POST', body, signal: opts.signal, priority: opts.priority, label: method });
  if (buffer && a.status === 200) return new BufferedBody(a.chunks);
  const text = answerText(a);
  ctx.stats.responseChars += text.length;
  const err = statusError(a.status, a.headers, text, method, ctx.safeUrl);
  if (err?.code === 'rpc_rate_limited') throw err;
  if (isBatch && BATCH_REFUSED_STATUS.has(a.status)) throw new BatchRefused(`HTTP ${a.status}: ${text.slice(0, 200)}`);
  if (err) throw err;
  return parseAnswer(ctx, text, isBatch, method);
}
