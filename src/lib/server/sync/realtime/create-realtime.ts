import { pollingRealtime, type ChainSource, type RealtimeParameters } from '../../../core/chain-source.js';
import type { LoaderRegistry } from '../loader-registry.js';

/**
 * The server side of the realtime stages (issue 24, as ponder keeps sync-realtime beside
 * sync-historical): while someone follows a wallet (a follow stream), its chain's stage runs and
 * each wallet it hears of has its walker refresh the head, which fetches and stores the new
 * trades the way history is fetched; followers read them from the store as it changes. One stage
 * per chain, started with the first wallet followed and stopped with the last.
 */
export interface Realtime {
  /** Follows a wallet (stored form) until the returned function is called; counted per wallet. */
  follow(chain: string, wallet: string): () => void;
  /** Wallets followed now, per chain (metrics, tests). */
  followed(): Record<string, number>;
  close(): Promise<void>;
}

export interface CreateRealtimeParameters {
  loaders: LoaderRegistry;
  /** The chain's source, when this instance builds sources (ROLE=api builds none: it polls, and its refreshes are asked of the workers). */
  sourceFor?: (chain: string) => ChainSource | Promise<ChainSource>;
  /** The pace for a source without a stage of its own (default 3,000 ms). */
  fallbackPollMs?: number;
  log?: (line: string) => void;
}

interface ChainWatch {
  wallets: Map<string, number>;
  abort: AbortController;
  done: Promise<void>;
}

export function createRealtime({ loaders, sourceFor, fallbackPollMs = 3_000, log }: CreateRealtimeParameters): Realtime {
  const chains = new Map<string, ChainWatch>();

  function start(chain: string): ChainWatch {
    const abort = new AbortController();
    const wallets = new Map<string, number>();
    const parameters: RealtimeParameters = {
      wallets: () => [...wallets.keys()],
      onActivity(list) {
        for (const w of list) {
          if (!wallets.has(w)) continue;
          void loaders
            .get(chain, w)
            .then((l) => l.refresh())
            .catch(() => {});
        }
      },
      signal: abort.signal,
    };
    const done = (async () => {
      const source = sourceFor ? await Promise.resolve(sourceFor(chain)).catch(() => null) : null;
      const stage = source?.realtime ? source.realtime.bind(source) : pollingRealtime(fallbackPollMs);
      // A stage that stops on an error is started again after a pause, for as long as someone follows.
      while (!abort.signal.aborted) {
        try {
          await stage(parameters);
        } catch (e) {
          log?.(`realtime ${chain}: ${e instanceof Error ? e.message : String(e)}; restarting`);
        }
        if (!abort.signal.aborted) await new Promise((r) => setTimeout(r, 1_000));
      }
    })();
    return { wallets, abort, done };
  }

  return {
    follow(chain, wallet) {
      let watch = chains.get(chain);
      if (!watch) chains.set(chain, (watch = start(chain)));
      const w = watch;
      w.wallets.set(wallet, (w.wallets.get(wallet) ?? 0) + 1);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        const n = (w.wallets.get(wallet) ?? 1) - 1;
        if (n > 0) w.wallets.set(wallet, n);
        else w.wallets.delete(wallet);
        if (w.wallets.size === 0 && chains.get(chain) === w) {
          chains.delete(chain);
          w.abort.abort();
        }
      };
    },
    followed() {
      return Object.fromEntries([...chains].map(([chain, w]) => [chain, w.wallets.size]));
    },
    async close() {
      for (const w of chains.values()) w.abort.abort();
      await Promise.all([...chains.values()].map((w) => w.done));
      chains.clear();
    },
  };
}
