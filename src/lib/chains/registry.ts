import { BUILT_IN_EVM_CHAINS, mergeEvmChains, parseEvmChainsFile, type EvmChainConfig } from './evm/registry.js';
import type { ChainFamily, ChainRpcOptions } from './families.js';

export { validateAddress, type ChainFamily, type ChainRpcOptions, type ValidatedAddress } from './families.js';

/**
 * Every chain this server serves, with what the API needs to know of each: its address family,
 * native symbol and explorer link. How each family validates addresses and builds its source is
 * in families.ts.
 */

export interface ChainInfo {
  slug: string;
  family: ChainFamily;
  nativeSymbol: string;
  /** Link to a transaction, with `{signature}` in place of its id. */
  explorerUrl: string;
  /** EVM chain id; null elsewhere. */
  chainId: number | null;
  /** The endpoint the source uses (RPC_URL_<SLUG> or the configured default). Never shown to clients. */
  rpcUrl: string;
  /** Operator's limits for that endpoint (batch size, requests in flight, rate, timeout). */
  rpc: ChainRpcOptions;
  builtIn: boolean;
  /** The EVM settings of an EVM chain. */
  evm?: EvmChainConfig;
}

export const DEFAULT_CHAIN = 'sol';

const SOL: Omit<ChainInfo, 'rpcUrl' | 'rpc'> = {
  slug: 'sol',
  family: 'solana',
  nativeSymbol: 'SOL',
  explorerUrl: 'https://solscan.io/tx/{signature}',
  chainId: null,
  builtIn: true,
};
const TRON: Omit<ChainInfo, 'rpcUrl' | 'rpc'> = {
  slug: 'tron',
  family: 'tron',
  nativeSymbol: 'TRX',
  explorerUrl: 'https://tronscan.org/#/transaction/{signature}',
  chainId: null,
  builtIn: true,
};
const DEFAULT_RPC: Record<string, string> = {
  sol: 'https://api.mainnet-beta.solana.com',
  tron: 'https://api.trongrid.io',
};

export interface ChainRegistry {
  list(): ChainInfo[];
  get(slug: string): ChainInfo | undefined;
}

export interface CreateChainRegistryParameters {
  /** RPC_URL_<SLUG> values keyed by lowercase slug with `-` written `_`. */
  rpcUrls?: Record<string, string>;
  /** Endpoint limits keyed like rpcUrls. */
  rpcOptions?: Record<string, ChainRpcOptions>;
  /** Parsed content of EVM_CHAINS_FILE, if set. */
  evmChainsFile?: unknown;
}

export function createChainRegistry({ rpcUrls = {}, rpcOptions = {}, evmChainsFile }: CreateChainRegistryParameters = {}): ChainRegistry {
  const envKey = (slug: string) => slug.replace(/-/g, '_');
  const urlFor = (slug: string, fallback: string) => rpcUrls[envKey(slug)] ?? fallback;
  const rpc = (slug: string) => rpcOptions[envKey(slug)] ?? {};
  const builtInEvm = new Set(BUILT_IN_EVM_CHAINS.map((c) => c.slug));
  const evm = evmChainsFile === undefined ? [...BUILT_IN_EVM_CHAINS] : mergeEvmChains(BUILT_IN_EVM_CHAINS, parseEvmChainsFile(evmChainsFile));
  const chains: ChainInfo[] = [
    { ...SOL, rpcUrl: urlFor('sol', DEFAULT_RPC.sol), rpc: rpc('sol') },
    ...evm.map<ChainInfo>((c) => ({
      slug: c.slug,
      family: 'evm',
      nativeSymbol: c.nativeSymbol,
      explorerUrl: c.explorerUrl,
      chainId: c.chainId,
      rpcUrl: urlFor(c.slug, c.rpcUrl),
      rpc: rpc(c.slug),
      builtIn: builtInEvm.has(c.slug),
      evm: c,
    })),
    { ...TRON, rpcUrl: urlFor('tron', DEFAULT_RPC.tron), rpc: rpc('tron') },
  ];
  const bySlug = new Map(chains.map((c) => [c.slug, c]));
  return { list: () => chains, get: (slug) => bySlug.get(slug) };
}

/** A chain as /v1/chains describes it to clients (no endpoint, no limits). */
export interface PublicChain {
  slug: string;
  family: ChainFamily;
  nativeSymbol: string;
  explorerUrl: string;
}

/** The built-in chains, public fields only: what the dashboard shows before /v1/chains answers (first visit offline). */
export const BUILT_IN_CHAINS: readonly PublicChain[] = [SOL, ...BUILT_IN_EVM_CHAINS.map((c) => ({ ...c, family: 'evm' as const })), TRON].map(
  ({ slug, family, nativeSymbol, explorerUrl }) => ({ slug, family, nativeSymbol, explorerUrl }),
);
