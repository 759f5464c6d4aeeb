/**
 * Bounded concurrency plus a request rate, with two priorities. Signature pages are on the
 * critical path of a walk (each page needs the previous one), so they go `high` and jump ahead
 * of queued transaction batches; with 8 slots and 50 ms per request that keeps the chain of
 * pages from waiting behind up to 7 batches (350 ms) at every step.
 */

import { onAbort } from '../core/wait.js';

export type Priority = 'high' | 'normal';

export interface Limiter {
  /** Runs `task` once a slot is free and the rate allows; the slot is held until it settles. */
  run<T>(task: () => Promise<T>, priority?: Priority, signal?: AbortSignal): Promise<T>;
  readonly inFlight: number;
}

export interface LimiterOptions {
  /** Tasks running at once. */
  maxInFlight: number;
  /** Task starts per second; Infinity for no rate cap. */
  requestsPerSecond?: number;
  now?: () => number;
}

interface Waiter {
  start: () => void;
}

export function createLimiter(options: LimiterOptions): Limiter {
  const maxInFlight = Math.max(1, Math.floor(options.maxInFlight));
  const rps = options.requestsPerSecond ?? Infinity;
  const interval = Number.isFinite(rps) && rps > 0 ? 1000 / rps : 0;
  const now = options.now ?? (() => performance.now());
  const high: Waiter[] = [];
  const normal: Waiter[] = [];
  let inFlight = 0;
  let nextStart = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function pump(): void {
    while (inFlight < maxInFlight && (high.length > 0 || normal.length > 0)) {
      if (interval > 0) {
        const t = now();
        if (t < nextStart) {
          if (timer === undefined) {
            timer = setTimeout(() => {
              timer = undefined;
              pump();
            }, nextStart - t);
          }
          return;
        }
        nextStart = Math.max(t, nextStart) + interval;
      }
      const w = (high.length > 0 ? high : normal).shift()!;
      inFlight++;
      w.start();
    }
  }

  return {
    get inFlight() {
      return inFlight;
    },
    run<T>(task: () => Promise<T>, priority: Priority = 'normal', signal?: AbortSignal): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const queue = priority === 'high' ? high : normal;
        const cancel = () => {
          const i = queue.indexOf(waiter);
          if (i >= 0) {
            queue.splice(i, 1);
            reject(signal!.reason);
          }
        };
        const unsubscribe = signal ? onAbort(signal, cancel) : () => {};
        const waiter: Waiter = {
          start: () => {
            unsubscribe();
            let p: Promise<T>;
            try {
              p = task();
            } catch (e) {
              p = Promise.reject(e);
            }
            p.then(resolve, reject).finally(() => {
              inFlight--;
              pump();
            });
          },
        };
        queue.push(waiter);
        pump();
      });
    },
  };
}
