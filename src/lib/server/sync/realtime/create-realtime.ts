import { pollingRealtime, type ChainSource, type RealtimeParameters } from '../../../core/chain-source.js';
import { sleep } from '../../../core/wait.js';
import type { Database } from '../../store/database.js';
import type { LoaderRegistry } from '../loader-registry.js';
import { createSharedRealtime, type SharedRealtime } from './shared-realtime.js';

/**
 * The server side of the realtime stages (issue 24, as ponder keeps sync-realtime beside
 * sync-historical): while someone follows a wallet (a follow stream, a webhook), its chain's stage
 * runs and each wallet it hears of has its walker refresh the head, which fetches and stores the
 * new trades the way history is fetched; followers read them from the store as it changes. One
 * stage per chain: in this process on the embedded store, started with the first wallet followed
 * and stopped with the last; among all instances on PostgreSQL, where the one holding the chain's
 * lease runs it for every instance's followers (shared-realtime.ts).
 */
export interface Realtime {
  /** Follows a wallet (stored form) until the returned function is called; counted per wallet. */
  follow(chain: string, wallet: string): () => void;
  /** Chains whose stage runs on this instance now (GET /metrics). */
  running(): string[];
  close(): Promise<void>;
}

export interface CreateRealtimeParameters {
  loaders: LoaderRegistry;
  /** The chain's source, when this instance builds sources (ROLE=api builds none: it runs no stage). */
  sourceFor?: (chain: string) => ChainSource | Promise<ChainSource>;
  /** The pace for a source without a stage of its own (default 3,000 ms). */
  fallbackPollMs?: number;
  /** Several instances on one PostgreSQL database: one stage per chain among them, under a lease. */
  shared?: { db: Database; holder: string; ttlMs: number };
  log?: (line: string) => void;
}

interface Stage {
  abort: AbortController;
  done: Promise<void>;
}

export async function createRealtime({ loaders, sourceFor, fallbackPollMs = 3_000, shared, log }: CreateRealtimeParameters): Promise<Realtime> {
  /** This instance's followers: chain → wallet → how many follow it. */
  const local = new Map<string, Map<string, number>>();
  const stages = new Map<string, Stage>();
  let coordinator: SharedRealtime | null = null;

  const localWallets = (chain: string) => [...(local.get(chain)?.keys() ?? [])];

  function start(chain: string): void {
    if (stages.has(chain)) return;
    const abort = new AbortController();
    const wallets = () => (coordinator ? coordinator.wallets(chain) : localWallets(chain));
    const parameters: RealtimeParameters = {
      wallets,
      onActivity(list) {
        const now = new Set(wallets());
        for (const w of list) {
          if (!now.has(w)) continue;
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
      // A stage that stops on an error is started again after a pause, for as long as it is wanted.
      while (!abort.signal.aborted) {
        try {
          await stage(parameters);
        } catch (e) {
          log?.(`realtime ${chain}: ${e instanceof Error ? e.message : String(e)}; restarting`);
        }
        // The pause ends at once when the stage is stopped (close() waits for it).
        await sleep(1_000, abort.signal).catch(() => {});
      }
    })();
    stages.set(chain, { abort, done });
  }

  function stop(chain: string): void {
    stages.get(chain)?.abort.abort();
    stages.delete(chain);
  }

  if (shared) {
    coordinator = await createSharedRealtime({
      ...shared,
      local: () => [...local].flatMap(([chain, wallets]) => [...wallets.keys()].map((address) => ({ chain, address }))),
      runsStages: sourceFor !== undefined,
      onLease: (chain, held) => (held ? start(chain) : stop(chain)),
      log,
    });
  }

  return {
    follow(chain, wallet) {
      let wallets = local.get(chain);
      if (!wallets) local.set(chain, (wallets = new Map()));
      const added = !wallets.has(wallet);
      wallets.set(wallet, (wallets.get(wallet) ?? 0) + 1);
      if (coordinator) coordinator.changed(chain, added);
      else start(chain);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        const w = local.get(chain);
        if (!w) return;
        const n = (w.get(wallet) ?? 1) - 1;
        if (n > 0) return void w.set(wallet, n);
        w.delete(wallet);
        if (w.size === 0) local.delete(chain);
        if (coordinator) coordinator.changed(chain, false);
        else if (w.size === 0) stop(chain);
      };
    },
    running: () => [...stages.keys()],
    async close() {
      await coordinator?.close();
      const all = [...stages.values()];
      for (const s of all) s.abort.abort();
      stages.clear();
      await Promise.all(all.map((s) => s.done));
    },
  };
}
