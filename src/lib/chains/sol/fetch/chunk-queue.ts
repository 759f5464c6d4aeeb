/**
 * The chunks of a walk in flight, in walk order, between the scheduler that starts them and the
 * consumer that yields them: at most `lookahead` started and not yet taken, so a slow consumer
 * (a client reading slowly, a store committing) holds the walk back instead of letting fetched
 * batches pile up in memory.
 */
import type { WithSymbolsResult } from '../enrich/with-symbols.js';

export interface Chunk {
  /** The chunk's trades (and unexplained transactions), once fetched, decoded and enriched. */
  result: Promise<WithSymbolsResult>;
  /** The walk's position once this chunk is delivered. */
  position: string;
  /** The walk's last chunk. */
  done: boolean;
  /** On the first chunk of a walk from the top: the head marker a later refresh walks down to. */
  head?: string;
}

export class ChunkQueue {
  private readonly chunks: Chunk[] = [];
  private ended = false;
  private error: unknown;
  private wakeConsumer: (() => void) | null = null;
  private wakeScheduler: (() => void) | null = null;

  constructor(private readonly lookahead: number) {}

  push(chunk: Chunk): void {
    chunk.result.catch(() => {}); // handled by the consumer when it gets there; never unhandled
    this.chunks.push(chunk);
    this.notifyConsumer();
  }

  /** Resolves when another chunk may start (or the signal is aborted: the caller checks it). */
  async room(signal: AbortSignal): Promise<void> {
    while (this.chunks.length >= this.lookahead && !signal.aborted) await new Promise<void>((r) => (this.wakeScheduler = r));
  }

  /** No more chunks will come: the scheduler returned, or threw `error`. */
  end(error?: unknown): void {
    this.error = error;
    this.ended = true;
    this.notifyConsumer();
  }

  /** The next chunk in walk order; undefined once the queue has ended empty (then see `endError`). */
  async take(): Promise<Chunk | undefined> {
    while (this.chunks.length === 0 && !this.ended) await new Promise<void>((r) => (this.wakeConsumer = r));
    const chunk = this.chunks.shift();
    this.notifyScheduler();
    return chunk;
  }

  /** What the scheduler threw, if it did. */
  get endError(): unknown {
    return this.error;
  }

  /** Lets a scheduler waiting for room see the walk's abort. */
  notifyScheduler(): void {
    this.wakeScheduler?.();
    this.wakeScheduler = null;
  }

  private notifyConsumer(): void {
    this.wakeConsumer?.();
    this.wakeConsumer = null;
  }
}
