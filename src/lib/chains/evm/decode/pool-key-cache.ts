import type { V4PoolKey } from './v4.js';

/**
 * Uniswap V4 pool keys by pool id, cached where the source runs, like the TokenCache of
 * core/chain-source.ts: a pool id is the keccak-256 of its key, so a key never changes and is
 * looked up once per pool. The server can back this with its store and the browser with
 * IndexedDB; the in-memory cache below is the default.
 */
export interface PoolKeyCache {
  /** Known keys among `ids` (lowercase 0x + 64 hex). */
  get(chain: string, ids: readonly string[]): Promise<Map<string, V4PoolKey>>;
  put(chain: string, entries: ReadonlyMap<string, V4PoolKey>): Promise<void>;
}

export function createMemoryPoolKeyCache(): PoolKeyCache {
  const m = new Map<string, V4PoolKey>();
  return {
    async get(chain, ids) {
      const out = new Map<string, V4PoolKey>();
      for (const id of ids) {
        const v = m.get(`${chain}:${id}`);
        if (v) out.set(id, v);
      }
      return out;
    },
    async put(chain, entries) {
      for (const [id, v] of entries) m.set(`${chain}:${id}`, v);
    },
  };
}
