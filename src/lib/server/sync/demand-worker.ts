import type { Database } from '../store/database.js';
import { clearRedecodeWanted, clearRefreshWanted, DEMAND_CHANNEL, walletsWithDemand, type WalletDemand } from '../store/wallets.js';
import type { LoaderRegistry } from './loader-registry.js';

/**
 * The worker side of ROLE=api: serves the demand API-only instances record in the database (a
 * stream's whole history, a page's trades, a head refresh, a re-decode), woken by their NOTIFY, and sweeping
 * every 30 s for what a lost notification left. Leases still decide which worker loads a wallet.
 */
export interface DemandWorker {
  close(): Promise<void>;
}

export async function startDemandWorker({ db, loaders, log }: { db: Database; loaders: LoaderRegistry; log: (line: string) => void }): Promise<DemandWorker> {
  /** Page demand being served, by wallet id: one fill each until it is met. */
  const fills = new Map<number, { cancel(): void }>();
  let closed = false;

  async function serve(d: WalletDemand): Promise<void> {
    // Getting the loader is a read: a wallet behind the source's decoder starts its re-decode.
    const loader = await loaders.get(d.chain, d.address);
    if (d.redecodeWanted) await clearRedecodeWanted(db, d.id);
    if (d.refreshWanted) {
      await clearRefreshWanted(db, d.id);
      // The asking instance judged the head stale (or its realtime stage heard of activity).
      void loader.refresh();
    }
    if (d.complete) return;
    if (d.loadAll) {
      await loader.wantAll();
    } else if (d.wantCount > d.tradeCount && !fills.has(d.id)) {
      const fill = loader.wantMore(d.wantCount - d.tradeCount);
      fills.set(d.id, fill);
      void (async () => {
        try {
          while (!closed && fill.remaining > 0 && !loader.state.complete) {
            const v = loader.version;
            if (!loader.running) break;
            await loader.nextChange(5_000, v);
          }
        } finally {
          fill.cancel();
          fills.delete(d.id);
        }
      })();
    }
  }

  async function scan(id?: number): Promise<void> {
    if (closed) return;
    for (const d of await walletsWithDemand(db, id)) {
      await serve(d).catch((e: Error) => log(`demand of ${d.chain}:${d.address} not served: ${e.message}`));
    }
  }

  const unlisten = await db.listen(DEMAND_CHANNEL, (payload) => void scan(Number(payload)).catch(() => {}));
  await scan();
  const sweep = setInterval(() => void scan().catch(() => {}), 30_000);
  sweep.unref?.();
  return {
    async close() {
      closed = true;
      clearInterval(sweep);
      await unlisten();
      for (const f of fills.values()) f.cancel();
    },
  };
}
