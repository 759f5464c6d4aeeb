import { isPoolKey, type PoolKey } from '../../shared/pool-key.js';
import { createMemoryCache, type ChainKeyedCache } from '../../../core/chain-source.js';

/**
 * A pool's key, as Uniswap V4 and PancakeSwap Infinity name their pools (the pool id is its
 * keccak-256), in a module of its own: the V4 and Infinity decoders, enrich/pool-keys.ts and
 * the caches all read it, and none of them should import another for a type.
 */

/** The native currency in a pool key. */
export const NATIVE_CURRENCY = '0x0000000000000000000000000000000000000000';

/** A V4 or Infinity pool's key (chains/shared/pool-key.ts: the shape Tron's SunSwap V4 keys share). */
export type V4PoolKey = PoolKey;

/** Whether a value read back from a cache is a V4PoolKey (the store keeps JSON). */
export const isV4PoolKey: (v: unknown) => v is V4PoolKey = isPoolKey;

/**
 * Uniswap V4 pool keys by pool id (lowercase 0x + 64 hex), cached where the source runs, like
 * token metadata: a pool id is the keccak-256 of its key, so a key never changes and is looked up
 * once per pool. The server can back this with its store and the browser with IndexedDB; the
 * in-memory cache is the default.
 */
export type PoolKeyCache = ChainKeyedCache<V4PoolKey>;

export const createMemoryPoolKeyCache = (): PoolKeyCache => createMemoryCache<V4PoolKey>();
