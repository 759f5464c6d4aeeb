import { availableParallelism } from 'node:os';
import { HistoryError } from '../core/errors.js';
import type { ChainRpcOptions } from '../chains/registry.js';
import { feedTable, type FeedEntry } from '../prices/feeds.js';

/**
 * The server's whole configuration, read from the environment here and nowhere else
 * (decisions.md, "Configuration an operator needs").
 */
export interface ServerConfig {
  /** postgres://... selects a PostgreSQL server; undefined selects embedded PGlite under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /**
   * PGLITE_OPTIMIZE=true: the embedded database's WebAssembly is also compiled by V8's optimizing
   * tier (about 20% faster bulk writes for about 45 MB more memory; default off, see database.ts).
   */
  pgliteOptimize: boolean;
  /** One time budget for streams and pages (STREAM_MAX_SECONDS, default 55). */
  streamMaxSeconds: number;
  /** A request from the top refreshes the head when it was checked longer ago than this (default 60). */
  headStaleSeconds: number;
  /** Optional bootstrap keys, `account:key,...` (API_KEYS). */
  apiKeys: { account: string; key: string }[];
  cursorSecret?: string;
  /** RPC_URL_<SLUG>, keyed by lowercase slug (`-` written `_`). */
  rpcUrls: Record<string, string>;
  /** RPC_BATCH_SIZE_, RPC_MAX_IN_FLIGHT_, RPC_RPS_, RPC_TIMEOUT_MS_, RPC_LOGS_RANGE_<SLUG>, keyed like rpcUrls. */
  rpcOptions: Record<string, ChainRpcOptions>;
  evmChainsFile?: string;
  /** Requests per minute per account before 429 (RATE_LIMIT_PER_MINUTE, 0 = off, default 1200). */
  rateLimitPerMinute: number;
  /**
   * Length of a wallet's lease among instances sharing a PostgreSQL database (LEASE_SECONDS,
   * default 30): a dead instance's wallets are taken over after at most this long.
   */
  leaseSeconds: number;
  /**
   * What this process does (ROLE): `all` (default) serves the API and walks wallets; `api` serves
   * the API and never walks (it records demand in the database); `worker` walks wallets with
   * demand and serves only /healthz, /readyz and /metrics. `api` and `worker` need DATABASE_URL.
   */
  role: 'all' | 'api' | 'worker';
  /**
   * PostgreSQL connections per instance (DATABASE_POOL_SIZE, default 10). Several instances on
   * one database share its cores: the scale-out benchmark kept the total near one instance's.
   */
  databasePoolSize: number;
  /** History requests in flight before 503 overloaded (MAX_CONCURRENT_REQUESTS, default 512). */
  maxConcurrentRequests: number;
  /** History requests in flight per key before 429 rate_limited (MAX_STREAMS_PER_KEY, default MAX_CONCURRENT_REQUESTS). */
  maxStreamsPerKey: number;
  /** How long a follow stream stays open before its end line (FOLLOW_MAX_SECONDS, default 3600). */
  followMaxSeconds: number;
  /** Follow streams open on this instance, and per key, before 429 (MAX_FOLLOW_STREAMS, default 1000; MAX_FOLLOW_STREAMS_PER_KEY, default 20). */
  maxFollowStreams: number;
  maxFollowStreamsPerKey: number;
  /** Webhooks' signing secrets are encrypted under it; without it no webhook can be created (WEBHOOK_SECRET_KEY). */
  webhookSecretKey?: string;
  /** Webhook URLs may be http (WEBHOOK_ALLOW_HTTP=true) and point to private addresses (WEBHOOK_ALLOW_PRIVATE=true): for tests and closed networks. */
  webhookAllowHttp: boolean;
  webhookAllowPrivate: boolean;
  /** Webhooks per account (MAX_WEBHOOKS_PER_ACCOUNT, default 20). */
  maxWebhooksPerAccount: number;
  /**
   * Worker threads that decode chain data beside the main thread (DECODE_THREADS; default one
   * less than the cores, at most 4; 0 decodes on the main thread).
   */
  decodeThreads: number;
  /**
   * EMBEDDED=1: the app is run inside another program (the tests and benchmarks) that composes a
   * server per test and hands it to each request as `platform.server`; the app starts none of its
   * own (no store opened, no key printed, no background load resumed).
   */
  embedded: boolean;
  /**
   * Each native coin's Chainlink USD feed (decisions.md "USD values"): the built-in table with
   * PRICE_FEED_<COIN>=<chain slug>:<proxy>[:<heartbeat seconds>] applied.
   */
  priceFeeds: Record<string, FeedEntry>;
  /** How long a stream waits for a batch's prices before sending nulls (PRICE_WAIT_MS, default 2000). */
  priceWaitMs: number;
  /**
   * Where prices come from (PRICE_SOURCE): `chainlink` (default, the feeds over the chains' own
   * RPC), `candles` (one-minute USD candles of a public exchange API, PRICE_CANDLES_URL) or `none`
   * (include=usd answers null prices, complete: an operator who wants no price requests at all).
   */
  priceSource: 'chainlink' | 'candles' | 'none';
  priceCandlesUrl: string;
}

