/**
 * Reading a JSON-RPC batch answer from its bytes, item by item (json-items.ts), in whichever
 * thread does it: the transport on its own thread, or a worker it hands the bytes to
 * (`CallManyOptions.readBatch`). Plain Web APIs only.
 */
import { CutShort, JsonArraySplitter } from './json-items.js';

export interface JsonRpcErrorObject {
  code?: number;
  message?: string;
  data?: unknown;
}

export interface JsonRpcResponse {
  id?: unknown;
  result?: unknown;
  error?: JsonRpcErrorObject;
}

/** What reading a body cost, for the transport's stats. */
export interface ReadCost {
  /** JSON.parse of the items. */
  parseMs: number;
  /** Finding the items (and decoding UTF-8), without the parsing. */
  scanMs: number;
  /** The caller's per-item work (a `map`). */
  mapMs: number;
  chars: number;
}

/**
 * Reads `chunks` (the bytes of a 200 answer) item by item, handing each parsed response object to
 * `onItem` before the next is parsed. Returns the whole text when the body is not an array (a
 * single error object), else null. Throws CutShort on a cut or broken array, or what `onItem`
 * throws.
 */
export function readItems(chunks: Uint8Array[], onItem: (item: JsonRpcResponse) => void, cost: ReadCost): string | null {
  let inItems = 0;
  let chars = 0;
  const splitter = new JsonArraySplitter({
    parse(text) {
      chars += text.length + 1;
      const t0 = performance.now();
      try {
        return JSON.parse(text);
      } finally {
        const ms = performance.now() - t0;
        cost.parseMs += ms;
        inItems += ms;
      }
    },
    item(value) {
      const t0 = performance.now();
      try {
        onItem(value as JsonRpcResponse);
      } finally {
        const ms = performance.now() - t0;
        cost.mapMs += ms;
        inItems += ms;
      }
    },
  });
  const t0 = performance.now();
  try {
    for (let i = 0; i < chunks.length; i++) {
      splitter.push(chunks[i]);
      chunks[i] = EMPTY; // read: let it go
    }
    const whole = splitter.end();
    cost.chars += whole !== null ? whole.length : chars;
    return whole;
  } catch (e) {
    if (e instanceof CutShort) throw new CutShort(`after ${splitter.count} items: ${e.message}`);
    throw e;
  } finally {
    cost.scanMs += performance.now() - t0 - inItems;
  }
}
const EMPTY = new Uint8Array(0);

/** A response object with its result already mapped, or its error, or why mapping failed. */
export interface PreparedItem<R> {
  id: unknown;
  result?: R;
  error?: JsonRpcErrorObject;
  /** The map threw (a decoder bug): its message. The item's call fails for good. */
  failed?: string;
  /** Neither result nor error. */
  malformed?: true;
}

/** A batch answer read somewhere else, as plain data that crosses a thread boundary. */
export type BatchReading<R> = ({ kind: 'items'; items: PreparedItem<R>[] } & ReadCost) | { kind: 'whole'; text: string } | { kind: 'cut'; message: string };

/**
 * The body as views of 64 KB, as an HTTP client hands it over, not one 1.5 MB text: read whole,
 * the 10,000-trade walk's JSON.parse took 1.05-1.29 s in the worker; by pieces, 0.67-0.81 s
 * (the endpoint benchmark, 3 runs each). Likely cause: one character outside ASCII anywhere (a
 * token name, a log line) makes a whole text two-byte, and every item sliced from it with it.
 */
function pieces(body: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < body.length; i += PIECE) out.push(body.subarray(i, Math.min(body.length, i + PIECE)));
  return out;
}
const PIECE = 64 * 1024;

/**
 * A whole batch answer read and mapped: each result goes through `map` as soon as it is parsed
 * and is dropped before the next is parsed, so only the mapped values stay alive.
 */
export function readBatchBody<R>(body: Uint8Array, map: (result: unknown) => R): BatchReading<R> {
  const items: PreparedItem<R>[] = [];
  const cost: ReadCost = { parseMs: 0, scanMs: 0, mapMs: 0, chars: 0 };
  let whole: string | null;
  try {
    whole = readItems(
      pieces(body),
      (r) => {
        const id = r?.id;
        if (r?.error && typeof r.error === 'object') return void items.push({ id, error: r.error });
        if (!r || typeof r !== 'object' || !('result' in r)) return void items.push({ id, malformed: true });
        try {
          items.push({ id, result: map(r.result) });
        } catch (e) {
          items.push({ id, failed: e instanceof Error ? e.message : String(e) });
        }
      },
      cost,
    );
  } catch (e) {
    if (e instanceof CutShort) return { kind: 'cut', message: e.message };
    throw e;
  }
  if (whole !== null) return { kind: 'whole', text: whole };
  return { kind: 'items', items, ...cost };
}
