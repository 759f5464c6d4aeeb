import { toFunctionSelector } from 'viem';
import type { RpcTransport } from '../../../rpc/json-rpc.js';
import type { EvmVenueKind } from '../decode/venues.js';
import { dexForFactory, dexForSingleton, type EvmChainConfig } from '../registry.js';
import { ethCallMany } from '../rpc-methods.js';

/** A pool's `factory()`: which venue deployed it. */
const FACTORY_SELECTOR = toFunctionSelector('factory()');

export interface PoolFactories {
  /** Asks the factories of the pools not seen yet, one batch of `factory()` calls. */
  resolve(pools: Iterable<string>, signal?: AbortSignal): Promise<void>;
  /** Whether the pool's factory has been asked (answered, or known to be absent). */
  has(pool: string): boolean;
  /**
   * The venue that swapped in a pool: a V2/V3 pool by its factory (asked with `resolve`), the
   * others by their singleton's address; one not in the chain's table is an `unknown-…` fork.
   */
  dexOf(pool: string, kind: EvmVenueKind): string;
}

/** Which pools belong to which venue, kept for the source's lifetime (a pool's factory never changes). */
export function createPoolFactories({ rpc, chain }: { rpc: RpcTransport; chain: EvmChainConfig }): PoolFactories {
  /** Pool -> factory (lowercase) or null when `factory()` is absent. */
  const factories = new Map<string, string | null>();

  async function resolve(pools: Iterable<string>, signal?: AbortSignal): Promise<void> {
    const missing = [...new Set(pools)].filter((p) => !factories.has(p));
    if (!missing.length) return;
    const answers = await ethCallMany(
      rpc,
      missing.map((p) => ({ to: p, data: FACTORY_SELECTOR })),
      signal,
    );
    missing.forEach((p, i) => {
      const a = answers[i];
      const r = a.ok && typeof a.result === 'string' && a.result.length >= 66 ? '0x' + a.result.slice(26, 66).toLowerCase() : null;
      factories.set(p, r);
    });
  }

  function dexOf(pool: string, kind: EvmVenueKind): string {
    // A venue the decoder found by its flows alone, and did not name: no table names it either.
    if (kind === 'other') return 'unknown';
    if (kind === 'v4') return dexForSingleton(chain, 'v4', pool)?.name ?? 'unknown-v4-fork';
    if (kind !== 'v2' && kind !== 'v3') return dexForSingleton(chain, kind, pool)?.name ?? 'unknown';
    const f = factories.get(pool);
    const d = f ? dexForFactory(chain, f) : undefined;
    return d ? d.name : `unknown-${kind}-fork`;
  }

  return { resolve, has: (pool) => factories.has(pool), dexOf };
}
