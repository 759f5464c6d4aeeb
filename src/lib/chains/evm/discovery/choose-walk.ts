import type { HistoryBatch } from '../../../core/chain-source.js';
import { HistoryError } from '../../../core/errors.js';
import type { RpcTransport } from '../../../rpc/json-rpc.js';
import { otsApiLevel } from '../rpc-methods.js';
import { parseBefore, type Walk, type WalkInput } from './position.js';

/** How the wallet's transactions are found. */
export type DiscoveryPath = 'ots' | 'explorer' | 'logs';

const PATH_TEXT: Record<DiscoveryPath, string> = {
  ots: "the node's Otterscan index (ots_)",
  explorer: 'the explorer API (txlist, tokentx) and the RPC',
  logs: 'Transfer-log range scans',
};

export interface WalkChoiceOptions {
  rpc: RpcTransport;
  /** The chain's slug, for the log lines. */
  chain: string;
  /** `auto` (default): asked of the node; otherwise the path configured. */
  mode?: 'auto' | DiscoveryPath;
  /** The walks; `explorer` only when an explorer API is configured. */
  walks: { ots: Walk; explorer: Walk | null; logs: Walk };
  /** Where the source says which path it chose. */
  log?: (line: string) => void;
}

export interface WalkChoice {
  /** The path in use, once the first walk chose it. */
  readonly chosen: DiscoveryPath | undefined;
  /** The path to start the next walk on: asked once, then kept (a network failure is asked again). */
  path(signal?: AbortSignal): Promise<DiscoveryPath>;
  /** The walk from `input.from` down to its floor, starting on `first` and handing over to the next path on refusal. */
  walk(first: DiscoveryPath, input: WalkInput): AsyncIterable<HistoryBatch>;
}

/**
 * The cheapest path the endpoints offer, asked once (ots_getApiLevel) unless configured: the
 * node's Otterscan index, else the explorer API when one is configured, else log scans.
 */
export function createWalkChoice({ rpc, chain, mode = 'auto', walks, log }: WalkChoiceOptions): WalkChoice {
  let path: Promise<DiscoveryPath> | null = null;
  let chosen: DiscoveryPath | undefined;

  function choose(p: DiscoveryPath): void {
    if (chosen !== p) log?.(`${chain}: finding wallets' transactions by ${PATH_TEXT[p]}`);
    chosen = p;
  }

  function discoveryPath(signal?: AbortSignal): Promise<DiscoveryPath> {
    if (!path) {
      const otherwise: DiscoveryPath = walks.explorer ? 'explorer' : 'logs';
      path =
        mode === 'ots' || mode === 'logs' || (mode === 'explorer' && walks.explorer)
          ? Promise.resolve(mode as DiscoveryPath)
          : mode === 'explorer'
            ? Promise.resolve('logs' as DiscoveryPath)
            : otsApiLevel(rpc, signal).then(
                (level): DiscoveryPath => (typeof level === 'number' && level >= 8 ? 'ots' : otherwise),
                (e) => {
                  // A node without the namespace answers "method not found": the next path. A
                  // network failure says nothing: ask again on the next walk.
                  if (e instanceof HistoryError && e.code === 'rpc_error') return otherwise;
                  path = null;
                  throw e;
                },
              );
      path.then(choose, () => {});
    }
    return path;
  }

  /**
   * A path that refuses (an index turned off, a method a load balancer routes elsewhere, an
   * explorer key revoked) hands this walk to the next one from the last position delivered, and
   * later walks start there: nothing delivered is lost or repeated.
   */
  async function* walk(first: DiscoveryPath, input: WalkInput): AsyncIterable<HistoryBatch> {
    let cur = input.from;
    let head = input.head;
    let p0 = first;
    while (p0 !== 'logs') {
      const next = p0 === 'ots' ? walks.ots : walks.explorer!;
      try {
        for await (const b of next({ ...input, from: cur, head })) {
          yield b;
          if (b.done) return;
          cur = parseBefore(b.position);
          head = undefined;
        }
        return;
      } catch (e) {
        if (!(e instanceof HistoryError && e.code === 'rpc_error')) throw e;
        const then: DiscoveryPath = p0 === 'ots' && walks.explorer ? 'explorer' : 'logs';
        log?.(`${chain}: ${PATH_TEXT[p0]} refused (${e.message}); using ${PATH_TEXT[then]}`);
        path = Promise.resolve(then);
        choose(then);
        p0 = then;
      }
    }
    yield* walks.logs({ ...input, from: cur, head });
  }

  return {
    get chosen() {
      return chosen;
    },
    path: discoveryPath,
    walk,
  };
}
