import type { EvmChainConfig, EvmConfirmation, EvmDexConfig } from './registry.js';

/**
 * The `evm` block of a chain in GET /v1/chains: what a client needs to decode an EVM chain itself
 * (the dashboard's direct mode), never its endpoint. Written here once, with its JSON Schema for
 * the OpenAPI document and the reading back into an EvmChainConfig.
 */
export interface EvmPublicSettings {
  wrappedNative: string | null;
  confirmation: EvmConfirmation;
  dexes: EvmDexConfig[];
  entryPoints: string[];
  aggregators: { name: string; address: string }[];
  /** How the server finds a wallet's transactions, once its first walk chose; null before (and in a browser's own table). */
  discovery: string | null;
}

export function toEvmPublicSettings(c: EvmChainConfig, discovery: string | null): EvmPublicSettings {
  return {
    wrappedNative: c.wrappedNative,
    confirmation: c.confirmation,
    dexes: c.dexes,
    entryPoints: c.entryPoints,
    aggregators: c.aggregators,
    discovery,
  };
}

/** The chain's EvmChainConfig from its public description (direct mode: the endpoint is the person's own). */
export function fromEvmPublicSettings(
  chain: { slug: string; chainId: number | null; nativeSymbol: string; explorerUrl: string },
  s: EvmPublicSettings,
  rpcUrl: string,
): EvmChainConfig {
  return {
    slug: chain.slug,
    chainId: chain.chainId ?? 0,
    rpcUrl,
    nativeSymbol: chain.nativeSymbol,
    explorerUrl: chain.explorerUrl,
    wrappedNative: s.wrappedNative,
    confirmation: s.confirmation,
    dexes: s.dexes,
    entryPoints: s.entryPoints,
    aggregators: s.aggregators,
  };
}

const address = { type: 'string' } as const;

/** JSON Schema of EvmPublicSettings. The venue shapes are those of EVM_CHAINS_FILE (decisions.md, "Chains"). */
export const EVM_PUBLIC_SETTINGS_SCHEMA = {
  type: 'object',
  description: 'EVM chains only: the settings a client needs to decode the chain itself.',
  additionalProperties: false,
  required: ['wrappedNative', 'confirmation', 'dexes', 'entryPoints', 'aggregators'],
  properties: {
    wrappedNative: { type: ['string', 'null'] },
    confirmation: {
      oneOf: [
        { type: 'string', enum: ['latest', 'safe', 'finalized'] },
        { type: 'integer', minimum: 0 },
      ],
    },
    dexes: {
      type: 'array',
      items: {
        oneOf: [
          {
            type: 'object',
            required: ['name', 'kind', 'factory'],
            properties: { name: { type: 'string' }, kind: { type: 'string', enum: ['v2', 'v3'] }, factory: address },
          },
          {
            type: 'object',
            required: ['name', 'kind', 'poolManager'],
            properties: { name: { type: 'string' }, kind: { type: 'string', enum: ['v4'] }, poolManager: address, positionManager: address },
          },
          {
            type: 'object',
            required: ['name', 'kind', 'vault'],
            properties: { name: { type: 'string' }, kind: { type: 'string', enum: ['balancer-v2'] }, vault: address },
          },
          {
            type: 'object',
            required: ['name', 'kind', 'settlement'],
            properties: { name: { type: 'string' }, kind: { type: 'string', enum: ['cow', 'uniswapx'] }, settlement: address },
          },
          {
            type: 'object',
            required: ['name', 'kind', 'vault', 'poolManagers'],
            properties: {
              name: { type: 'string' },
              kind: { type: 'string', enum: ['infinity'] },
              vault: address,
              poolManagers: { type: 'array', items: address },
            },
          },
          {
            type: 'object',
            required: ['name', 'kind', 'tokenManager'],
            properties: { name: { type: 'string' }, kind: { type: 'string', enum: ['fourmeme'] }, tokenManager: address },
          },
        ],
      },
    },
    entryPoints: { type: 'array', items: address },
    aggregators: { type: 'array', items: { type: 'object', required: ['name', 'address'], properties: { name: { type: 'string' }, address } } },
    discovery: {
      type: ['string', 'null'],
      enum: ['ots', 'explorer', 'logs', null],
      description:
        "How the server finds a wallet's transactions on this chain: the node's Otterscan index (ots), an Etherscan-compatible explorer API (explorer) or Transfer-log range scans (logs); null until the chain's first walk chose, from what the node answers (RPC_DISCOVERY_<SLUG> can fix it).",
    },
  },
} as const;
