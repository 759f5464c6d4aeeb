/**
 * A pool of worker threads for CPU-heavy source work (decoding getTransaction batches): the
 * server's `Offload`. On 2 cores, JSON parsing and decoding (about 1.0 s of a 10,000-trade
 * Solana walk) then run on the second core while the main thread fetches, stores and streams
 * (about 0.7 s of store commits in the same walk), instead of the two taking turns.
 *
 * Workers start on first use and are unref'd while idle, so an idle pool never keeps the process
 * alive. A worker that dies fails its tasks with a retryable error (the transport fetches that
 * batch again) and is replaced on the next task. When no worker can start at all (a build without
 * the worker's file), tasks run on the calling thread: slower, never wrong.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HistoryError } from '../../core/errors.js';
import type { Offload } from '../../core/offload.js';
import { offloadTasks, WORKER_ROLE, type TaskMessage, type TaskReply } from './tasks.js';

export interface WorkerPoolOptions {
  /** Worker threads. 0 runs every task on the calling thread. */
  size: number;
  /** Told once when the first worker is ready, or when none can start. */
  log?: (message: string) => void;
  /** The worker's module (default: worker-entry.ts, wherever the build put it). Tests pass others. */
  entryUrl?: string;
}

export interface WorkerPool extends Offload {
  readonly size: number;
  /** Starts the workers now; resolves when they are ready (or could not start). */
  warm(): Promise<void>;
  readonly stats: { tasks: number; inline: number; workerFailures: number };
  close(): Promise<void>;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  ready: boolean;
  failed: boolean;
  /** Settles when the worker is ready or has failed. */
  started: Promise<void>;
  settle(): void;
}

/**
 * From source (tests, `vite dev`) the entry is TypeScript: a worker cannot take a loader from
 * its parent, so it boots through tsx's `tsImport`. From the build it is a plain .js file.
 */
const TS_BOOT = `const { workerData } = require('node:worker_threads');
import(workerData.tsxApi).then((api) => api.tsImport(workerData.entry, workerData.entry));`;

function tsxApiUrl(): string {
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json');
  return pathToFileURL(join(dirname(pkg), 'dist/esm/api/index.mjs')).href;
}

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const size = Math.max(0, Math.floor(options.size));
  const slots: Slot[] = [];
  const stats = { tasks: 0, inline: 0, workerFailures: 0 };
  let entry: Promise<string> | undefined;
  let nextId = 1;
  let closed = false;
  /** Set when a worker failed before it was ready: tasks then run here. */
  let cannotStart = false;
  let announced = false;

  function spawn(url: string): Slot {
    const role = WORKER_ROLE;
    const worker = url.endsWith('.ts')
      ? new Worker(TS_BOOT, { eval: true, workerData: { role, entry: url, tsxApi: tsxApiUrl() } })
      : new Worker(new URL(url), { workerData: { role } });
    worker.unref();
    let settle = () => {};
    const started = new Promise<void>((r) => (settle = r));
    const slot: Slot = { worker, pending: new Map(), ready: false, failed: false, started, settle };
    const fail = (why: string, cause?: unknown) => {
      // 'error' is followed by 'exit': one failure.
      if (slot.failed) return;
      slot.failed = true;
      const i = slots.indexOf(slot);
      if (i >= 0) slots.splice(i, 1);
      if (!slot.ready && !closed) {
        cannotStart = true;
        options.log?.(`worker threads could not start (${why}); decoding on the main thread`);
      }
      slot.settle();
      stats.workerFailures++;
      const err = new HistoryError('internal', `a worker thread stopped: ${why}`, { cause, retryable: true });
      for (const p of slot.pending.values()) p.reject(err);
      slot.pending.clear();
    };
    worker.on('message', (m: TaskReply | { ready: true }) => {
      if ('ready' in m) {
        slot.ready = true;
        slot.settle();
        if (!announced) options.log?.(`Decoding in ${size} worker thread(s).`);
        announced = true;
        return;
      }
      const p = slot.pending.get(m.id);
      if (!p) return;
      slot.pending.delete(m.id);
      if (slot.pending.size === 0) worker.unref();
      if (m.ok) p.resolve(m.value);
      else p.reject(new HistoryError('internal', m.message, { retryable: false }));
    });
    worker.on('error', (e) => fail(e.message, e));
    worker.on('exit', (code) => fail(`exit code ${code}`));
    return slot;
  }

  async function pick(): Promise<Slot | null> {
    if (size === 0 || cannotStart || closed) return null;
    entry ??= options.entryUrl ? Promise.resolve(options.entryUrl) : import('./worker-entry.js').then((m) => m.workerEntryUrl);
    const url = await entry;
    while (slots.length < size) slots.push(spawn(url));
    let best = slots[0];
    for (const s of slots) if (s.pending.size < best.pending.size) best = s;
    return best;
  }

  return {
    size,
    stats,
    async run<T>(task: string, input: unknown, transfer: ArrayBuffer[] = []): Promise<T> {
      const run = (await offloadTasks()).get(task);
      if (!run) throw new HistoryError('internal', `unknown offload task ${task}`);
      stats.tasks++;
      const slot = await pick();
      if (!slot) {
        stats.inline++;
        return run(input as never) as T;
      }
      const id = nextId++;
      const message: TaskMessage = { id, task, input };
      return new Promise<T>((resolve, reject) => {
        slot.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        slot.worker.ref();
        slot.worker.postMessage(message, transfer);
      });
    },
    async warm() {
      await pick().catch(() => null);
      await Promise.all(slots.map((s) => s.started));
    },
    async close() {
      closed = true;
      const all = slots.splice(0);
      await Promise.all(all.map((s) => s.worker.terminate()));
    },
  };
}
