import type { ChainSource } from '../../core/chain-source.js';
import { HistoryError } from '../../core/errors.js';
import type { Database } from '../store/database.js';
import { createStatisticsKeeper } from '../store/statistics.js';
import { getOrCreateWallet, walletsToResume } from '../store/wallets.js';
import { createWalletLoader, type WalletLoader } from './wallet-loader.js';
import type { WalletLeases } from './wallet-leases.js';

/**
 * Single flight: one WalletLoader per (chain, wallet) in this process, however many requests
 * ask for it at once; across processes on one PostgreSQL database, the wallet's lease
 * (wallet-leases.ts) decides which loader walks while the others follow.
 */
export interface LoaderRegistry {
  get(chain: string, address: string): Promise<WalletLoader>;
  /** Restarts background loading of wallets a stream asked for before the last shutdown. */
  resumeBackground(): Promise<number>;
  stopAll(): Promise<void>;
  /** Loaders held, walking now, and trades they stored since this process started (GET /metrics). */
  counts(): Promise<{ held: number; running: number; tradesStored: number }>;
}

export interface CreateLoaderRegistryParameters {
  db: Database;
  sourceFor(chain: string): ChainSource | Promise<ChainSource>;
  headStaleMs: number;
  /**
   * A loader not asked for in this long and not walking is dropped (its state is in the store).
   * Must exceed the longest request (the time budget), so no request still holds it: default 10 min.
   */
  idleMs?: number;
  onError?: (e: HistoryError, chain: string, address: string) => void;
  /** Leases shared with the other instances on this database (PostgreSQL); none on the embedded store. */
  leases?: WalletLeases;
  /** False on an API-only instance (ROLE=api): its loaders record demand and read, never walk. */
  walks?: boolean;
}

export function createLoaderRegistry({
  db,
  sourceFor,
  headStaleMs,
  onError,
  idleMs = 600_000,
  leases,
  walks = true,
}: CreateLoaderRegistryParameters): LoaderRegistry {
  const loaders = new Map<string, Promise<WalletLoader>>();
  const lastAsked = new Map<string, number>();
  /** Trades stored by loaders since dropped as idle: the metric's counter never goes back. */
  let storedByDropped = 0;
  // Without this a long-running server keeps one loader per wallet ever served.
  const sweeper = setInterval(
    async () => {
      const cutoff = Date.now() - idleMs;
      for (const [id, asked] of lastAsked) {
        if (asked > cutoff) continue;
        const loader = await loaders.get(id)?.catch(() => null);
        if (!loader?.running && (lastAsked.get(id) ?? 0) <= cutoff) {
          storedByDropped += loader?.stats.trades ?? 0;
          loaders.delete(id);
          lastAsked.delete(id);
        }
      }
    },
    Math.min(idleMs, 60_000),
  );
  sweeper.unref?.();
  const statistics = createStatisticsKeeper(db);

  function get(chain: string, address: string): Promise<WalletLoader> {
    const id = `${chain}:${address}`;
    lastAsked.set(id, Date.now());
    let p = loaders.get(id);
    if (!p) {
      // An API-only instance never walks: no source is built (the Solana one would start decode threads).
      const source = walks ? sourceFor(chain) : { chain, history: () => notWalking(chain) };
      p = Promise.all([getOrCreateWallet(db, chain, address), source]).then(([wallet, source]) =>
        createWalletLoader({ db, source, wallet, headStaleMs, statistics, leases, walks, onError: (e) => onError?.(e, chain, address) }),
      );
      loaders.set(id, p);
      p.catch(() => loaders.delete(id));
    }
    return p;
  }

  return {
    get,
    async resumeBackground() {
      const wallets = await walletsToResume(db);
      for (const w of wallets) {
        const loader = await get(w.chain, w.address);
        await loader.wantAll();
      }
      return wallets.length;
    },
    async counts() {
      const all = await Promise.allSettled([...loaders.values()]);
      const ok = all.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      return { held: ok.length, running: ok.filter((l) => l.running).length, tradesStored: storedByDropped + ok.reduce((n, l) => n + l.stats.trades, 0) };
    },
    async stopAll() {
      clearInterval(sweeper);
      const all = await Promise.allSettled([...loaders.values()]);
      await Promise.all(all.map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)));
    },
  };
}

/** The source of an API-only instance's loaders: asked for history, it says why it has none. */
function notWalking(chain: string): AsyncIterable<never> {
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => Promise.reject(new HistoryError('internal', `ROLE=api does not walk ${chain} wallets: workers do`)),
    }),
  };
}
