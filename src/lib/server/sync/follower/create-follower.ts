import { sleep } from '../../../core/wait.js';
import { askRedecode, recordDemand } from '../../store/wallets.js';
import { createLoaderCore, type LoaderCore } from '../loader/loader-core.js';
import { createLoopRunner } from '../loader/loop-runner.js';
import { publicLoader } from '../loader/public-loader.js';
import { createStoreRetry } from '../loader/store-retry.js';
import { REFRESH_RETRY_MS, type WalletLoader, type WalletLoaderParameters } from '../wallet-loader.js';
import type { WalletLeases } from '../wallet-leases.js';

/** How long a follower waits for a worker's commit before it reads the stored state anyway. */
const FOLLOW_POLL_MS = 5_000;

/**
 * The loader of an API-only instance (ROLE=api): it does not walk and builds no chain source. What
 * requests want (the whole history, N more trades, a head refresh) is recorded in the database
 * for the workers (demand-worker.ts), and what they store is read as it comes, woken by their
 * commits.
 */
export function createFollower(p: WalletLoaderParameters): WalletLoader {
  const core = createLoaderCore(p);
  const { db } = core;
  /** When this loader last asked the workers for a refresh, and for a re-decode. */
  let refreshAskedAt = -Infinity;
  let redecodeAskedAt = -Infinity;
  const runner = createLoopRunner(core, {
    loop: () => followLoop(core, p.leases),
    hasWork: () => !core.state.complete && core.hasDemand(),
    retry: createStoreRetry(core),
  });
  return publicLoader(core, runner, {
    async wantAll() {
      if (!core.state.loadAll && !core.state.complete) {
        core.state = { ...core.state, loadAll: true };
        // The flag is the demand a worker serves.
        await recordDemand(db, core.state.id, { loadAll: true });
      }
      runner.kick();
    },
    wantMore(count) {
      const demand = core.addFill(count);
      void recordDemand(db, core.state.id, { more: count }).catch(() => {});
      runner.kick();
      return demand;
    },
    refreshIfStale() {
      if (!core.headIsStale()) return Promise.resolve();
      // A worker refreshes; what it finds is read as it is stored. Asked once per 30 s at most.
      if (core.now() - refreshAskedAt < REFRESH_RETRY_MS) return Promise.resolve();
      refreshAskedAt = core.now();
      return recordDemand(db, core.state.id, { refresh: true }).catch(() => {});
    },
    refresh() {
      // Asked of the workers, at most once a second (a realtime stage may hear of a wallet often).
      if (core.now() - refreshAskedAt < 1_000) return Promise.resolve();
      refreshAskedAt = core.now();
      return recordDemand(db, core.state.id, { refresh: true }).catch(() => {});
    },
    redecodeIfBehind() {
      // This instance builds no source: the database knows the workers' version. Asked once per
      // 30 s at most; the statement writes and wakes nothing when the wallet is current.
      if (core.now() - redecodeAskedAt < REFRESH_RETRY_MS) return;
      redecodeAskedAt = core.now();
      void askRedecode(db, core.state.id).catch(() => {});
    },
  });
}

/** Reads what the workers store while a request here waits on it; resolves true when it stopped on an error. */
async function followLoop(core: LoaderCore, leases: WalletLeases | undefined): Promise<boolean> {
  try {
    while (!core.stopping) {
      if (core.state.complete || !core.hasDemand()) return false;
      // Woken at a worker's commit (or every 5 s).
      await core.catchUp(
        leases ? leases.nextChange(core.state.id, FOLLOW_POLL_MS, core.abort.signal) : sleep(FOLLOW_POLL_MS, core.abort.signal).catch(() => {}),
      );
    }
    return false;
  } catch (e) {
    core.fail(e);
    return true;
  }
}
