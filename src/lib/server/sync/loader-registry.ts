import type { ChainSource } from '../../core/chain-source.js';
import type { HistoryError } from '../../core/errors.js';
import type { Database } from '../store/database.js';
import { createStatisticsKeeper } from '../store/statistics.js';
import { getOrCreateWallet, walletsToResume } from '../store/wallets.js';
import { createWalletLoader, type WalletLoader } from './wallet-loader.js';

/**
 * Single flight: one WalletLoader per (chain, wallet) in this process, however many requests
 * ask for it at once. Serving one wallet from several server processes at once on a shared
 * PostgreSQL is not coordinated here (one process per database).
 */
export interface LoaderRegistry {
  get(chain: string, address: string): Promise<WalletLoader>;
  /** Restarts background loading of wallets a stream asked for before the last shutdown. */
  resumeBackground(): Promise<number>;
  stopAll(): Promise<void>;
}

export interface CreateLoaderRegistryParameters {
  db: Database;
  sourceFor(chain: string): ChainSource;
  headStaleMs: number;
  onError?: (e: HistoryError, chain: string, address: string) => void;
}

export function createLoaderRegistry({ db, sourceFor, headStaleMs, onError }: CreateLoaderRegistryParameters): LoaderRegistry {
  const loaders = new Map<string, Promise<WalletLoader>>();
  const statistics = createStatisticsKeeper(db);

  function get(chain: string, address: string): Promise<WalletLoader> {
    const id = `${chain}:${address}`;
    let p = loaders.get(id);
    if (!p) {
      p = getOrCreateWallet(db, chain, address).then((wallet) =>
        createWalletLoader({ db, source: sourceFor(chain), wallet, headStaleMs, statistics, onError: (e) => onError?.(e, chain, address) }),
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
    async stopAll() {
      const all = await Promise.allSettled([...loaders.values()]);
      await Promise.all(all.map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)));
    },
  };
}
