import { createBatchRound, type BatchOptions, type ItemOutcomes } from './batch-round.js';
import type { Call } from './call.js';
import type { RpcContext } from './context.js';
import { withBatching, type Batching } from './with-batching.js';
import { withItemResends } from './with-item-resends.js';
import type { CallManyOptions, RpcCall, RpcTransport } from './types.js';

/**
 * callMany: results in the order of the calls, each through the caller's `map` as soon as it is
 * parsed; any call that still fails after its re-sends fails the whole call.
 */
export function createCallMany(ctx: RpcContext, batching: Batching, call: Call): RpcTransport['callMany'] {
  const send = withBatching(batching, withItemResends(ctx, createBatchRound(ctx, mapped)), (c, opts, i) => {
    const map = opts.map;
    return map ? call(c.method, c.params, opts).then((r) => map(r, i)) : call(c.method, c.params, opts);
  });
  return <T, R = T>(calls: readonly RpcCall[], opts: CallManyOptions<T, R> = {}) => send(calls, opts as unknown as BatchOptions) as Promise<R[]>;
}

/** A result read here goes through `map` with its index among all the calls; one read elsewhere is mapped already. */
function mapped(opts: BatchOptions, offset: number): ItemOutcomes {
  const map = opts.map;
  return { ok: (result, i, prepared) => (prepared ? result : map ? map(result, offset + i) : result) };
}
