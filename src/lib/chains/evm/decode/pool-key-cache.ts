import { createMemoryCache, type ChainKeyedCache } from '../../../core/chain-source.js';
import type { V4PoolKey } from './v4.js';

/**
 * Uniswap V4 pool keys by pool id (lowercase 0x + 64 hex), cached where the source runs, like
 * token metadata: a pool id is the keccak-256 of its key, so a key never changes and is looked up
 * once per pool. The server can back this with its store and the browser with IndexedDB; the
 * in-memory cache is the default.
 */
export type PoolKeyCache = ChainKeyedCache<V4PoolKey>;

export const createMemoryPoolKeyCache = (): PoolKeyCache => createMemoryCache<V4PoolKey>();
