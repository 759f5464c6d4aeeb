import type { ChainSource } from '../../core/chain-source.js';
import type { HistoryError } from '../../core/errors.js';
import type { SourceTrade } from '../../core/trade.js';
import type { Database } from '../store/database.js';
import { createStatisticsKeeper, type StatisticsKeeper } from '../store/statistics.js';
import { publishDecoderVersion } from '../store/settings.js';
import { getOrCreateWallet, walletsToResume, type WalletState } from '../store/wallets.js';
import { createFollower } from './follower/create-follower.js';
import { createWalker } from './walker/create-walker.js';
import type { WalletLoader, WalletLoaderParameters } from './wallet-loader.js';
import type { WalletLeases } from './wallet-leases.js';

/**
 * Single flight: one WalletLoader per (chain, wallet) in this process, however many requests
 * ask for it at once; across processes on one PostgreSQL database, the wallet's lease
 * (wallet-leases.ts) decides which loader loads it while the others follow.
 */
export interface LoaderRegistry {
  get(chain: string, address: string): Promise<WalletLoader>;
  /** Restarts background loading of wallets a stream asked for before the last shutdown, and re-decodes under way. */
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
  /** Told of each batch of trades a walk of this instance stores. */
  onStored?: (chain: string, walletId: number, trades: readonly SourceTrade[], announced: number) => void;
  /** Leases shared with the other instances on this database (PostgreSQL); none on the embedded store. */
  leases?: WalletLeases;
  /**
   * What this instance does (ROLE), which picks the loader: `all` and `worker` walk wallets
   * (walker/), `api` records demand and reads what workers store (follower/). Default `all`.
   */
  role?: 'all' | 'api' | 'worker';
}

/**
 * Builds the loader of one wallet for this instance's role, from the wallet's stored state (being
 * read) and what every loader takes; what the role needs of the chain is started at once, alongside.
 */
type LoaderFactory = (chain: string, wallet: Promise<WalletState>, common: Omit<WalletLoaderParameters, 'wallet'>) => Promise<WalletLoader>;

export function createLoaderRegistry({
  db,
  sourceFor,
  headStaleMs,
  onError,
  onStored,
  idleMs = 600_000,
  leases,
  role = 'all',
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
  const build = role === 'api' ? followerFactory() : walkerFactory(db, sourceFor, statistics);

  function get(chain: string, address: string): Promise<WalletLoader> {
    const id = `${chain}:${address}`;
    lastAsked.set(id, Date.now());
    let p = loaders.get(id);
    if (!p) {
      p = build(chain, getOrCreateWallet(db, chain, address), {
        db,
        headStaleMs,
        leases,
        onError: (e) => onError?.(e, chain, address),
        onStored: onStored && ((walletId, trades, announced) => onStored(chain, walletId, trades, announced)),
      });
      loaders.set(id, p);
      p.catch(() => loaders.delete(id));
    }
    // Every read: a wallet stored by an older decoder is decoded again in the background.
    return p.then((loader) => {
      loader.redecodeIfBehind();
      return loader;
    });
  }

  return {
    get,
    async resumeBackground() {
      const wallets = await walletsToResume(db);
      for (const w of wallets) {
        // Getting it resumes a re-decode under way; a stream's load goes on as asked.
        const loader = await get(w.chain, w.address);
        if (w.loadAll && !w.complete) await loader.wantAll();
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

/**
 * An instance that loads wallets (ROLE=all, ROLE=worker): each loader fetches its wallet from the
 * chain's source. The source's decoder version is published once per chain, for API-only
 * instances to tell a wallet behind it (store/settings.ts).
 */
function walkerFactory(db: Database, sourceFor: CreateLoaderRegistryParameters['sourceFor'], statistics: StatisticsKeeper): LoaderFactory {
  const published = new Set<string>();
  return (chain, wallet, common) =>
    Promise.all([wallet, sourceFor(chain)]).then(([wallet, source]) => {
      if (source.redecode && source.decoderVersion !== undefined && !published.has(chain)) {
        published.add(chain);
        publishDecoderVersion(db, chain, source.decoderVersion).catch(() => published.delete(chain));
      }
      return createWalker({ ...common, wallet, source, statistics });
    });
}

/** An API-only instance: its loaders never walk, so no source is built (the Solana one would start decode threads). */
function followerFactory(): LoaderFactory {
  return (_chain, wallet, common) => wallet.then((wallet) => createFollower({ ...common, wallet }));
}
