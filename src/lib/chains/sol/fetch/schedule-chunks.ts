/**
 * The fetch stage's schedule: discovery's signature pages cut into chunks of `batchSize`
 * signatures, each chunk's fetch started at once (one getTransaction batch, decoded and enriched
 * as it arrives) while the queue has room, and queued in walk order with the position it reaches.
 */
import { nextTurn } from '../../../core/wait.js';
import type { SignaturePage } from '../discovery/signature-pages.js';
import type { WithSymbolsResult } from '../enrich/with-symbols.js';
import { encodeState } from '../position.js';
import type { SignatureInfo } from '../rpc-methods.js';
import type { Chunk, ChunkQueue } from './chunk-queue.js';

export interface ScheduleContext {
  batchSize: number;
  /** Signatures in the walk's first chunk (its first page holds just that many). */
  firstBatchSize: number;
  /** Starts a chunk's fetch, decoding and enrichment. */
  fetchChunk(signatures: readonly SignatureInfo[], positions: readonly string[], first: boolean): Promise<WithSymbolsResult>;
}

export interface ScheduleParameters {
  pages: AsyncGenerator<SignaturePage, void, undefined>;
  queue: ChunkQueue;
  /** The position to report when the walk finds nothing more: where it started. */
  startPosition: string;
  /** The walk goes from the top: its first chunk names the head (the newest signature's position, else `until`). */
  fromTop: boolean;
  until?: string;
  /** Called once the first page has been asked for (what may run beside it, after it). */
  onFirstPageAsked?: () => void;
  signal: AbortSignal;
}

/** Runs until the walk's last chunk is queued; throws what a page or the abort throws. */
export async function scheduleChunks(ctx: ScheduleContext, p: ScheduleParameters): Promise<void> {
  const { pages, queue, signal } = p;
  let lastPosition = p.startPosition;
  // Named on the walk's first chunk only.
  let head: string | undefined;
  const push = (chunk: Chunk) => {
    queue.push(head !== undefined ? { ...chunk, head } : chunk);
    head = undefined;
  };
  // The first page (the first chunk alone) and, once its chunk is started, the page after it.
  let nextPage = pages.next();
  p.onFirstPageAsked?.();
  for (let firstChunk = true; ;) {
    const { value: page, done: pagesDone } = await nextPage;
    if (pagesDone) return;
    let nextAsked = false;
    if (firstChunk && p.fromTop) head = page.states.length > 0 ? encodeState(page.states[0]) : p.until;
    if (page.signatures.length === 0) {
      push({ result: Promise.resolve({ trades: [], unexplained: [] }), position: lastPosition, done: true });
      return;
    }
    for (let i = 0; i < page.signatures.length;) {
      await queue.room(signal);
      signal.throwIfAborted();
      const end = Math.min(page.signatures.length, i + (firstChunk ? ctx.firstBatchSize : ctx.batchSize));
      const position = encodeState(page.states[end - 1]);
      // One turn of the event loop first: the connection the page came back on is only free for
      // the next request then (Node's fetch lets it go on a later turn), and the first batch on a
      // new connection waits for its handshake (5-8 ms here, where a TLS handshake to a remote
      // node takes round trips).
      if (firstChunk) await nextTurn(signal);
      const result = ctx.fetchChunk(page.signatures.slice(i, end), page.positions.slice(i, end), firstChunk);
      push({ result, position, done: page.last && end === page.signatures.length });
      if (firstChunk) {
        // The next page goes just after the first chunk's request (see signaturePages).
        nextPage = pages.next();
        nextPage.catch(() => {}); // awaited below; a failure surfaces there
        nextAsked = true;
        // The first batch is what a client waits for (the first NDJSON line): its
        // getTransaction batch and its symbol lookup have the connection to themselves instead
        // of queueing behind 7 batches of ~1.5 MB each and their parsing (measured warm at
        // 50 ms latency: first batch after ~210 ms this way, ~890 ms without). The rest of the
        // walk starts one round trip later, which costs a 10,000-trade walk ~1%.
        await result.then(
          () => {},
          () => {},
        );
        // And one turn later: launching the next 7 batches takes 5-8 ms of this thread, which
        // would otherwise run before the consumer has stored (and a server has sent) the first
        // batch, as this continuation was queued first.
        await nextTurn(signal);
      }
      firstChunk = false;
      lastPosition = position;
      i = end;
    }
    if (page.last) return;
    // Later pages were asked for by discovery as they arrived: this takes the one in flight.
    if (!nextAsked) nextPage = pages.next();
  }
}
