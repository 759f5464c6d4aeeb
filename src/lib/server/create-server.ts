import { readFileSync } from 'node:fs';
import type { ChainKeyedCache, ChainSource } from '../core/chain-source.js';
import type { KeyedKind } from '../chains/families.js';
import { HistoryError } from '../core/errors.js';
import { createChainRegistry, type ChainRegistry } from '../chains/registry.js';
import { createApi, type Api } from './api/create-api.js';
import { createCursorCodec } from './api/cursor.js';
import type { ServerConfig } from './config.js';
import { countKeys, createKey } from './store/accounts.js';
import { redactUrl } from '../core/errors.js';
import { openDatabase, type Database } from './store/database.js';
import { migrate } from './store/migrations.js';
import { createStoreHintCache, createStoreKeyedCache, resolveCursorSecret } from './store/settings.js';
import { createStoreTokenCache } from './store/tokens.js';
import { startLive, type Live } from './live/start-live.js';
import { createLoaderRegistry, type LoaderRegistry } from './sync/loader-registry.js';
import { createWalletLeases } from './sync/wallet-leases.js';
import { createSharedLimiter } from './sync/shared-limiter.js';
import { startDemandWorker } from './sync/demand-worker.js';
import type { SourceFactory } from './sources.js';
import { createWorkerPool, type WorkerPool } from './workers/pool.js';
import { createPricer } from './prices/create-pricer.js';
import { createPriceService } from '../prices/price-service.js';
import { createStoreRoundCache } from './store/price-rounds.js';
import { createRpcTransport } from '../rpc/json-rpc.js';

export interface Server {
  api: Api;
  /** The Prometheus exposition of GET /metrics. */
  metricsText(): Promise<string>;
  db: Database;
  chains: ChainRegistry;
  loaders: LoaderRegistry;
  /** Worker threads the chain sources decode in (started on first use). */
  workers: WorkerPool;
  /** ROLE: a worker serves only /healthz, /readyz and /metrics. */
  role: 'all' | 'api' | 'worker';
  close(): Promise<void>;
}

export interface CreateServerParameters {
  config: ServerConfig;
  /** Builds chain sources: `defaultSourceFactory` in the app; tests pass their own. */
  sources: SourceFactory;
  /** Where start-up messages go (the first key is printed here once). */
  log?: (line: string) => void;
  /** Rows per stored read (benchmarks vary it). */
  readRows?: number;
}

function readEvmChainsFile(path: string | undefined): unknown {
  if (!path) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new HistoryError('config_invalid', `EVM_CHAINS_FILE ${path} could not be read as JSON: ${(e as Error).message}`, { cause: e });
  }
}

/**
 * Wires the service: store (migrated), keys, cursor secret, chains, loaders and the API.
 * The SvelteKit hook, the test servers and the benchmarks all start it through here.
 */
