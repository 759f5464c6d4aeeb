import { HistoryError } from '../../core/errors.js';
import { createBatchRound, type ItemOutcomes } from './batch-round.js';
import type { Call } from './call.js';
import type { RpcContext } from './context.js';
import { settledError } from './errors.js';
import { withBatching, type Batching } from './with-batching.js';
import { withItemResends } from './with-item-resends.js';
import type { CallOptions, RpcCall, RpcOutcome, RpcTransport, SettledOptions } from './types.js';

/**
 * callManySettled: per-call outcomes in the order of the calls, a node's error for a call handed
 * back as that call's outcome (the EVM source reads eth_getLogs range refusals from them);
 * transport failures still throw.
 */
export function createCallManySettled(ctx: RpcContext, batching: Batching, call: Call): RpcTransport['callManySettled'] {
  const send = withBatching(
    batching,
    withItemResends(
      ctx,
      createBatchRound(ctx, () => SETTLED),
    ),
    (c, opts) => settledCall(call, c, opts),
  );
  return <T>(calls: readonly RpcCall[], opts: SettledOptions = {}) => send(calls, opts) as Promise<RpcOutcome<T>[]>;
}

const SETTLED: ItemOutcomes = {
  ok: (result) => ({ ok: true, result }),
  error: settledError,
};

/** One call sent alone, its node error returned as an outcome. */
async function settledCall(call: Call, c: RpcCall, opts: CallOptions): Promise<RpcOutcome> {
  try {
    return { ok: true, result: await call(c.method, c.params, opts) };
  } catch (e) {
    if (!(e instanceof HistoryError) || typeof e.context.rpcCode !== 'number') throw e;
    return settledError({ code: e.context.rpcCode, message: String(e.context.rpcMessage ?? e.message), data: e.context.data });
  }
}
