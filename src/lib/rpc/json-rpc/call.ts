import type { JsonRpcResponse } from '../read-batch.js';
import type { RpcContext } from './context.js';
import { resultOf, rpcFailure } from './errors.js';
import { sendRequest } from './send-request.js';
import { HistoryError, isHistoryError } from '../../core/errors.js';
import type { SettledOptions } from './types.js';

export type Call = <T = unknown>(method: string, params: unknown[], opts?: SettledOptions) => Promise<T>;

/** One JSON-RPC call in a request of its own: its result, or the error the node answered, thrown. */
export function createCall(ctx: RpcContext): Call {
  return async <T>(method: string, params: unknown[], opts: SettledOptions = {}): Promise<T> =>
    sendRequest(
      ctx,
      () => ({ body: JSON.stringify({ jsonrpc: '2.0', id: ctx.nextId(), method, params }), isBatch: false, count: 1 }),
      (parsed) => {
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
          throw rpcFailure(ctx.safeUrl, 'rpc_malformed_response', `${method}: expected a JSON-RPC response object`, { context: { method } });
        }
        try {
          return resultOf<T>(ctx.safeUrl, parsed as JsonRpcResponse, method);
        } catch (e) {
          // A caller that reads the node's own refusals (retryItemErrors: false: a provider's
          // eth_getLogs -32005 says which range to ask instead) gets them at once, as a batch hands
          // them back: resent by the retry policy, one refusal cost 7 calls and about 7 s.
          if (opts.retryItemErrors === false && isHistoryError(e) && e.retryable && typeof e.context.rpcCode === 'number') {
            throw new HistoryError(e.code, e.message, { cause: e.cause, retryable: false, context: e.context });
          }
          throw e;
        }
      },
      method,
      opts,
    );
}
