import type { JsonRpcResponse } from '../read-batch.js';
import type { RpcContext } from './context.js';
import { resultOf, rpcFailure } from './errors.js';
import { sendRequest } from './send-request.js';
import type { CallOptions } from './types.js';

export type Call = <T = unknown>(method: string, params: unknown[], opts?: CallOptions) => Promise<T>;

/** One JSON-RPC call in a request of its own: its result, or the error the node answered, thrown. */
export function createCall(ctx: RpcContext): Call {
  return async <T>(method: string, params: unknown[], opts: CallOptions = {}): Promise<T> =>
    sendRequest(
      ctx,
      () => ({ body: JSON.stringify({ jsonrpc: '2.0', id: ctx.nextId(), method, params }), isBatch: false, count: 1 }),
      (parsed) => {
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
          throw rpcFailure(ctx.safeUrl, 'rpc_malformed_response', `${method}: expected a JSON-RPC response object`, { context: { method } });
        }
        return resultOf<T>(ctx.safeUrl, parsed as JsonRpcResponse, method);
      },
      method,
      opts,
    );
}
