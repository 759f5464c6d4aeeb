import type { Database } from '../../store/database.js';
import {
  acquireRealtimeLease,
  announceFollow,
  followedChains,
  followedWallets,
  publishFollows,
  REALTIME_CHANNEL,
  releaseRealtimeLease,
} from '../../store/realtime.js';

/**
 * One realtime stage per chain across the instances on one PostgreSQL database (issue 24), under a
 * lease like a wallet's: every instance publishes the wallets its followers follow
 * (`realtime_follows`, renewed every third of the lease), and among the instances that walk, the
 * one holding a chain's lease runs that chain's stage over every instance's followed wallets. A
 * stage wakes a wallet's walker wherever it is (the wallet's own lease and recorded demand do the
 * rest), so followers on any instance get the trades; 1,000 wallets followed on three instances
 * cost one EVM log request per new range, not three.
 *
 * A new follow is published at once and NOTIFY'd, so the holder adds the wallet within a round trip
 * rather than at its next renewal. The holder dying stops its stages for at most the lease plus a
 * third (another instance's next renewal takes the lease once it runs out); a notice missed
 * meanwhile costs latency, never a trade: the walkers read from their heads.
 */
export interface SharedRealtime {
  /** The followed wallets of this instance changed (`added`: a wallet newly followed here). */
  changed(chain: string, added: boolean): void;
  /** A stage's wallets: every instance's followed wallets of the chain, this one's included at once. */
  wallets(chain: string): string[];
  /** Chains whose stage runs on this instance now. */
  running(): string[];
  close(): Promise<void>;
}

export interface SharedRealtimeParameters {
  db: Database;
  /** This instance's name (the wallet leases' holder). */
  holder: string;
  ttlMs: number;
  /** This instance's followed wallets now. */
  local: () => { chain: string; address: string }[];
  /** Runs stages (builds sources: ROLE=all|worker), or only publishes what its followers follow (ROLE=api). */
  runsStages: boolean;
  /** Start (true) or stop (false) the chain's stage here. */
  onLease(chain: string, held: boolean): void;
  /** The list of a chain whose stage runs here was read again (it may name new wallets). */
  onWallets?(chain: string): void;
  log?: (line: string) => void;
}

export async function createSharedRealtime(p: SharedRealtimeParameters): Promise<SharedRealtime> {
  const { db, holder, ttlMs } = p;
  /** Chains whose lease this instance holds, with every instance's wallets as last read. */
  const held = new Map<string, string[]>();
  let closed = false;
  let ticking: Promise<void> | null = null;
  let again = false;
  /** Chains to announce once the publish that adds their wallets is done. */
  const announce = new Set<string>();
  /** When each held lease was last renewed (ms): one not renewed for a whole lease is another's by now. */
  const renewedAt = new Map<string, number>();

  /** Only inside a round (rounds never overlap), so a read cannot put back a chain a round let go. */
  async function readWallets(chain: string): Promise<void> {
    const wallets = await followedWallets(db, chain);
    if (!held.has(chain)) return;
    held.set(chain, wallets);
    p.onWallets?.(chain);
  }

  function letGo(chain: string): void {
    held.delete(chain);
    renewedAt.delete(chain);
    p.onLease(chain, false);
  }

  /** One round: publish, then take, keep or hand back each chain's lease. Never two at once. */
  async function round(): Promise<void> {
    // Taken before the publish: a follow added meanwhile is announced after the publish that has it.
    const toAnnounce = [...announce];
    announce.clear();
    await publishFollows(db, holder, p.local(), ttlMs);
    for (const chain of toAnnounce) await announceFollow(db, chain);
    if (!p.runsStages) return;
    const wanted = new Set(await followedChains(db));
    for (const chain of new Set([...wanted, ...held.keys()])) {
      if (closed) return;
      if (!wanted.has(chain)) {
        letGo(chain);
        await releaseRealtimeLease(db, chain, holder);
        continue;
      }
      const got = await acquireRealtimeLease(db, chain, holder, ttlMs);
      if (got) {
        renewedAt.set(chain, Date.now());
        const fresh = !held.has(chain);
        if (fresh) held.set(chain, []);
        await readWallets(chain);
        if (fresh && held.has(chain)) p.onLease(chain, true);
      } else if (held.has(chain)) {
        // Another instance has it: ours ran out without a renewal (this instance stalled).
        letGo(chain);
      }
    }
  }

  /** Stages whose lease went unrenewed for a whole lease (the database unreachable) stop: another instance has them by now. */
  function dropLapsed(): void {
    const now = Date.now();
    for (const [chain, at] of renewedAt) if (now - at > ttlMs) letGo(chain);
  }

  function tick(): void {
    if (closed) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = round()
      .catch((e) => p.log?.(`realtime leases: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        ticking = null;
        if (again) {
          again = false;
          tick();
        }
      });
  }

  // A wallet newly followed somewhere: a round now, in which the holder reads the chain's list
  // again and an instance that could run the stage tries for a lease nobody may hold yet.
  const unlisten = await db.listen(REALTIME_CHANNEL, () => {
    if (p.runsStages) tick();
  });
  // Renew a third of the way into the lease: two renewals may fail before it runs out.
  const beat = setInterval(
    () => {
      dropLapsed();
      tick();
    },
    Math.max(100, Math.floor(ttlMs / 3)),
  );
  beat.unref?.();
  tick();

  return {
    changed(chain, added) {
      if (added) announce.add(chain);
      tick();
    },
    wallets(chain) {
      const all = new Set(held.get(chain) ?? []);
      for (const f of p.local()) if (f.chain === chain) all.add(f.address);
      return [...all];
    },
    running: () => [...held.keys()],
    async close() {
      closed = true;
      clearInterval(beat);
      await ticking;
      await unlisten();
      const chains = [...held.keys()];
      held.clear();
      // Handed back and announced: another instance takes the stages at once, not a lease later.
      await publishFollows(db, holder, [], ttlMs).catch(() => {});
      for (const chain of chains) {
        p.onLease(chain, false);
        await releaseRealtimeLease(db, chain, holder).catch(() => {});
        await announceFollow(db, chain).catch(() => {});
      }
    },
  };
}
