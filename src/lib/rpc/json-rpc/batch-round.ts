import { HistoryError } from '../../core/errors.js';
import type { JsonRpcErrorObject, JsonRpcResponse, PreparedItem } from '../read-batch.js';
import type { RpcContext } from './context.js';
import { resultOf, rpcFailure } from './errors.js';
import { readElsewhere, readHere, STREAMED } from './read-answer.js';
import { sendRequest, type RpcRequest } from './send-request.js';
import type { CallManyOptions, RpcCall, SettledOptions } from './types.js';

/** callMany's and callManySettled's options, as the batch parts read them. */
export type BatchOptions = CallManyOptions<unknown, unknown> & SettledOptions;

/**
 * What becomes of each call's answer in a batch: a mapped result (callMany) or an outcome
 * (callManySettled).
 */
export interface ItemOutcomes {
  /** A call's result (already mapped elsewhere when `prepared`), at its index in the batch. */
  ok(result: unknown, index: number, prepared: boolean): unknown;
  /** A node's error for one call, handed back; absent, the error fails the batch. */
  error?(e: JsonRpcErrorObject): unknown;
}

/**
 * One round of a batch: the calls at `todo` sent as one batch array with the retry policy, their
 * answers written into `out`. Resolves with the indices answered with a transient error, to be
 * sent again (only those); a permanent error fails the batch unless `ItemOutcomes.error` takes it.
 */
export type BatchRound = (calls: readonly RpcCall[], todo: readonly number[], out: unknown[], opts: BatchOptions, offset: number) => Promise<number[]>;

export function createBatchRound(ctx: RpcContext, outcomesFor: (opts: BatchOptions, offset: number) => ItemOutcomes): BatchRound {
  return async (calls, todo, out, opts, offset) => {
    const method = calls[0].method;
    const answer = new BatchAnswer(ctx, calls, todo, out, outcomesFor(opts, offset), opts.retryItemErrors !== false, method);
    const read = opts.readBatch
      ? readElsewhere(ctx, opts.readBatch, (r) => answer.take(r, true), method)
      : readHere(ctx, (r) => answer.take(r, false), method, opts);
    await sendRequest(
      ctx,
      () => answer.request(),
      (parsed) => answer.check(parsed),
      method,
      opts,
      read,
    );
    return answer.resend;
  };
}

/** One round's request and what its answer brought, item by item, attempt by attempt. */
class BatchAnswer {
  /** JSON-RPC id → index in `calls`, for this attempt. */
  private ids = new Map<number, number>();
  private seen = new Set<number>();
  /** Indices answered with a transient error in this attempt. */
  resend: number[] = [];

  constructor(
    private readonly ctx: RpcContext,
    private readonly calls: readonly RpcCall[],
    private readonly todo: readonly number[],
    private readonly out: unknown[],
    private readonly outcomes: ItemOutcomes,
    private readonly resendErrors: boolean,
    private readonly method: string,
  ) {}

  /** This attempt's body, with fresh ids: only this attempt's answer counts (an earlier one may have been malformed). */
  request(): RpcRequest {
    this.ids = new Map();
    this.resend = [];
    this.seen = new Set();
    const body = this.todo.map((i) => {
      const id = this.ctx.nextId();
      this.ids.set(id, i);
      return { jsonrpc: '2.0', id, method: this.calls[i].method, params: this.calls[i].params };
    });
    return { body: JSON.stringify(body), isBatch: true, count: this.todo.length };
  }

  /** One response object; `prepared`: read elsewhere, its result already mapped. Unknown and repeated ids are ignored. */
  take(r: JsonRpcResponse | PreparedItem<unknown>, prepared: boolean): void {
    const i = typeof r?.id === 'number' ? this.ids.get(r.id) : undefined;
    if (i === undefined || this.seen.has(i)) return;
    this.seen.add(i);
    const p = r as PreparedItem<unknown>;
    if (prepared && p.failed !== undefined) throw new HistoryError('internal', p.failed, { retryable: false, context: { method: this.method } });
    let result: unknown;
    try {
      result = resultOf<unknown>(this.ctx.safeUrl, prepared && p.malformed ? {} : r, this.calls[i].method);
    } catch (e) {
      if (e instanceof HistoryError && e.retryable && this.resendErrors) return void this.resend.push(i);
      if (this.outcomes.error && r.error) return void (this.out[i] = this.outcomes.error(r.error));
      throw e;
    }
    this.out[i] = this.outcomes.ok(result, i, prepared);
  }

  /** The attempt's end: the items of an answer parsed whole, then every call must have been answered. */
  check(parsed: unknown): void {
    if (parsed !== STREAMED) for (const r of parsed as JsonRpcResponse[]) this.take(r, false);
    if (this.seen.size !== this.todo.length) {
      throw rpcFailure(this.ctx.safeUrl, 'rpc_malformed_response', `${this.method}: batch answered ${this.seen.size} of ${this.todo.length} calls`, {
        context: { method: this.method },
      });
    }
  }
}
