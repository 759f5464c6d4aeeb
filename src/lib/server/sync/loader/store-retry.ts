import type { LoaderCore } from './loader-core.js';

/**
 * The database went away under a walk that still has demand: try again after 1 s, doubling to
 * 30 s, until it answers (then the walk goes on from the last position it committed).
 */
export interface StoreRetry {
  /** After a loop stopped on an error: when the store was away and work is left, `retry` later. */
  schedule(retry: () => void): void;
  /** A batch was stored: the next outage starts again at 1 s. */
  reset(): void;
  cancel(): void;
}

const FIRST_MS = 1_000;
const MAX_MS = 30_000;

export function createStoreRetry(core: LoaderCore): StoreRetry {
  let delayMs = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    schedule(retry) {
      if (timer || core.stopping || core.lastError?.code !== 'store_unavailable' || core.state.complete || !core.hasDemand()) return;
      delayMs = Math.min(MAX_MS, delayMs ? delayMs * 2 : FIRST_MS);
      timer = setTimeout(() => {
        timer = null;
        retry();
      }, delayMs);
      timer.unref?.();
    },
    reset() {
      delayMs = 0;
    },
    cancel() {
      if (timer) clearTimeout(timer);
    },
  };
}
