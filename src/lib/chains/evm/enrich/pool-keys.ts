import type { RpcTransport } from '../../../rpc/json-rpc.js';
import { decodeInfinityPoolKey, poolIdToPoolKeyCallData } from '../decode/infinity.js';
import { createMemoryPoolKeyCache, type PoolKeyCache, type V4PoolKey } from '../decode/pool-key.js';
import type { RpcReceipt } from '../decode/rpc-types.js';
import { decodeInitializeLog, decodePoolKeysResult, poolKeysCallData, v4PoolIds, V4_INITIALIZE_TOPIC } from '../decode/v4.js';
import type { EvmChainConfig } from '../registry.js';
import { ethCallMany, ethGetLogsMany } from '../rpc-methods.js';

/** Keys of the V4-shaped pools swapped in these receipts, by pool id. */
export type ResolvePoolKeys = (receipts: readonly RpcReceipt[], signal?: AbortSignal) => Promise<Map<string, V4PoolKey>>;

/**
 * Keys of the V4-shaped pools swapped in these receipts: from the cache, else one batch of
 * calls (a PancakeSwap Infinity manager's `poolIdToPoolKey`, a configured PositionManager's
 * `poolKeys`), else one batch of Uniswap V4 `Initialize` logs of the pool id. A key not found
 * leaves that pool's native side unknown (not cached, retried).
 */
export function createPoolKeys({ rpc, chain, cache }: { rpc: RpcTransport; chain: EvmChainConfig; cache?: PoolKeyCache }): ResolvePoolKeys {
  const poolKeyCache = cache ?? createMemoryPoolKeyCache();
  const positionManagers = new Map<string, string>();
  for (const d of chain.dexes) if (d.kind === 'v4' && d.positionManager) positionManagers.set(d.poolManager, d.positionManager);
  const infinityManagers = new Set(chain.dexes.flatMap((d) => (d.kind === 'infinity' ? d.poolManagers : [])));

  return async function resolvePoolKeys(receipts, signal) {
    const ids = new Map<string, string>();
    for (const r of receipts) for (const [id, m] of v4PoolIds(r.logs)) ids.set(id, m);
    if (!ids.size) return new Map();
    const keys = await poolKeyCache.get(chain.slug, [...ids.keys()]);
    const found = new Map<string, V4PoolKey>();
    let missing = [...ids.keys()].filter((id) => !keys.has(id));
    const calls = missing.flatMap((id) => {
      const manager = ids.get(id)!;
      if (infinityManagers.has(manager)) return [{ id, to: manager, data: poolIdToPoolKeyCallData(id), decode: decodeInfinityPoolKey }];
      const positions = positionManagers.get(manager);
      return positions ? [{ id, to: positions, data: poolKeysCallData(id), decode: decodePoolKeysResult }] : [];
    });
    if (calls.length) {
      const answers = await ethCallMany(
        rpc,
        calls.map(({ to, data }) => ({ to, data })),
        signal,
      );
      calls.forEach((c, i) => {
        const a = answers[i];
        const k = a.ok ? c.decode(a.result) : null;
        if (k) found.set(c.id, k);
      });
      // Infinity's Initialize logs have another shape: a key its manager did not answer stays unknown.
      missing = missing.filter((id) => !found.has(id) && !infinityManagers.has(ids.get(id)!));
    }
    if (missing.length) {
      const answers = await ethGetLogsMany(
        rpc,
        missing.map((id) => ({ address: ids.get(id), fromBlock: '0x0', toBlock: 'latest', topics: [V4_INITIALIZE_TOPIC, id] })),
        signal,
      );
      missing.forEach((id, i) => {
        const a = answers[i];
        const l = a.ok && Array.isArray(a.result) ? a.result[0] : undefined;
        const k = l ? decodeInitializeLog(l) : null;
        if (k) found.set(id, k);
      });
    }
    if (found.size) await poolKeyCache.put(chain.slug, found);
    for (const [id, k] of found) keys.set(id, k);
    return keys;
  };
}
