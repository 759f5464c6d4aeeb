import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from '../store/database.js';
import { acquireLease, extendLeases, releaseLease, WALLET_CHANNEL, type LeaseFence } from '../store/leases.js';

/**
 * One walk per wallet across every instance on one PostgreSQL database. A loader that wants to
 * walk takes the wallet's lease; while another instance holds it, the loader follows: it reads
 * what the holder stores, woken by the holder's NOTIFY at each commit, and tries again when the
 * holder hands the lease back or when it runs out (a holder that died: at most `ttlMs` later).
 * A heartbeat renews the leases held every third of `ttlMs`, and each commit renews its own.
 * The embedded store (one process) needs none of this: the registry then passes no leases.
 */
export interface WalletLeases {
  /** This instance's name in the lease table. */
  readonly holder: string;
  /** The lease's new generation, or when the current holder's lease runs out. */
  acquire(walletId: number): Promise<{ generation: number } | { until: number }>;
  /** What a commit under `generation` must prove. */
  fence(generation: number): LeaseFence;
  release(walletId: number, generation: number): Promise<void>;
  /**
   * Drops `generation` of the wallet's lease from what this instance holds, without writing: a
   * commit under it was refused (lease_lost), so another instance holds the wallet now and the row
   * is not ours to hand back. Neither the heartbeat nor the held count keep it after this.
   */
  forget(walletId: number, generation: number): void;
  /** Resolves at the next NOTIFY for the wallet, after `ms`, or when `signal` aborts. */
  nextChange(walletId: number, ms: number, signal?: AbortSignal): Promise<void>;
  /** Leases held now, and leases taken over from an instance whose lease had run out (GET /metrics). */
  counts(): { held: number; takenOver: number };
  close(): Promise<void>;
}

export interface CreateWalletLeasesParameters {
  db: Database;
  /** Lease length: a dead holder's wallet is taken over after at most this long. Default 30 s. */
  ttlMs?: number;
  holder?: string;
}

export async function createWalletLeases({ db, ttlMs = 30_000, holder }: CreateWalletLeasesParameters): Promise<WalletLeases> {
  const me = holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const held = new Map<number, number>();
  const waiters = new Map<number, Set<() => void>>();
  let takenOver = 0;
  const wake = (walletId: number) => {
    const set = waiters.get(walletId);
    if (!set) return;
    waiters.delete(walletId);
    for (const f of set) f();
  };
  const unlisten = await db.listen(WALLET_CHANNEL, (payload) => wake(Number(payload)));
  // Renew what is held a third of the way into the lease: two renewals may fail before it ends.
  const heartbeat = setInterval(
    () => {
      extendLeases(db, me, [...held.keys()], ttlMs).catch(() => {});
    },
    Math.max(100, Math.floor(ttlMs / 3)),
  );
  heartbeat.unref?.();

  return {
    holder: me,
    async acquire(walletId) {
      const r = await acquireLease(db, walletId, me, ttlMs);
      if ('generation' in r) {
        // Taken from another instance whose lease ran out without being handed back.
        if (r.previous !== '' && r.previous !== me) takenOver++;
        held.set(walletId, r.generation);
        return { generation: r.generation };
      }
      return { until: r.until.getTime() };
    },
    fence: (generation) => ({ holder: me, generation, ttlMs }),
    async release(walletId, generation) {
      if (held.get(walletId) === generation) held.delete(walletId);
      await releaseLease(db, walletId, me, generation);
    },
    forget(walletId, generation) {
      if (held.get(walletId) === generation) held.delete(walletId);
    },
    nextChange(walletId, ms, signal) {
      return new Promise<void>((resolve) => {
        let set = waiters.get(walletId);
        if (!set) waiters.set(walletId, (set = new Set()));
        const done = () => {
          clearTimeout(t);
          signal?.removeEventListener('abort', done);
          set.delete(done);
          resolve();
        };
        const t = setTimeout(done, Math.max(0, ms));
        signal?.addEventListener('abort', done, { once: true });
        set.add(done);
      });
    },
    counts: () => ({ held: held.size, takenOver }),
    async close() {
      clearInterval(heartbeat);
      await Promise.all([...held].map(([id, g]) => releaseLease(db, id, me, g).catch(() => {})));
      held.clear();
      await unlisten();
    },
  };
}
