/**
 * Direct-from-RPC mode: the chain sources the server runs, built in the worker. They are imported
 * on demand (a separate chunk), so a person who only uses the API never downloads the decoders.
 */
import type { ChainSource, TokenCache } from '../core/chain-source.js';
import type { ChainInfo } from './api-client.js';

export type Family = 'solana' | 'evm' | 'tron';

export interface DirectSourceOptions {
  chain: string;
  family: Family;
  rpcUrl: string;
  tokenCache: TokenCache;
  fetch?: typeof fetch;
  /** The chain as /v1/chains describes it; EVM settings there win over the built-in table. */
  info?: ChainInfo;
}

/** Families with a browser-side source. Tron has none yet (its server reads TronGrid's HTTP API). */
export function directModeAvailable(family: Family): boolean {
  return family === 'solana' || family === 'evm';
}

export async function createDirectSource(o: DirectSourceOptions): Promise<ChainSource> {
  if (o.family === 'solana') {
    const { createSolanaSource } = await import('../chains/sol/source.js');
    // 4 requests in flight: a person's own RPC endpoint, often a free tier, and a browser tab.
    return createSolanaSource({ rpcUrl: o.rpcUrl, tokens: o.tokenCache, maxInFlight: 4 });
  }
  if (o.family === 'evm') {
    const [{ createEvmSource }, { BUILT_IN_EVM_CHAINS }] = await Promise.all([import('../chains/evm/source.js'), import('../chains/evm/registry.js')]);
    const builtIn = BUILT_IN_EVM_CHAINS.find((c) => c.slug === o.chain);
    const s = o.info?.evm;
    // A chain added by the server's EVM_CHAINS_FILE (or a local node) is known only through /v1/chains.
    const chain =
      s && o.info
        ? {
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
          }
        : builtIn;
    if (!chain) throw new Error(`Direct mode knows no settings for the EVM chain ${o.chain}: use this server's API.`);
    return createEvmSource({ chain, rpcUrl: o.rpcUrl, tokens: o.tokenCache, fetch: o.fetch });
  }
  throw new Error(`Direct mode is not available for ${o.chain}: use this server's API.`);
}
