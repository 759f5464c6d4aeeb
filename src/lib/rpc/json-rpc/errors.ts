/**
 * What the JSON-RPC client throws: HistoryErrors with rpc_* codes and the URL redacted, and
 * BatchRefused, which never leaves the client (the batching part falls back to single calls).
 */
import { HistoryError, type HistoryErrorCode } from '../../core/errors.js';
import type { JsonRpcErrorObject, JsonRpcResponse } from '../read-batch.js';
import type { RpcOutcome } from './types.js';

/** JSON-RPC error codes that mean "try again": node behind (-32005), rate limited, internal. */
export const RETRYABLE_RPC_CODES = new Set([-32005, -32429, 429, -32603, -32004, -32014]);
/** HTTP statuses with which providers refuse a batch array (400 invalid request, 403 plan, 413 size). */
export const BATCH_REFUSED_STATUS = new Set([400, 403, 405, 413, 422]);

/** The endpoint does not take batch arrays (a status above, or a single error object in answer). */
export class BatchRefused extends Error {}

export interface FailureDetails {
  cause?: unknown;
  retryAfter?: number;
  retryable?: boolean;
  context?: Record<string, unknown>;
}

/** A HistoryError naming the endpoint by its redacted URL, in the message and the context. */
export function rpcFailure(safeUrl: string, code: HistoryErrorCode, message: string, extra: FailureDetails = {}): HistoryError {
  return new HistoryError(code, `${message} (${safeUrl})`, {
    cause: extra.cause,
    retryAfter: extra.retryAfter,
    retryable: extra.retryable,
    context: { url: safeUrl, ...extra.context },
  });
}

/** A batch answer that ended before its array did, or is not JSON: worth another try. */
export function cutShort(safeUrl: string, method: string, message: string, cause?: unknown): HistoryError {
  return rpcFailure(safeUrl, 'rpc_malformed_response', `${method}: batch answer cut short or not JSON (${message})`, { cause, context: { method } });
}

/** A response object's result, or the HistoryError its error stands for (retryable when transient). */
export function resultOf<T>(safeUrl: string, r: JsonRpcResponse, method: string): T {
  if (r.error) {
    const code = r.error.code;
    const retryable = code !== undefined && RETRYABLE_RPC_CODES.has(code);
    throw rpcFailure(
      safeUrl,
      retryable && (code === 429 || code === -32429) ? 'rpc_rate_limited' : 'rpc_error',
      `${method}: ${r.error.message ?? 'error'} (${code})`,
      { retryable, context: { method, rpcCode: code, rpcMessage: r.error.message, data: r.error.data } },
    );
  }
  if (!('result' in r)) throw rpcFailure(safeUrl, 'rpc_malformed_response', `${method}: response has neither result nor error`, { context: { method } });
  return r.result as T;
}

/** A node's error for one call, as callManySettled hands it back. */
export function settledError(e: JsonRpcErrorObject): Extract<RpcOutcome, { ok: false }> {
  return { ok: false, error: { code: Number(e.code), message: String(e.message ?? ''), data: e.data } };
}
