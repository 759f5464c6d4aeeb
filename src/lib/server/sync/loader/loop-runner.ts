import type { LoaderCore } from './loader-core.js';
import type { StoreRetry } from './store-retry.js';

/**
 * Runs a loader's loop (the walker's walk, the follower's reading) at most once at a time, starts
 * it again when work arrived while it was returning, and after it stopped on the store being away.
 */
export interface LoopRunner {
  readonly running: boolean;
  /** Starts the loop unless it runs (or the loader stops). */
  kick(): void;
  /** Stops at the loop's next boundary and waits for it. */
  stop(): Promise<void>;
}

export interface LoopRunnerParameters {
  /** Resolves true when it stopped on an error (core.lastError is set). */
  loop(): Promise<boolean>;
  /** Work the loop would pick up if it ran now. */
  hasWork(): boolean;
  /** After each loop, before anything else (the walker hands its lease back). */
  afterLoop?(): void;
  /** The last thing stop() waits for (the lease's hand-back). */
  afterStop?(): Promise<void>;
  retry: StoreRetry;
}

export function createLoopRunner(core: LoaderCore, { loop, hasWork, afterLoop, afterStop, retry }: LoopRunnerParameters): LoopRunner {
  let running: Promise<void> | null = null;

  function kick(): void {
    if (running || core.stopping) return;
    // `.then` always runs after this assignment, even when the loop has nothing to do and
    // returns at once, so `running` can never be left pointing at a finished loop.
    running = loop().then((failed) => {
      running = null;
      afterLoop?.();
      // Work that arrived while the loop was returning (a refresh wanted, a page's demand) found
      // it still marked running; pick it up now, unless the loop just stopped on an error.
      if (!failed && !core.stopping && hasWork()) kick();
      if (failed) retry.schedule(kick);
      core.notify();
    });
  }

  return {
    get running() {
      return running !== null;
    },
    kick,
    async stop() {
      core.stopping = true;
      retry.cancel();
      core.abort.abort();
      core.notify();
      await running;
      await afterStop?.();
    },
  };
}