/** Coinbase Exchange's public market data: one-minute USD candles, no key (prices/candle-source.ts). */
export const DEFAULT_CANDLES_URL = 'https://api.exchange.coinbase.com';

type Env = Record<string, string | undefined>;

const RPC_OPTION_VARS: [RegExp, Exclude<keyof ChainRpcOptions, 'headers' | 'discovery' | 'explorer' | 'wsUrl'>][] = [
  [/^RPC_BATCH_SIZE_([A-Z0-9_]+)$/, 'batchSize'],
  [/^RPC_MAX_IN_FLIGHT_([A-Z0-9_]+)$/, 'maxInFlight'],
  [/^RPC_RPS_([A-Z0-9_]+)$/, 'requestsPerSecond'],
  [/^RPC_TIMEOUT_MS_([A-Z0-9_]+)$/, 'timeoutMs'],
  [/^RPC_LOGS_RANGE_([A-Z0-9_]+)$/, 'logsRange'],
];

/** A `true`/`false` setting (default false); anything else stops the start. */
function flag(env: Env, name: string): boolean {
  const v = (env[name]?.trim() || 'false').toLowerCase();
  if (v !== 'true' && v !== 'false') throw new HistoryError('config_invalid', `${name} must be "true" or "false", got "${env[name]}"`);
  return v === 'true';
}

function positiveNumber(env: Env, name: string, fallback: number, { allowZero = false } = {}): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    throw new HistoryError('config_invalid', `${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got "${raw}"`);
  }
  return n;
}

export function parseApiKeys(raw: string | undefined): { account: string; key: string }[] {
  if (!raw?.trim()) return [];
  return raw.split(',').map((entry, i) => {
    const at = entry.indexOf(':');
    const account = entry.slice(0, at).trim();
    const key = entry.slice(at + 1).trim();
    if (at <= 0 || !account || key.length < 16) {
      throw new HistoryError('config_invalid', `API_KEYS entry ${i + 1} must be account:key with a key of at least 16 characters`);
    }
    return { account, key };
  });
}