export async function createServer({ config, sources, log = console.log, readRows }: CreateServerParameters): Promise<Server> {
  // Chains first: a malformed EVM_CHAINS_FILE stops the start before anything is opened.
  const chains = createChainRegistry({ rpcUrls: config.rpcUrls, rpcOptions: config.rpcOptions, evmChainsFile: readEvmChainsFile(config.evmChainsFile) });
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, pgliteOptimize: config.pgliteOptimize, poolSize: config.databasePoolSize });
  try {
    await migrate(db);
    // Which store answers is the first thing an operator checks (the URL without its password).
    log(db.kind === 'postgres' ? `Store: PostgreSQL at ${redactUrl(config.databaseUrl!)}` : `Store: embedded (PGlite) in ${config.dataDir}`);
    for (const { account, key } of config.apiKeys) await createKey(db, account, key);
    if ((await countKeys(db)) === 0) {
      const { key } = await createKey(db, 'local');
      log(`No API key existed, so one was created for the account "local". It is shown only this once:\n\n  ${key}\n`);
    }
    const cursors = createCursorCodec(await resolveCursorSecret(db, config.cursorSecret));
    const tokens = createStoreTokenCache(db);
    const hints = createStoreHintCache(db);
    // Values a family's sources look up once and keep (EVM pool keys): one store-backed cache per kind.
    const keyedCaches = new Map<string, ChainKeyedCache<unknown>>();
    const keyed = <V>(kind: KeyedKind<V>): ChainKeyedCache<V> => {
      let c = keyedCaches.get(kind.name);
      if (!c) keyedCaches.set(kind.name, (c = createStoreKeyedCache(db, kind.name, kind.accept)));
      return c as ChainKeyedCache<V>;
    };
    const workers = createWorkerPool({ size: config.decodeThreads, log });
    // One source per chain, built on the chain's first request (the Solana source starts the
    // decode workers then: a server that never serves Solana never starts one).
    const built = new Map<string, Promise<ChainSource>>();
    const ready = new Map<string, ChainSource>();
    const sourceFor = (slug: string) => {
      let s = built.get(slug);
      if (!s) {
        const chain = chains.get(slug)!;
        // Several instances on one database share RPC_RPS_<SLUG>: the upstream sees all of them.
        const rps = chain.rpc.requestsPerSecond;
        const limiter =
          db.kind === 'postgres' && rps ? createSharedLimiter({ db, chain: slug, requestsPerSecond: rps, maxInFlight: chain.rpc.maxInFlight ?? 8 }) : undefined;
        built.set(slug, (s = Promise.resolve(sources(chain, { tokens, offload: workers, hints, keyed, log, limiter }))));
        s.then(
          (src) => ready.set(slug, src),
          () => built.delete(slug),
        );
      }
      return s;
    };
    // USD values (include=usd): each coin's feed read over the RPC of the chain that carries it,
    // with that chain's endpoint limits; rounds kept in the store for every wallet and instance.
    const prices = createPriceService({
      feeds: config.priceFeeds,
      rpcUrlOf: (slug) => chains.get(slug)?.rpcUrl,
      rounds: createStoreRoundCache(db),
      hints,
      candles: config.priceSource === 'candles' ? { baseUrl: config.priceCandlesUrl } : undefined,
      logsRangeOf: (slug) => chains.get(slug)?.rpc.logsRange,
      transportFor: (url, slug) => {
        const o = chains.get(slug)?.rpc ?? {};
        return createRpcTransport({ url, batchSize: o.batchSize, maxInFlight: o.maxInFlight, requestsPerSecond: o.requestsPerSecond, timeoutMs: o.timeoutMs });
      },
    });
    const pricer = createPricer({ prices, waitMs: config.priceWaitMs, log });
    const coinOf = (slug: string): string | null => {
      const symbol = chains.get(slug)?.nativeSymbol;
      if (!symbol || config.priceSource === 'none') return null;
      // Candles price any coin the exchange lists; the feeds, the coins of the table.
      return config.priceSource === 'candles' || config.priceFeeds[symbol] ? symbol : null;
    };
    // Several instances may share a PostgreSQL database: one walk per wallet among them, by lease.
    // The embedded store belongs to this process alone.
    const leases = db.kind === 'postgres' ? await createWalletLeases({ db, ttlMs: config.leaseSeconds * 1000 }) : undefined;
    // Set once the webhook sender starts (below); a commit before that has nothing to wake.
    let live: Live | undefined = undefined;
    const loaders = createLoaderRegistry({
      db,
      sourceFor,
      leases,
      role: config.role,
      headStaleMs: config.headStaleSeconds * 1000,
      onStored: (chain, walletId, trades, announced) => {
        const coin = coinOf(chain);
        if (coin) pricer.stored(coin, walletId, trades);
        // A commit that wrote deliveries (the outbox): send them now, not at the next poll. Only
        // then: a backfill's batches for wallets without webhooks wake nobody.
        if (announced) live?.dispatcher?.wake();
      },
      onError: (e, chain, address) => log(`load of ${chain}:${address} stopped: ${e.code}: ${e.message}`),
    });
    if (config.role !== 'all') log(`Role: ${config.role}`);
    if (config.role !== 'api') {
      const resumed = await loaders.resumeBackground();
      if (resumed) log(`Resumed background loading of ${resumed} wallet(s).`);
    }
    // On PostgreSQL every walking instance also serves what API-only instances record.
    const demand = db.kind === 'postgres' && config.role !== 'api' ? await startDemandWorker({ db, loaders, log }) : undefined;
    // On the embedded store, the same 30 s sweep for loads whose failure's backoff has run out
    // (store/wallets.ts): they resume on their own, no sooner.
    const sweep = !demand && config.role !== 'api' ? setInterval(() => void loaders.resumeBackground().catch(() => {}), 30_000) : undefined;
    sweep?.unref?.();
    live = await startLive({ config, db, chains, cursors, loaders, sourceFor, holder: leases?.holder, log });
    const api = createApi({
      db,
      chains,
      loaders,
      cursors,
      budgetMs: config.streamMaxSeconds * 1000,
      rateLimitPerMinute: config.rateLimitPerMinute,
      maxConcurrentRequests: config.maxConcurrentRequests,
      maxRequestsPerAccount: config.maxStreamsPerKey,
      readRows,
      discoveryOf: (slug) => ready.get(slug)?.discovery,
      usd: { pricer, coinOf },
      realtime: live.realtime,
      commits: leases ? (walletId, ms, signal) => leases.nextChange(walletId, ms, signal) : undefined,
      followMaxMs: config.followMaxSeconds * 1000,
      maxFollowStreams: config.maxFollowStreams,
      maxFollowStreamsPerAccount: config.maxFollowStreamsPerKey,
      webhooks: live.webhooks,
    });
    /** GET /metrics: the API's counters plus what loaders and sources keep. */
    async function metricsText(): Promise<string> {
      const counts = await loaders.counts();
      const rpc: [Record<string, string>, number][] = [];
      const retries: [Record<string, string>, number][] = [];
      const stages = live!.realtime.running().map((chain): [Record<string, string>, number] => [{ chain }, 1]);
      for (const [chain, src] of ready) {
        const st = ((src as { transport?: { stats?: unknown } }).transport?.stats ?? (src as { stats?: unknown }).stats) as
          { httpRequests?: number; retries?: number } | undefined;
        if (typeof st?.httpRequests === 'number') rpc.push([{ chain }, st.httpRequests]);
        if (typeof st?.retries === 'number') retries.push([{ chain }, st.retries]);
      }
      return api.metrics.render([
        { name: 'wth_loaders', help: 'wallet loaders held in this process', type: 'gauge', values: [[{}, counts.held]] },
        { name: 'wth_loads_running', help: 'wallet loads walking now', type: 'gauge', values: [[{}, counts.running]] },
        { name: 'wth_trades_stored_total', help: 'trades stored by this process', type: 'counter', values: [[{}, counts.tradesStored]] },
        { name: 'wth_leases_held', help: 'wallet leases this instance holds (PostgreSQL store)', type: 'gauge', values: [[{}, leases?.counts().held ?? 0]] },
        { name: 'wth_realtime_stages', help: 'realtime stages running here, by chain', type: 'gauge', values: stages },
        {
          name: 'wth_leases_taken_over_total',
          help: 'wallet leases taken from an instance whose lease ran out',
          type: 'counter',
          values: [[{}, leases?.counts().takenOver ?? 0]],
        },
        { name: 'wth_rpc_requests_total', help: 'HTTP requests to chain endpoints, retries included, by chain', type: 'counter', values: rpc },
        { name: 'wth_rpc_retries_total', help: 'requests to chain endpoints retried, by chain', type: 'counter', values: retries },
      ]);
    }
    return {
      api,
      metricsText,
      db,
      chains,
      loaders,
      workers,
      role: config.role,
      async close() {
        clearInterval(sweep);
        await live?.close();
        await demand?.close();
        await loaders.stopAll();
        await leases?.close();
        await workers.close();
        await db.close();
      },
    };
  } catch (e) {
    await db.close().catch(() => {});
    throw e;
  }
}
