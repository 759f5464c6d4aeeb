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
  /** The wallets the stage has been given (welcome()). */
  seen: Set<string>;
}

export async function createRealtime({ loaders, sourceFor, fallbackPollMs = 3_000, shared, log }: CreateRealtimeParameters): Promise<Realtime> {
  /** This instance's followers: chain → wallet → how many follow it. */
  const local = new Map<string, Map<string, number>>();
  const stages = new Map<string, Stage>();
  /** Every stage still winding down as well as those running: close() waits for them all. */
  const running = new Set<Promise<void>>();
  let coordinator: SharedRealtime | null = null;

  const localWallets = (chain: string) => [...(local.get(chain)?.keys() ?? [])];
  const walletsOf = (chain: string) => (coordinator ? coordinator.wallets(chain) : localWallets(chain));
  const refresh = (chain: string, wallet: string) =>
    void loaders
      .get(chain, wallet)
      .then((l) => l.refresh())
      .catch(() => {});

  /**
   * A wallet new to a stage is looked at once: the stage only tells of what it sees from now on
   * (EVM: ranges after the one it read last), so a trade between the follower's read of the history
   * and the wallet joining the stage (or one a holder that died had not told yet) would wait for
   * the wallet's next trade.
   */
  function welcome(chain: string): void {
    const stage = stages.get(chain);
    if (!stage) return;
    const now = walletsOf(chain);
    for (const w of now) if (!stage.seen.has(w)) refresh(chain, w);
    stage.seen = new Set(now);
  }

  function start(chain: string): void {
    if (stages.has(chain)) return;
    const abort = new AbortController();
    const parameters: RealtimeParameters = {
      wallets: () => walletsOf(chain),
      onActivity(list) {
        const now = new Set(walletsOf(chain));
        for (const w of list) if (now.has(w)) refresh(chain, w);
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
    running.add(done);
    void done.finally(() => running.delete(done));
    stages.set(chain, { abort, done, seen: new Set() });
    welcome(chain);
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
      onWallets: welcome,
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
      // Where the stage runs here, the wallet joins it now (elsewhere, when the holder reads the list).
      if (added) welcome(chain);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        const w = local.get(chain);
        if (!w) return;
        const n = (w.get(wallet) ?? 1) - 1;
        if (n > 0) return void w.set(wallet, n);
        w.delete(wallet);
        // Followed again later, it is looked at again: it may have traded meanwhile.
        stages.get(chain)?.seen.delete(wallet);
        if (w.size === 0) local.delete(chain);
        if (coordinator) coordinator.changed(chain, false);
        else if (w.size === 0) stop(chain);
      };
    },
    running: () => [...stages.keys()],
    async close() {
      await coordinator?.close();
      for (const s of stages.values()) s.abort.abort();
      stages.clear();
      // Those the coordinator stopped included: none may wake a loader after the server closes.
      await Promise.all([...running]);
    },
  };
}
