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
import { isV4PoolKey, type V4PoolKey } from './evm/decode/pool-key.js';
import { ZEROX_SETTLERS } from './evm/enrich/settler-kind.js';
import { fromEvmPublicSettings, toEvmPublicSettings } from './evm/public-settings.js';
import type { EvmChainConfig } from './evm/registry.js';
import type { ChainInfo, PublicChain } from './registry.js';
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
  /** Solana and EVM: the WebSocket of the realtime stage (RPC_WS_URL_<SLUG>; by default from the RPC URL; null: none, poll only). */
  wsUrl?: string | null;
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
  /**
   * Where a source keeps values of a kind its family names (EVM: pool keys, looked up once per
   * pool): the server's store, which checks each value read back with `kind.accept`. Without it a
   * source keeps them in memory.
   */
  keyed?: <V>(kind: KeyedKind<V>) => ChainKeyedCache<V>;
  /** Where a source says what it chose (the server's log). */
  log?: (line: string) => void;
  /**
   * The limiter every HTTP request to the chain's endpoint goes through, when the server shares
   * the request rate with other instances (PostgreSQL); else each source makes its own.
   */
  limiter?: Limiter;
}

/** A kind of value a family's sources cache by key, with the check a value read back must pass. */
export interface KeyedKind<V> {
  name: string;
  accept(value: unknown): value is V;
}

/** A function the server may run on its worker threads: a pure function of structured-clone data. */
export type OffloadTask = (input: never) => unknown;

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
  /**
   * What a chain of this family adds to its GET /v1/chains entry (EVM: the `evm` block a client
   * decodes with). `discovery`: how the server's source finds a wallet's transactions, once known.
   */
  publicSettings?(chain: ChainInfo, discovery: string | null): Pick<PublicChain, 'evm'>;
  /**
   * The chain as direct mode builds its source in the browser: from the chain's /v1/chains entry
   * (or the built-in table's) and the person's own endpoint; null when the entry lacks what the
   * family needs.
   */
  directChain(described: PublicChain, rpcUrl: string): SourceChain | null;
  /** The tasks this family's sources hand to the server's worker threads, by name (imported on demand). */
  offloadTasks?(): Promise<Readonly<Record<string, OffloadTask>>>;
}

/** In the browser: a person's own endpoint and a browser tab: 4 requests in flight, often a free tier. */
const DIRECT_RPC: ChainRpcOptions = { maxInFlight: 4 };

/** EVM: Uniswap V4 and PancakeSwap Infinity pool keys by pool id (a key never changes). */
const POOL_KEYS: KeyedKind<V4PoolKey> = { name: 'v4-pool-key', accept: isV4PoolKey };

export const FAMILIES: Readonly<Record<ChainFamily, FamilyEntry>> = {
  solana: {
    displayName: 'Solana',
    rule: 'a base58 Solana address of 32 bytes',
    placeholder: 'base58 address',
    parseAddress: (s) => (isSolanaAddress(s) ? { stored: s, shown: s } : null),
    directMode: true,
    directChain: (c, rpcUrl) => ({ slug: c.slug, rpcUrl, rpc: DIRECT_RPC }),
    async offloadTasks() {
      const { DECODE_TRANSACTION_BATCH, decodeTransactionBatch } = await import('./sol/decode/decode-batch.js');
      return { [DECODE_TRANSACTION_BATCH]: decodeTransactionBatch };
    },
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
        wsUrl: chain.rpc.wsUrl,
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
    publicSettings: (c, discovery) => (c.evm ? { evm: toEvmPublicSettings(c.evm, discovery) } : {}),
    directChain: (c, rpcUrl) => (c.evm ? { slug: c.slug, rpcUrl, rpc: DIRECT_RPC, evm: fromEvmPublicSettings(c, c.evm, rpcUrl) } : null),
    async createSource(chain, { tokens, fetch, hints, keyed, log, limiter }) {
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
        wsUrl: chain.rpc.wsUrl,
        hints,
        poolKeys: keyed?.(POOL_KEYS),
        // 0x's Settler instances as read from its deployer registry: read once per chain, kept.
        settlers: keyed?.(ZEROX_SETTLERS),
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
    directChain: (c, rpcUrl) => ({ slug: c.slug, rpcUrl, rpc: DIRECT_RPC }),
    async createSource(chain, { tokens, fetch, limiter, keyed }) {
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
        // SunSwap V4 pool keys have the EVM V4 key's shape; the chain slug keeps the two apart in the store.
        poolKeys: keyed?.(POOL_KEYS),
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
