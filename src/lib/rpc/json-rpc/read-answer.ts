/**
 * Reading a batch answer item by item, here or in a worker thread. The answer's bytes are read
 * while the request holds its limiter slot (BufferedBody) and parsed after it is let go: the slot is
 * held for the HTTP exchange only, not for the decoding a caller's `map` does item by item. Each
 * item is parsed and handed on before the next is parsed, so a batch of 100 transactions is never
 * one string or one object tree (json-items.ts has the garbage collection this saves).
 */
import { nextTurn } from '../../core/wait.js';
import { CutShort } from '../json-items.js';
import { readItems, type BatchReading, type JsonRpcResponse, type PreparedItem, type ReadCost } from '../read-batch.js';
import type { RpcContext } from './context.js';
import { cutShort } from './errors.js';
import { parseAnswer } from './parse-answer.js';
import { addReadCost } from './stats.js';
import type { CallOptions } from './types.js';

/** A batch answer's bytes as they came, to be read once the limiter's slot is free. */
export class BufferedBody {
  constructor(readonly chunks: Uint8Array[]) {}
}

/** What a reader leaves for the batch's check when the items already went to their callback. */
export const STREAMED = Symbol('streamed');

/**
 * Reads a buffered batch answer: returns STREAMED once every item went to its callback, or what
 * parseAnswer makes of a body that is not an array. Throws rpc_malformed_response on a cut or
 * broken array, or what the item callback throws.
 */
export type AnswerReader = (body: BufferedBody) => Promise<unknown>;

/** On this thread: each response object to `onItem` as it is parsed. */
export function readHere(ctx: RpcContext, onItem: (item: JsonRpcResponse) => void, method: string, opts: CallOptions): AnswerReader {
  return async (b) => {
    // Decoding a batch takes a while: first let the event loop (one turn, not a timer: sleep(0) is
    // clamped to 1 ms, up to ~96 ms idle a 10,000-trade walk) send the requests that the freed
    // slot let start, and take in answers that arrived meanwhile (the next signature page among
    // them), so the pipeline stays full while this one is read. Not for a high-priority batch
    // (what a client is waiting for): it goes first.
    if (opts.priority !== 'high') await nextTurn(opts.signal);
    const cost: ReadCost = { parseMs: 0, scanMs: 0, mapMs: 0, chars: 0 };
    let whole: string | null;
    try {
      whole = readItems(b.chunks, onItem, cost);
    } catch (e) {
      if (e instanceof CutShort) throw cutShort(ctx.safeUrl, method, e.message, e);
      throw e;
    } finally {
      addReadCost(ctx.stats, cost);
    }
    return whole !== null ? parseAnswer(ctx, whole, true, method) : STREAMED;
  };
}

/** Elsewhere (`CallManyOptions.readBatch`, a worker thread): its prepared items go to `onPrepared`. */
export function readElsewhere(
  ctx: RpcContext,
  readBatch: (body: Uint8Array) => Promise<BatchReading<unknown>>,
  onPrepared: (item: PreparedItem<unknown>) => void,
  method: string,
): AnswerReader {
  return async (b) => {
    // One buffer of its own, moved (not copied) to the worker: the chunks may be views into
    // buffers the HTTP client reuses (one copy: ~0.1 ms for a 1.5 MB batch).
    const body = new Uint8Array(b.chunks.reduce((n, c) => n + c.length, 0));
    let o = 0;
    for (const c of b.chunks) {
      body.set(c, o);
      o += c.length;
    }
    b.chunks.length = 0;
    const reading = await readBatch(body);
    if (reading.kind === 'cut') throw cutShort(ctx.safeUrl, method, reading.message);
    if (reading.kind === 'whole') return parseAnswer(ctx, reading.text, true, method);
    addReadCost(ctx.stats, reading);
    for (const item of reading.items) onPrepared(item);
    return STREAMED;
  };
}
