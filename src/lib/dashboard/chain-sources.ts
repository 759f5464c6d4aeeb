/**
 * Direct-from-RPC mode: the chain sources the server runs, built in the worker through the same
 * family table (chains/families.ts), which imports each family's decoders on demand (a separate
 * chunk), so a person who only uses the API never downloads them.
 */
import type { ChainSource, TokenCache } from '../core/chain-source.js';
import { FAMILIES, type ChainFamily } from '../chains/families.js';
import { BUILT_IN_EVM_CHAINS, type EvmChainConfig } from '../chains/evm/registry.js';
import type { ChainInfo } from './api-client.js';

export type Family = ChainFamily;

export interface DirectSourceOptions {
  chain: string;
  family: Family;
  rpcUrl: string;
  tokenCache: TokenCache;
  fetch?: typeof fetch;
  /** The chain as /v1/chains describes it; EVM settings there win over the built-in table. */
  info?: ChainInfo;
}

/** Families with a browser-side source. */
export function directModeAvailable(family: Family): boolean {
  return FAMILIES[family].directMode;
}

/** The EVM settings direct mode decodes with: /v1/chains' (a chain added by EVM_CHAINS_FILE is known only there), else the built-in table's. */
function evmSettings(o: DirectSourceOptions): EvmChainConfig | undefined {
  const builtIn = BUILT_IN_EVM_CHAINS.find((c) => c.slug === o.chain);
  const s = o.info?.evm;
  if (!s || !o.info) return builtIn;
  return {
    slug: o.chain,
    chainId: s.chainId ?? builtIn?.chainId ?? 0,
    rpcUrl: o.rpcUrl,
    nativeSymbol: o.info.nativeSymbol,
    explorerUrl: o.info.explorerUrl,
    wrappedNative: s.wrappedNative,
    confirmation: s.confirmation,
    dexes: s.dexes,
    entryPoints: s.entryPoints,
    aggregators: s.aggregators,
  };
}

export async function createDirectSource(o: DirectSourceOptions): Promise<ChainSource> {
  const family = FAMILIES[o.family];
  if (!family.directMode) throw new Error(`Direct mode is not available for ${o.chain}: use this server's API.`);
  const evm = o.family === 'evm' ? evmSettings(o) : undefined;
  if (o.family === 'evm' && !evm) throw new Error(`Direct mode knows no settings for the EVM chain ${o.chain}: use this server's API.`);
  // 4 requests in flight: a person's own RPC endpoint, often a free tier, and a browser tab.
  return family.createSource({ slug: o.chain, rpcUrl: o.rpcUrl, rpc: { maxInFlight: 4 }, evm }, { tokens: o.tokenCache, fetch: o.fetch });
}
