import { setLoadAll } from '../../store/wallets.js';
import { createLoaderCore } from '../loader/loader-core.js';
import { createLoopRunner, type LoopRunner } from '../loader/loop-runner.js';
import { publicLoader } from '../loader/public-loader.js';
import { createStoreRetry } from '../loader/store-retry.js';
import { REFRESH_RETRY_MS, type WalletLoader } from '../wallet-loader.js';
import { askRedecodeIfBehind, redecodeWanted } from './redecode-wallet.js';
import { createWalkLease, soleWalkLease } from './walk-lease.js';
import { walkLoop } from './walk-loop.js';
import type { Walker, WalkerParameters } from './walker.js';

/**
 * The loader of an instance that loads wallets (ROLE=all, ROLE=worker): it fetches what requests want
 * from the chain source and stores it, and decodes again a wallet stored by an older decoder. Given
 * leases (several instances on one database), it loads only while holding the wallet's lease and
 * follows the instance that holds it otherwise (its commits wake this loader).
 */
export function createWalker(p: WalkerParameters): WalletLoader {
  const core = createLoaderCore(p);
  const lease = p.leases ? createWalkLease(core, p.leases) : soleWalkLease;
  const retry = createStoreRetry(core);
  let wakers: (() => void)[] = [];
  const w: Walker = {
    core,
    source: p.source,
    lease,
    retry,
    statistics: p.statistics,
    onError: p.onError,
    onStored: p.onStored,
    refresh: { wanted: false, attempts: 0, failedAt: -Infinity, pending: null, queued: null },
    redecode: { wanted: false, task: null, abort: null, outcome: null, failedAt: -Infinity, batchTrades: p.redecodeTrades ?? 100 },
    woken: () => new Promise<void>((r) => wakers.push(r)),
    wake() {
      const ws = wakers;
      wakers = [];
      for (const f of ws) f();
    },
  };
  const runner = createLoopRunner(core, {
    loop: () => walkLoop(w),
    hasWork: () => w.refresh.wanted || (!core.state.complete && core.hasDemand()) || redecodeWanted(w),
    // Nothing more to walk here: hand the wallet back so another instance's demand can take it.
    afterLoop: () => lease.release(),
    afterStop: () => lease.releasing,
    retry,
  });
  // What a request wants reaches the loop also while it waits on a re-decode.
  const kick = () => {
    runner.kick();
    w.wake();
  };
  return publicLoader(core, runner, {
    async wantAll() {
      if (!core.state.loadAll && !core.state.complete) {
        core.state = { ...core.state, loadAll: true };
        // The walk starts before the flag is written: the flag only matters after a restart,
        // and the walk's first request leaves a store write earlier (0.5-4 ms on PGlite).
        kick();
        await setLoadAll(core.db, core.state.id);
      }
      kick();
    },
    wantMore(count) {
      const demand = core.addFill(count);
      kick();
      return demand;
    },
    refreshIfStale: () => refreshHead(w, runner, kick, false),
    refresh: () => refreshHead(w, runner, kick, true),
    redecodeIfBehind() {
      if (askRedecodeIfBehind(w)) runner.kick();
    },
  });
}

/** A refresh (when the head is stale, or now with `force`), shared by every request that asks while it runs. */
function refreshHead(w: Walker, runner: LoopRunner, kick: () => void, force: boolean): Promise<void> {
  const { core, refresh } = w;
  if (!force && !core.headIsStale()) return Promise.resolve();
  // An RPC that just failed a refresh is not waited on again by every request for 30 s.
  if (core.now() - refresh.failedAt < REFRESH_RETRY_MS) return Promise.resolve();
  if (force && refresh.pending) {
    refresh.queued ??= refresh.pending.then(() => {
      refresh.queued = null;
      return refreshHead(w, runner, kick, true);
    });
    return refresh.queued;
  }
  if (!refresh.pending) {
    refresh.wanted = true;
    const attempt = refresh.attempts;
    refresh.pending = (async () => {
      kick();
      // Done when the refresh was tried (stored, or failed with lastError set), or the loop stopped.
      while (refresh.attempts === attempt && runner.running && !core.stopping) await core.changed();
    })().finally(() => {
      refresh.pending = null;
    });
  }
  return refresh.pending;
}
