import { createRpcTransport, type RpcTransport } from '../rpc/json-rpc.js';
import type { ChainKeyedCache } from '../core/chain-source.js';
import { createChainlinkFeed } from './chainlink-feed.js';
import { createRoundLogs } from './chainlink-logs.js';
import { createCandleSource } from './candle-source.js';
import type { FeedEntry } from './feeds.js';
import type { PricePoint, PriceSource, RoundCache } from './price-source.js';

/**
 * The USD price of any native coin at any times (issue 22): each coin's feed of the table, read
 * over the RPC of the chain that carries it, built on first use and shared by every wallet, with
 * its rounds in one cache. A coin with no feed, or whose feed's chain has no RPC here, has no
 * price (null), never an error: history goes out without USD figures rather than not at all.
 */
export interface PriceServiceOptions {
  /** Coin (native symbol) to feed: feeds.ts's table with the operator's overrides. */
  feeds: Readonly<Record<string, FeedEntry>>;
  /** The RPC URL of a chain by slug (RPC_URL_<SLUG> or its default), undefined when not served. */
  rpcUrlOf(chain: string): string | undefined;
  rounds: RoundCache;
  /** The transport of a feed's chain (tests, shared limits); a plain one by default. */
  transportFor?: (url: string, chain: string) => RpcTransport;
  now?: () => number;
  /**
   * Read rounds from the aggregators' AnswerUpdated logs where the RPC serves them (default true);
   * false: getRoundData bisection alone.
   */
  logs?: boolean;
  /** The feed chain's getLogs range: RPC_LOGS_RANGE_<SLUG> when set. */
  logsRangeOf?(chain: string): number | undefined;
  /** Where a provider's learned getLogs range is kept (shared with the EVM walks of that chain). */
  hints?: ChainKeyedCache<number>;
  /** PRICE_SOURCE=candles: every coin from a public exchange's one-minute candles instead of the feeds. */
  candles?: { baseUrl: string; fetch?: typeof fetch };
}

export interface PriceService {
  /** The price of `coin` in force at each time (unix seconds), in order; all null when it has no feed here. */
  pricesAt(coin: string, times: readonly number[], signal?: AbortSignal): Promise<(PricePoint | null)[]>;
}

export function createPriceService(o: PriceServiceOptions): PriceService {
  const sources = new Map<string, PriceSource | null>();
  const transportFor = o.transportFor ?? ((url: string) => createRpcTransport({ url }));
  function sourceOf(coin: string): PriceSource | null {
    if (sources.has(coin)) return sources.get(coin)!;
    if (o.candles) {
      const candles = createCandleSource({ coin, baseUrl: o.candles.baseUrl, fetch: o.candles.fetch, rounds: o.rounds });
      sources.set(coin, candles);
      return candles;
    }
    const feed = o.feeds[coin];
    const url = feed ? o.rpcUrlOf(feed.chain) : undefined;
    const transport = feed && url ? transportFor(url, feed.chain) : null;
    const source =
      feed && transport
        ? createChainlinkFeed({
            coin,
            transport,
            logs:
              o.logs === false
                ? undefined
                : createRoundLogs({
                    transport,
                    // Its own learned range: a refusal of the feed's address-list filter must not shrink the chain's walks.
                    chain: `${feed.chain}#prices`,
                    logsRange: o.logsRangeOf?.(feed.chain),
                    hints: o.hints,
                  }),
            proxy: feed.proxy,
            heartbeatSeconds: feed.heartbeatSeconds,
            rounds: o.rounds,
            feedKey: `${feed.chain}:${feed.proxy.toLowerCase()}`,
            now: o.now,
          })
        : null;
    sources.set(coin, source);
    return source;
  }
  return {
    async pricesAt(coin, times, signal) {
      const source = sourceOf(coin);
      return source ? source.pricesAt(times, signal) : times.map(() => null);
    },
  };
}
