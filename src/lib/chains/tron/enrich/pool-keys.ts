/**
 * Enrichment: SunSwap V4 pool keys for the transactions whose manager swapped more than once
 * (the decoder needs them to tell the TRX delta of each hop, sunswap-v4.ts). A pool id is the
 * keccak-256 of its key, so a key never changes: the cache first (the server's store, else
 * memory), then one `poolIdToPoolKey` constant call per pool not yet known. A single-hop swap,
 * the common case, costs nothing here.
 */
import { createMemoryCache, type ChainKeyedCache } from '../../../core/chain-source.js';
import type { HttpJsonClient } from '../../../rpc/http-json.js';
import type { TronTransactionInfo } from '../decode/decode-transaction.js';
import { decodePoolKeyAnswer, poolIdsNeedingKeys, poolIdToPoolKeyCallData, type TronPoolKey } from '../decode/sunswap-v4.js';
import { triggerConstantContract } from '../rpc-methods.js';

export type TronPoolKeyCache = ChainKeyedCache<TronPoolKey>;

/** The keys of the pools these infos need, by pool id (an id the manager does not answer for is left out). */
export type ResolveTronPoolKeys = (infos: readonly TronTransactionInfo[], signal?: AbortSignal) => Promise<ReadonlyMap<string, TronPoolKey>>;

export function createTronPoolKeys(p: { client: HttpJsonClient; chain: string; cache?: TronPoolKeyCache }): ResolveTronPoolKeys {
  const cache = p.cache ?? createMemoryCache<TronPoolKey>();
  return async function resolveTronPoolKeys(infos, signal) {
    const wanted = new Map<string, string>();
    for (const info of infos) for (const [id, manager] of poolIdsNeedingKeys(info.log ?? [])) wanted.set(id, manager);
    if (wanted.size === 0) return new Map();
    const keys = await cache.get(p.chain, [...wanted.keys()]);
    const found = new Map<string, TronPoolKey>();
    await Promise.all(
      [...wanted].map(async ([id, manager]) => {
        if (keys.has(id)) return;
        const answer = await triggerConstantContract(p.client, { contract41: '41' + manager.slice(2), data: poolIdToPoolKeyCallData(id), signal });
        const key = decodePoolKeyAnswer(id, answer);
        if (key) found.set(id, key);
      }),
    );
    if (found.size) {
      await cache.put(p.chain, found);
      for (const [id, key] of found) keys.set(id, key);
    }
    return keys;
  };
}
