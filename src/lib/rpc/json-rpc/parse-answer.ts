import type { JsonRpcResponse } from '../read-batch.js';
import type { RpcContext } from './context.js';
import { BatchRefused, RETRYABLE_RPC_CODES, rpcFailure } from './errors.js';

/**
 * A 200 body parsed whole (a single call's answer, or a batch answer that is not an array); for a
 * batch, anything but an array becomes the error it stands for.
 */
export function parseAnswer(ctx: RpcContext, text: string, isBatch: boolean, method: string): unknown {
  const t0 = performance.now();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw rpcFailure(ctx.safeUrl, 'rpc_malformed_response', `${method}: body is not JSON (${text.length} chars)`, { cause: e, context: { method } });
  } finally {
    ctx.stats.parseMs += performance.now() - t0;
  }
  if (isBatch && !Array.isArray(parsed)) {
    const err = (parsed as JsonRpcResponse | null)?.error;
    // A single error object in answer to an array: the endpoint does not take batches
    // (-32600 invalid request) or is rate limiting; anything else is malformed.
    if (err && typeof err === 'object') {
      if (err.code !== undefined && RETRYABLE_RPC_CODES.has(err.code)) {
        const code = err.code === 429 || err.code === -32429 ? 'rpc_rate_limited' : 'rpc_error';
        throw rpcFailure(ctx.safeUrl, code, `${method}: ${err.message ?? 'error'} (${err.code})`, { retryable: true, context: { method, rpcCode: err.code } });
      }
      throw new BatchRefused(`${err.code}: ${err.message}`);
    }
    throw rpcFailure(ctx.safeUrl, 'rpc_malformed_response', `${method}: expected a batch array`, { context: { method } });
  }
  return parsed;
}
