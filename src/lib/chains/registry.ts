import { BUILT_IN_EVM_CHAINS, mergeEvmChains, parseEvmChainsFile, type EvmChainConfig } from './evm/registry.js';
import { EVM_PUBLIC_SETTINGS_SCHEMA, type EvmPublicSettings } from './evm/public-settings.js';
import { FAMILIES, type ChainFamily, type ChainRpcOptions } from './families.js';

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

/**
 * A chain as GET /v1/chains describes it to clients (no endpoint, no limits): the one definition
 * of that wire shape, written by the handler, given a schema in the OpenAPI document and read by
 * the dashboard. A family adds its own block (EVM: `evm`) through its entry in families.ts.
 */
export interface PublicChain {
  slug: string;
  family: ChainFamily;
  nativeSymbol: string;
  /** EVM chain id; null elsewhere. */
  chainId: number | null;
  /** Link to a transaction, with `{signature}` in place of its id. */
  explorerUrl: string;
  /** The chain a request without `chain=` reads. */
  default: boolean;
  /** EVM chains: what a client needs to decode the chain itself. */
  evm?: EvmPublicSettings;
}

/** `discovery`: how the chain's source finds a wallet's transactions, once it chose (null before). */
export function toPublicChain(c: ChainInfo, discovery: string | null = null): PublicChain {
  return {
    slug: c.slug,
    family: c.family,
    nativeSymbol: c.nativeSymbol,
    chainId: c.chainId,
    explorerUrl: c.explorerUrl,
    default: c.slug === DEFAULT_CHAIN,
    ...FAMILIES[c.family].publicSettings?.(c, discovery),
  };
}

/** JSON Schema of GET /v1/chains' body. */
export const PUBLIC_CHAINS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['chains'],
  properties: {
    chains: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['slug', 'family', 'nativeSymbol', 'chainId', 'explorerUrl', 'default'],
        properties: {
          slug: { type: 'string' },
          family: { type: 'string', enum: Object.keys(FAMILIES) },
          nativeSymbol: { type: 'string' },
          chainId: { type: ['integer', 'null'] },
          explorerUrl: { type: 'string', description: 'Template with {signature}.' },
          default: { type: 'boolean' },
          evm: EVM_PUBLIC_SETTINGS_SCHEMA,
        },
      },
    },
  },
} as const;

/**
 * GET /v1/chains' body (or a list the dashboard cached) as PublicChains; entries of a family this
 * code does not know are left out. A list cached by an earlier dashboard kept `chainId` inside `evm`.
 */
export function parsePublicChains(body: unknown): PublicChain[] {
  const list = (body as { chains?: unknown } | null)?.chains ?? body;
  if (!Array.isArray(list)) return [];
  return list
    .filter((c): c is PublicChain & { evm?: { chainId?: number | null } } => !!c && typeof c.slug === 'string' && Object.hasOwn(FAMILIES, c.family))
    .map((c) => ({ ...c, chainId: c.chainId ?? c.evm?.chainId ?? null, default: c.default === true }));
}

/** The built-in chains as /v1/chains describes them: what the dashboard knows before the server answers (first visit offline). */
export const BUILT_IN_CHAINS: readonly PublicChain[] = createChainRegistry()
  .list()
  .map((c) => toPublicChain(c));
