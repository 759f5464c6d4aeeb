import type { TokenCache } from '../../../core/chain-source.js';
import type { RpcTransport } from '../../../rpc/json-rpc.js';
import type { RpcLog } from '../decode/rpc-types.js';
import { resolveTokens } from '../tokens/resolve-tokens.js';
import type { PoolFactories } from './pool-factories.js';

export interface MetadataPrefetch {
  /** Starts token and pool look-ups for what the wallet's Transfer logs name; failures are left to the look-ups after the receipts. */
  start(wallet: string, logs: readonly RpcLog[], signal?: AbortSignal): void;
  /** The prefetch under way (settled, never rejected): the look-ups after the receipts wait for it, then find its answers cached. */
  inFlight(): Promise<unknown>;
}

/**
 * The Transfer logs name the tokens and, most of the time, the pools (the wallet's
 * counterparties): their metadata and factories are asked alongside the receipts rather than
 * after them, one round trip less before the first trades. One per source: the latest prefetch
 * started is the one waited for.
 */
export function createMetadataPrefetch(deps: { chain: string; tokens: TokenCache; rpc: RpcTransport; pools: PoolFactories }): MetadataPrefetch {
  const { chain, tokens, rpc, pools } = deps;
  let metadataInFlight: Promise<unknown> = Promise.resolve();

  function start(wallet: string, logs: readonly RpcLog[], signal?: AbortSignal): void {
    const fungible = logs.filter((l) => l.topics.length === 3);
    if (!fungible.length) return;
    const tokenSet = [...new Set(fungible.map((l) => l.address.toLowerCase()))];
    const others = [
      ...new Set(
        fungible.map((l) => {
          const from = '0x' + l.topics[1].slice(-40).toLowerCase();
          return from === wallet ? '0x' + l.topics[2].slice(-40).toLowerCase() : from;
        }),
      ),
    ].filter((a) => !pools.has(a));
    metadataInFlight = Promise.all([resolveTokens(chain, tokenSet, tokens, rpc, signal), others.length ? pools.resolve(others, signal) : null]).catch(() => {});
  }

  return { start, inFlight: () => metadataInFlight };
}
