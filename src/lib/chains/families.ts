/**
 * The one family table: for each chain family, how its addresses are validated and shown, what a
 * person is told when one is wrong, and how its chain source is built. The server (validation,
 * the loader's sources), the browser worker (direct mode) and the dashboard (validation as you
 * type, placeholders) all read it; nothing else switches on the family.
 *
 * A family's source is imported on demand: the dashboard page imports this table for validation,
 * and a person who only uses the API must not download the decoders (the worker's chunk has them).
 * A new family is one entry here and one folder under src/lib/chains/ with the same slots
 * (address.ts, rpc methods, decode/, tokens/, source.ts).
 */
import type { ChainKeyedCache, ChainSource, TokenCache } from '../core/chain-source.js';
import { HistoryError } from '../core/errors.js';
import type { Offload } from '../core/offload.js';
import type { Limiter } from '../rpc/limiter.js';
import { normalizeEvmAddress, toChecksumAddress } from './evm/address.js';
import type { V4PoolKey } from './evm/decode/pool-key.js';
import type { EvmChainConfig } from './evm/registry.js';
import { isSolanaAddress } from './sol/address.js';
import { isTronAddress } from './tron/address.js';

export type ChainFamily = 'solana' | 'evm' | 'tron';

export interface ValidatedAddress {
  /** How it is stored and compared (EVM lowercase). */
  stored: string;
  /** How it is echoed (EVM EIP-55). */
  shown: string;
}

/** Operator's limits for a chain's endpoint (RPC_BATCH_SIZE_, RPC_MAX_IN_FLIGHT_, RPC_RPS_, RPC_TIMEOUT_MS_<SLUG>). */
export interface ChainRpcOptions {
  batchSize?: number;
  maxInFlight?: number;
  requestsPerSecond?: number;
  timeoutMs?: number;
  /** EVM: the provider's largest eth_getLogs block range (RPC_LOGS_RANGE_<SLUG>). */
  logsRange?: number;
  /** Sent with every request (Tron: TRON-PRO-API-KEY from TRON_API_KEY). */
  headers?: Record<string, string>;
  /**
   * EVM: how a wallet's transactions are found (RPC_DISCOVERY_<SLUG>): `ots` (the node's
   * Otterscan index), `explorer` (an Etherscan-compatible API), `logs` (Transfer-log range scans),
   * `auto` (default: ots when the node serves it, else the explorer when one is configured, else logs).
   */
  discovery?: 'auto' | 'ots' | 'explorer' | 'logs';
  /** EVM: an Etherscan-compatible explorer API that tells where the wallet's transactions are. */
  explorer?: { url: string; key?: string };
}

/** What building a source needs to know of its chain (the server's ChainInfo, or the browser's from /v1/chains). */
export interface SourceChain {
  slug: string;
  rpcUrl: string;
  rpc: ChainRpcOptions;
  /** The EVM settings of an EVM chain. */
  evm?: EvmChainConfig;
}

export interface SourceDependencies {
  tokens: TokenCache;
  /** The server's worker threads, for decoding off the main thread (none in the browser). */
  offload?: Offload;
  fetch?: typeof fetch;
  /** What a source learns of its endpoint (its largest log range), kept across restarts: the server's store. */
  hints?: ChainKeyedCache<number>;
  /** Uniswap V4 pool keys, looked up once per pool and kept (the server's store). */
  poolKeys?: ChainKeyedCache<V4PoolKey>;
  /** Where a source says what it chose (the server's log). */
  log?: (line: string) => void;
  /**
   * The limiter every HTTP request to the chain's endpoint goes through, when the server shares
   * the request rate with other instances (PostgreSQL); else each source makes its own.
   */
  limiter?: Limiter;
}

