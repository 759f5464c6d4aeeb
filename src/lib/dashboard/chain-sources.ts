/**
 * Direct-from-RPC mode: the chain sources the server runs, built in the worker through the same
 * family table (chains/families.ts), which imports each family's decoders on demand (a separate
 * chunk), so a person who only uses the API never downloads them.
 */
import type { ChainSource, TokenCache } from '../core/chain-source.js';
import { FAMILIES, type ChainFamily } from '../chains/families.js';
import { BUILT_IN_CHAINS } from '../chains/registry.js';
import type { ChainInfo } from './api-client.js';

export type Family = ChainFamily;

export interface DirectSourceOptions {
  chain: string;
  family: Family;
  rpcUrl: string;
  tokenCache: TokenCache;
  fetch?: typeof fetch;
  /** The chain as /v1/chains describes it (a chain added by EVM_CHAINS_FILE is known only there); else the built-in table's. */
  info?: ChainInfo;
}

/** Families with a browser-side source. */
export function directModeAvailable(family: Family): boolean {
  return FAMILIES[family].directMode;
}

export async function createDirectSource(o: DirectSourceOptions): Promise<ChainSource> {
  const family = FAMILIES[o.family];
  if (!family.directMode) throw new Error(`Direct mode is not available for ${o.chain}: use this server's API.`);
  const described = o.info ?? BUILT_IN_CHAINS.find((c) => c.slug === o.chain);
  const chain = described && family.directChain(described, o.rpcUrl);
  if (!chain) throw new Error(`Direct mode knows no settings for the ${family.displayName} chain ${o.chain}: use this server's API.`);
  return family.createSource(chain, { tokens: o.tokenCache, fetch: o.fetch });
}
