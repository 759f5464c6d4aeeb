import { HistoryError } from '../core/errors.js';
import { isSolanaAddress } from './sol/address.js';
import { normalizeEvmAddress, toChecksumAddress } from './evm/address.js';
import { BUILT_IN_EVM_CHAINS, mergeEvmChains, parseEvmChainsFile, type EvmChainConfig } from './evm/registry.js';
import { isTronAddress } from './tron/address.js';

/**
 * Every chain this server serves, with what the API needs to know of each: its address family,
 * native symbol and explorer link. The one place that knows all chain folders.
 */
export type ChainFamily = 'solana' | 'evm' | 'tron';

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

export interface ChainRpcOptions {
  batchSize?: number;
  maxInFlight?: number;
  requestsPerSecond?: number;
  timeoutMs?: number;
}

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

export interface ValidatedAddress {
  /** How it is stored and compared (EVM lowercase). */
  stored: string;
  /** How it is echoed (EVM EIP-55). */
  shown: string;
}

const FAMILY_RULE: Record<ChainFamily, string> = {
  solana: 'a base58 Solana address of 32 bytes',
  evm: 'an EVM address: 0x and 40 hex digits, with a valid EIP-55 checksum if mixed-case',
  tron: 'a Tron address: T-prefixed base58check of 25 bytes with version byte 0x41',
};

/** Validates `address` against the chain's family before anything touches the network. */
export function validateAddress(chain: ChainInfo, address: string): ValidatedAddress {
  switch (chain.family) {
    case 'solana':
      if (isSolanaAddress(address)) return { stored: address, shown: address };
      break;
    case 'tron':
      if (isTronAddress(address)) return { stored: address, shown: address };
      break;
    case 'evm': {
      const lower = normalizeEvmAddress(address);
      if (lower) return { stored: lower, shown: toChecksumAddress(lower) };
      break;
    }
  }
  throw new HistoryError('invalid_address', `"${address}" is not ${FAMILY_RULE[chain.family]} (chain ${chain.slug}).`, {
    context: { chain: chain.slug, family: chain.family },
  });
}
