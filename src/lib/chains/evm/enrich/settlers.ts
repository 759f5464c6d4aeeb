import { createMemoryCache, type ChainKeyedCache } from '../../../core/chain-source.js';
import type { RpcTransport } from '../../../rpc/json-rpc.js';
import type { RpcReceipt } from '../decode/rpc-types.js';
import type { LogsRange } from '../discovery/logs-range.js';
import { hex, num } from '../quantity.js';
import type { EvmChainConfig } from '../registry.js';
import { ethGetLogsMany } from '../rpc-methods.js';
import type { SettlerRegistryRead } from './settler-kind.js';
import { builtInSettlers, REGISTRY_TRANSFER_TOPIC, SETTLER_REGISTRY, SETTLER_SLUG, settlersNamedBy } from './settler-registry.js';

/**
 * Aggregators beyond the chain's table for these receipts (address, lowercase → slug): what the
 * decoder takes as `options.aggregators`. Today: 0x's Settlers.
 */
export type ExtraAggregators = (receipts: readonly RpcReceipt[], signal?: AbortSignal) => Promise<ReadonlyMap<string, string>>;

export interface SettlersOptions {
  rpc: RpcTransport;
  chain: Pick<EvmChainConfig, 'slug' | 'chainId'>;
  /** The provider's eth_getLogs range as discovery learns it (a refusal here teaches it too). */
  range: LogsRange;
  /** Where the read is kept across walks, restarts and instances (the store's `evm-0x-settlers` kind); else in memory. */
  cache?: ChainKeyedCache<SettlerRegistryRead>;
  log?: (line: string) => void;
}

/** The one key of a chain's read in the cache. */
const KEY = 'registry';
const NEVER: SettlerRegistryRead = { through: -1, instances: [], whole: true };

/**
 * 0x Settlers by the registry's own record (settler-registry.ts): its Transfer logs, read with one
 * eth_getLogs from where the last read ended to the newest block among the receipts, only when a
 * receipt with logs is newer than that. A walk goes newest first, so its first batch reads and the
 * rest find the read done: at most one eth_getLogs per chain per walk, none once the store has read
 * past the walk's newest transaction. Reads are kept in the store.
 *
 * Where the provider limits ranges (a limit discovery learned, or this read's refusal, which
 * teaches it), the read covers the newest blocks the provider takes and the built-in list
 * (instances computed from the registry's addressing) stands for what came before; a refused read
 * uses the built-in list alone and is not tried again until a newer transaction comes. A record
 * that names no Settler at all gets the built-in list too: a node that answers [] for logs it
 * pruned looks like a chain without 0x. A read that fails in transport (after the transport's
 * retries) fails the batch, as any RPC error does.
 */
export function createZeroExSettlers({ rpc, chain, range, cache = createMemoryCache(), log }: SettlersOptions): ExtraAggregators {
  let known: Promise<SettlerRegistryRead> | null = null;
  let aggregators: ReadonlyMap<string, string> | null = null;
  /** The newest block a read was tried through by this source, refused or not. */
  let tried = -1;
  let said = false;
  /** Reads one at a time: batches decoded together wait for one read, not one each. */
  let queue: Promise<unknown> = Promise.resolve();

  const load = () =>
    (known ??= cache.get(chain.slug, [KEY]).then(
      (m) => m.get(KEY) ?? NEVER,
      () => NEVER,
    ));

  function mapOf(read: SettlerRegistryRead): ReadonlyMap<string, string> {
    const m = new Map<string, string>();
    // A record read whole that names no Settler at all: a chain without 0x, or a node that
    // answers [] for logs it pruned; the list's addresses can only be the registry's, so it costs
    // nothing to be wrong about which.
    if (!read.whole || read.instances.length === 0) for (const a of builtInSettlers(chain.chainId)) m.set(a, SETTLER_SLUG);
    for (const a of read.instances) m.set(a, SETTLER_SLUG);
    return m;
  }

  function sayOnce(line: string): void {
    if (said) return;
    said = true;
    log?.(line);
  }

  async function read(before: SettlerRegistryRead, to: number, signal?: AbortSignal): Promise<void> {
    const from = before.through + 1;
    const cap = await range.cap();
    const start = cap !== null && to - from + 1 > cap ? to - cap + 1 : from;
    const [answer] = await ethGetLogsMany(
      rpc,
      [{ address: SETTLER_REGISTRY, fromBlock: hex(start), toBlock: hex(to), topics: [REGISTRY_TRANSFER_TOPIC] }],
      signal,
    );
    tried = to;
    if (!answer.ok || !Array.isArray(answer.result)) {
      const error = answer.ok ? { code: 0, message: 'not a list of logs' } : answer.error;
      try {
        range.afterRefusal(to - start + 1, error);
      } catch {
        // One block refused: not a range limit, nothing to learn.
      }
      sayOnce(`${chain.slug}: 0x's Settler registry logs refused (${error.message}); Settlers from the built-in list`);
      aggregators = mapOf({ ...before, whole: false });
      return;
    }
    if (start > from)
      sayOnce(
        `${chain.slug}: 0x's Settler registry read over the newest ${to - start + 1} blocks (the provider's range); older Settlers from the built-in list`,
      );
    const instances = new Set(before.instances);
    for (const a of settlersNamedBy(answer.result)) instances.add(a);
    const next: SettlerRegistryRead = { through: to, instances: [...instances], whole: before.whole && start === from };
    known = Promise.resolve(next);
    aggregators = mapOf(next);
    await cache.put(chain.slug, new Map([[KEY, next]])).catch(() => {});
  }

  return function extraAggregators(receipts, signal) {
    let newest = -1;
    for (const r of receipts) if (r.logs.length > 0) newest = Math.max(newest, num(r.blockNumber));
    const step = queue.then(async () => {
      const before = await load();
      if (newest > before.through && newest > tried) await read(before, newest, signal);
      return (aggregators ??= mapOf(await load()));
    });
    queue = step.catch(() => {});
    return step;
  };
}
