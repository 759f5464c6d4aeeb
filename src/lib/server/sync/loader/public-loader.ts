import type { WalletLoader } from '../wallet-loader.js';
import type { LoaderCore } from './loader-core.js';
import type { LoopRunner } from './loop-runner.js';

/** What a role does with demand: the walker fetches for it, the follower records it for the workers. */
export type DemandActions = Pick<WalletLoader, 'wantAll' | 'wantMore' | 'refreshIfStale' | 'refresh' | 'redecodeIfBehind'>;

/** The WalletLoader the API sees: the core's state and change signal, the runner's life, the role's actions. */
export function publicLoader(core: LoaderCore, runner: LoopRunner, actions: DemandActions): WalletLoader {
  return {
    get state() {
      return core.state;
    },
    get lastError() {
      return core.lastError;
    },
    get running() {
      return runner.running;
    },
    get version() {
      return core.version;
    },
    stats: core.stats,
    wantAll: actions.wantAll,
    wantMore: actions.wantMore,
    refreshIfStale: actions.refreshIfStale,
    refresh: actions.refresh,
    redecodeIfBehind: actions.redecodeIfBehind,
    nextChange: core.nextChange,
    stop: runner.stop,
  };
}