export interface FamilyEntry {
  /** Shown to people: "Solana", "EVM", "Tron". */
  displayName: string;
  /** The address rule, as the 400 message and the dashboard word it. */
  rule: string;
  /** Placeholder of the address field. */
  placeholder: string;
  /** Stored and shown forms, or null when `input` is not an address of this family (nothing is trimmed). */
  parseAddress(input: string): ValidatedAddress | null;
  /** Whether the browser worker can read this family straight from its RPC (direct mode). */
  directMode: boolean;
  createSource(chain: SourceChain, deps: SourceDependencies): Promise<ChainSource>;
}

export const FAMILIES: Readonly<Record<ChainFamily, FamilyEntry>> = {
  solana: {
    displayName: 'Solana',
    rule: 'a base58 Solana address of 32 bytes',
    placeholder: 'base58 address',
    parseAddress: (s) => (isSolanaAddress(s) ? { stored: s, shown: s } : null),
    directMode: true,
    async createSource(chain, { tokens, offload, fetch, limiter }) {
      const { createSolanaSource } = await import('./sol/source.js');
      return createSolanaSource({
        rpcUrl: chain.rpcUrl,
        tokens,
        offload,
        batchSize: chain.rpc.batchSize,
        maxInFlight: chain.rpc.maxInFlight,
        requestsPerSecond: chain.rpc.requestsPerSecond,
        transportOptions: { ...(chain.rpc.timeoutMs ? { timeoutMs: chain.rpc.timeoutMs } : {}), ...(fetch ? { fetch } : {}), ...(limiter ? { limiter } : {}) },
      });
    },
  },
  evm: {
    displayName: 'EVM',
    rule: 'an EVM address: 0x and 40 hex digits, with a valid EIP-55 checksum if mixed-case',
    placeholder: '0x…',
    parseAddress(s) {
      const lower = normalizeEvmAddress(s);
      return lower ? { stored: lower, shown: toChecksumAddress(lower) } : null;
    },
    directMode: true,
    async createSource(chain, { tokens, fetch, hints, poolKeys, log, limiter }) {
      if (!chain.evm) throw new HistoryError('config_invalid', `No EVM settings are known for the chain ${chain.slug}.`);
      const { createEvmSource } = await import('./evm/source.js');
      return createEvmSource({
        chain: chain.evm,
        rpcUrl: chain.rpcUrl,
        tokens,
        fetch,
        batchSize: chain.rpc.batchSize,
        maxInFlight: chain.rpc.maxInFlight,
        requestsPerSecond: chain.rpc.requestsPerSecond,
        timeoutMs: chain.rpc.timeoutMs,
        logsRange: chain.rpc.logsRange,
        discovery: chain.rpc.discovery,
        explorer: chain.rpc.explorer,
        hints,
        poolKeys,
        log,
        limiter,
      });
    },
  },
  tron: {
    displayName: 'Tron',
    rule: 'a Tron address: T-prefixed base58check of 25 bytes with version byte 0x41',
    placeholder: 'T…',
    parseAddress: (s) => (isTronAddress(s) ? { stored: s, shown: s } : null),
    directMode: true,
    async createSource(chain, { tokens, fetch, limiter }) {
      const { createTronSource } = await import('./tron/source.js');
      return createTronSource({
        chain: chain.slug,
        rpcUrl: chain.rpcUrl,
        tokens,
        fetch,
        headers: chain.rpc.headers,
        maxInFlight: chain.rpc.maxInFlight,
        requestsPerSecond: chain.rpc.requestsPerSecond,
        timeoutMs: chain.rpc.timeoutMs,
        limiter,
      });
    },
  },
};

/** Validates `address` against its chain's family before anything touches the network. */
export function validateAddress(chain: { slug: string; family: ChainFamily }, address: string): ValidatedAddress {
  const family = FAMILIES[chain.family];
  const v = family.parseAddress(address);
  if (v) return v;
  throw new HistoryError('invalid_address', `"${address}" is not ${family.rule} (chain ${chain.slug}).`, {
    context: { chain: chain.slug, family: chain.family },
  });
}
