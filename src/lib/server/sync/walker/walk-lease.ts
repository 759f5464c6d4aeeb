import { HistoryError } from '../../../core/errors.js';
import type { LeaseFence } from '../../store/leases.js';
import type { LoaderCore } from '../loader/loader-core.js';
import type { WalletLeases } from '../wallet-leases.js';

/**
 * The walker's hold on its wallet. One process on its own store always may walk; several
 * instances on one database walk a wallet only while holding its lease, and follow the holder
 * otherwise.
 */
export interface WalkLease {
  /** What a commit must prove now: the generation held (none for a sole walker); lease_lost when none is held. */
  fence(): LeaseFence | undefined;
  /**
   * True when this loader may walk (and has read the state the last holder left). Otherwise it
   * follows: waits for the holder's next commit or hand-back, or for the lease to run out, reads
   * the state, and says false.
   */
  mayWalk(): Promise<boolean>;
  /** A commit was refused (lease_lost): another instance took the wallet over; it is not ours to hand back. */
  lost(): void;
  /** Nothing more to walk here: hand the wallet back so another instance's demand can take it. */
  release(): void;
  /** The last hand-back, for stop() to wait on. */
  readonly releasing: Promise<void>;
}

/** The walker of a process that is alone on its store (the embedded store): nothing to hold. */
export const soleWalkLease: WalkLease = {
  fence: () => undefined,
  mayWalk: () => Promise.resolve(true),
  lost() {},
  release() {},
  releasing: Promise.resolve(),
};

/** Several instances on one PostgreSQL database: one walk per wallet among them, by lease. */
export function createWalkLease(core: LoaderCore, leases: WalletLeases): WalkLease {
  let held: { generation: number } | null = null;
  let releasing: Promise<void> = Promise.resolve();
  return {
    fence() {
      // Never a write without a fence where there are leases: a re-decode still running after
      // the lease was lost or handed back is refused here, not stored unfenced.
      if (!held) throw new HistoryError('lease_lost', `wallet ${core.state.id}: this instance holds no lease on it`);
      return leases.fence(held.generation);
    },
    async mayWalk() {
      if (held) return true;
      const got = await leases.acquire(core.state.id);
      if ('generation' in got) {
        held = got;
        await core.reloadState();
        return true;
      }
      // 50 ms past the holder's expiry: its lease has run out when this one asks again.
      await core.catchUp(leases.nextChange(core.state.id, got.until - core.now() + 50, core.abort.signal));
      return false;
    },
    lost() {
      if (!held) return;
      // No write: the row is another instance's now. Forgetting it keeps wth_leases_held true
      // and stops the heartbeat renewing a lease that matches nothing.
      leases.forget(core.state.id, held.generation);
      held = null;
    },
    release() {
      if (!held) return;
      const g = held.generation;
      held = null;
      releasing = leases.release(core.state.id, g).catch(() => {});
    },
    get releasing() {
      return releasing;
    },
  };
}
