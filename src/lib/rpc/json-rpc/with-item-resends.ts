import type { RpcContext } from './context.js';
import type { BatchOptions, BatchRound } from './batch-round.js';
import { rpcFailure } from './errors.js';
import type { RpcCall } from './types.js';

/** Sends a batch of calls (at most one batch array's worth) and resolves with their answers in order. */
export type BatchSender = (calls: readonly RpcCall[], opts: BatchOptions, offset: number) => Promise<unknown[]>;

/**
 * A batch round repeated for the calls answered with a transient error (node behind, rate
 * limited), only those, `baseDelayMs` × 2^round apart, at most `maxRetries` times: a node that
 * lags on one call of 100 does not cost the other 99 another trip.
 */
export function withItemResends(ctx: RpcContext, round: BatchRound): BatchSender {
  return async (calls, opts, offset) => {
    const out = new Array<unknown>(calls.length);
    let pending = calls.map((_, i) => i);
    const method = calls[0].method;
    for (let n = 0; pending.length > 0; n++) {
      const resend = await round(calls, pending, out, opts, offset);
      if (resend.length > 0) {
        if (n >= ctx.maxRetries) {
          throw rpcFailure(ctx.safeUrl, 'rpc_error', `${method}: ${resend.length} calls still failing after ${n + 1} attempts`, { context: { method } });
        }
        ctx.stats.retries++;
        await ctx.sleep(ctx.baseDelayMs * 2 ** n, opts.signal);
      }
      pending = resend;
    }
    return out;
  };
}