export function loadConfig(env: Env = process.env): ServerConfig {
  const rpcUrls: Record<string, string> = {};
  const rpcOptions: Record<string, ChainRpcOptions> = {};
  for (const [name, value] of Object.entries(env)) {
    const m = /^RPC_URL_([A-Z0-9_]+)$/.exec(name);
    if (m && value) rpcUrls[m[1].toLowerCase()] = value;
    for (const [re, key] of RPC_OPTION_VARS) {
      const o = re.exec(name);
      if (o && value) (rpcOptions[o[1].toLowerCase()] ??= {})[key] = positiveNumber(env, name, 1);
    }
  }
  // TronGrid's API key travels as a header (never in the URL, so it never reaches a log).
  for (const [name, value] of Object.entries(env)) {
    const m = /^RPC_DISCOVERY_([A-Z0-9_]+)$/.exec(name);
    if (!m || !value?.trim()) continue;
    const v = value.trim();
    if (v !== 'auto' && v !== 'ots' && v !== 'explorer' && v !== 'logs') {
      throw new HistoryError('config_invalid', `${name} must be "auto", "ots", "explorer" or "logs", got "${value}"`);
    }
    (rpcOptions[m[1].toLowerCase()] ??= {}).discovery = v;
  }
  for (const [name, value] of Object.entries(env)) {
    const m = /^EXPLORER_API_URL_([A-Z0-9_]+)$/.exec(name);
    if (!m || !value?.trim()) continue;
    try {
      new URL(value.trim());
    } catch {
      throw new HistoryError('config_invalid', `${name} must be a URL, got "${value}"`);
    }
    const key = env[`EXPLORER_API_KEY_${m[1]}`]?.trim();
    (rpcOptions[m[1].toLowerCase()] ??= {}).explorer = { url: value.trim(), ...(key ? { key } : {}) };
  }
  for (const [name, value] of Object.entries(env)) {
    const m = /^RPC_WS_URL_([A-Z0-9_]+)$/.exec(name);
    if (!m || value === undefined) continue;
    const v = value.trim();
    // An empty value turns the WebSocket off (the stage then polls).
    // A fragment is refused by the WebSocket itself (it never reaches the server): said here at start.
    if (v && (!/^wss?:\/\/[^\s#]+$/.test(v) || !URL.canParse(v)))
      throw new HistoryError('config_invalid', `${name} must be a ws:// or wss:// URL without a #fragment, or empty, got "${value}"`);
    (rpcOptions[m[1].toLowerCase()] ??= {}).wsUrl = v || null;
  }
  const tronApiKey = env.TRON_API_KEY?.trim();
  if (tronApiKey) (rpcOptions.tron ??= {}).headers = { 'TRON-PRO-API-KEY': tronApiKey };
  const pgliteOptimize = flag(env, 'PGLITE_OPTIMIZE') ? 'true' : 'false';
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new HistoryError('config_invalid', 'DATABASE_URL must be a postgres:// URL (unset it for the embedded database)');
  }
  const role = (env.ROLE?.trim() || 'all').toLowerCase();
  if (role !== 'all' && role !== 'api' && role !== 'worker')
    throw new HistoryError('config_invalid', `ROLE must be "all", "api" or "worker", got "${env.ROLE}"`);
  if (role !== 'all' && !databaseUrl) {
    throw new HistoryError(
      'config_invalid',
      `ROLE=${role} needs DATABASE_URL: instances share their work through PostgreSQL (the embedded store serves one process)`,
    );
  }
  const feedOverrides: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const m = /^PRICE_FEED_([A-Z0-9]+)$/.exec(name);
    if (m && value?.trim()) feedOverrides[m[1]] = value;
  }
  let priceFeeds: Record<string, FeedEntry>;
  try {
    priceFeeds = feedTable(feedOverrides);
  } catch (e) {
    throw new HistoryError('config_invalid', (e as Error).message);
  }
  const priceSource = (env.PRICE_SOURCE?.trim() || 'chainlink').toLowerCase();
  if (priceSource !== 'chainlink' && priceSource !== 'candles' && priceSource !== 'none')
    throw new HistoryError('config_invalid', `PRICE_SOURCE must be "chainlink", "candles" or "none", got "${env.PRICE_SOURCE}"`);
  const priceCandlesUrl = env.PRICE_CANDLES_URL?.trim() || DEFAULT_CANDLES_URL;
  try {
    new URL(priceCandlesUrl);
  } catch {
    throw new HistoryError('config_invalid', `PRICE_CANDLES_URL must be a URL, got "${env.PRICE_CANDLES_URL}"`);
  }
  return {
    role,
    embedded: env.EMBEDDED?.trim() === '1',
    databaseUrl,
    dataDir: env.DATA_DIR?.trim() || './data',
    pgliteOptimize: pgliteOptimize === 'true',
    streamMaxSeconds: positiveNumber(env, 'STREAM_MAX_SECONDS', 55),
    headStaleSeconds: positiveNumber(env, 'HEAD_STALE_SECONDS', 60, { allowZero: true }),
    apiKeys: parseApiKeys(env.API_KEYS),
    cursorSecret: env.CURSOR_SECRET?.trim() || undefined,
    rpcUrls,
    rpcOptions,
    evmChainsFile: env.EVM_CHAINS_FILE?.trim() || undefined,
    rateLimitPerMinute: positiveNumber(env, 'RATE_LIMIT_PER_MINUTE', 1200, { allowZero: true }),
    leaseSeconds: positiveNumber(env, 'LEASE_SECONDS', 30),
    databasePoolSize: Math.floor(positiveNumber(env, 'DATABASE_POOL_SIZE', 10)),
    maxConcurrentRequests: positiveNumber(env, 'MAX_CONCURRENT_REQUESTS', 512),
    maxStreamsPerKey: positiveNumber(env, 'MAX_STREAMS_PER_KEY', positiveNumber(env, 'MAX_CONCURRENT_REQUESTS', 512)),
    followMaxSeconds: positiveNumber(env, 'FOLLOW_MAX_SECONDS', 3600),
    maxFollowStreams: Math.floor(positiveNumber(env, 'MAX_FOLLOW_STREAMS', 1000)),
    maxFollowStreamsPerKey: Math.floor(positiveNumber(env, 'MAX_FOLLOW_STREAMS_PER_KEY', 20)),
    webhookSecretKey: env.WEBHOOK_SECRET_KEY?.trim() || undefined,
    webhookAllowHttp: flag(env, 'WEBHOOK_ALLOW_HTTP'),
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE'),
    maxWebhooksPerAccount: Math.floor(positiveNumber(env, 'MAX_WEBHOOKS_PER_ACCOUNT', 20)),
    priceFeeds,
    priceWaitMs: positiveNumber(env, 'PRICE_WAIT_MS', 2000, { allowZero: true }),
    priceSource,
    priceCandlesUrl,
    decodeThreads: Math.floor(positiveNumber(env, 'DECODE_THREADS', Math.min(4, availableParallelism() - 1), { allowZero: true })),
  };
}
