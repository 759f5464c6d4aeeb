import type { BatchOptions } from './batch-round.js';
import { BatchRefused } from './errors.js';
import type { BatchSender } from './with-item-resends.js';
import type { RpcCall, RpcTransportOptions } from './types.js';

/** Whether calls go out as batch arrays: on until the endpoint refuses one (then remembered for the transport). */
export interface Batching {
  /** Calls per batch array. */
  readonly size: number;
  on: boolean;
}

export function createBatching(options: Pick<RpcTransportOptions, 'batch' | 'batchSize'>): Batching {
  const size = Math.max(1, Math.floor(options.batchSize ?? 100));
  return { size, on: options.batch !== false && size > 1 };
}

/** One call sent alone; `index` is its place among all the calls. */
export type SingleSender = (call: RpcCall, opts: BatchOptions, index: number) => Promise<unknown>;

/**
 * Many calls as batch arrays of `size`, sent together, or one by one when batching is off. A batch
 * the endpoint refuses (BatchRefused) turns batching off and its calls go one by one.
 */
export function withBatching(
  batching: Batching,
  batch: BatchSender,
  single: SingleSender,
): (calls: readonly RpcCall[], opts: BatchOptions) => Promise<unknown[]> {
  return async (calls, opts) => {
    if (calls.length === 0) return [];
    if (batching.on && calls.length > 1) {
      const chunks: Promise<unknown[]>[] = [];
      for (let i = 0; i < calls.length; i += batching.size) {
        const part = calls.slice(i, i + batching.size);
        chunks.push(
          batch(part, opts, i).catch((e) => {
            if (!(e instanceof BatchRefused)) throw e;
            // The endpoint does not take batch arrays: remember, and send these one by one.
            batching.on = false;
            return Promise.all(part.map((c, j) => single(c, opts, i + j)));
          }),
        );
      }
      return (await Promise.all(chunks)).flat();
    }
    return Promise.all(calls.map((c, i) => single(c, opts, i)));
  };
}
