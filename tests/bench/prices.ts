import { createMemoryCache } from '../../src/lib/core/chain-source.js';
import { createChainlinkFeed } from '../../src/lib/prices/chainlink-feed.js';
import { createRoundLogs } from '../../src/lib/prices/chainlink-logs.js';
import { pushTimedRounds } from '../support/anvil/chainlink/timed-rounds.js';
import { createRpcTransport } from '../../src/lib/rpc/json-rpc.js';
import { createStoreRoundCache } from '../../src/lib/server/store/price-rounds.js';
import { startAnvil } from '../support/anvil/anvil.js';
import { deployFeed, FEED_DEPLOYER, feedContracts } from '../support/anvil/chainlink/deploy-feed.js';
import { openMemoryDatabase } from '../support/test-server.js';

/**
 * Pricing a year of trades (issue 22): a feed on anvil with one round an hour for a year (8,760
 * rounds, Feeds.sol), each mined in a block of its own at its update time as real rounds are, and
 * 10,000 trade times spread over it, priced through the store's round cache, two ways: from the
 * aggregators' AnswerUpdated logs (targets: at most 50 requests) and by getRoundData bisection
 * alone, as where the RPC serves no logs (at most one per 100 trades). For each, the HTTP requests
 * of the first wallet, of a second wallet over the same span in the same process (target: none),
 * and of the same in a new process on the same store (the feed's bounds).
 */
export interface PricesWay {
  firstRequests: number;
  firstMs: number;
  secondRequests: number;
  newProcessRequests: number;
}

export interface PricesBench {
  rounds: number;
  trades: number;
  logs: PricesWay;
  bisection: PricesWay;
}

const H = 3600;

export async function benchPrices(log: (line: string) => void): Promise<PricesBench> {
  const rounds = 8760;
  const start = 1_700_000_000;
  const anvil = await startAnvil({ args: ['--timestamp', String(start - 86_400)] });
  try {
    const { proxy, aggregator } = await deployFeed(anvil.url);
    log(`prices: mining ${rounds} hourly rounds on anvil, one block each...`);
    const series = Array.from({ length: rounds }, (_, k) => ({ answer: BigInt(2000 + (k % 500)) * 100_000_000n, time: start + k * H }));
    await pushTimedRounds(anvil.url, FEED_DEPLOYER, aggregator, feedContracts().TestAggregator, series);
    let seed = 5;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const year = () => Array.from({ length: 10_000 }, () => start + Math.floor(rand() * (rounds - 1) * H));
    const now = () => (start + rounds * H) * 1000;

    async function way(logs: boolean): Promise<PricesWay> {
      const db = await openMemoryDatabase();
      try {
        const cache = createStoreRoundCache(db);
        const hints = createMemoryCache<number>();
        const process = () => {
          const transport = createRpcTransport({ url: anvil.url });
          const feed = createChainlinkFeed({
            coin: 'ETH',
            transport,
            proxy,
            heartbeatSeconds: H,
            rounds: cache,
            feedKey: `anvil:${proxy}`,
            now,
            logs: logs ? createRoundLogs({ transport, chain: 'anvil', hints }) : undefined,
          });
          return { transport, feed };
        };
        const p = process();
        const t0 = performance.now();
        const times = year();
        const first = await p.feed.pricesAt(times);
        const firstMs = performance.now() - t0;
        if (first.some((x) => x === null)) {
          const bad = times.filter((_, i) => first[i] === null);
          throw new Error(`${bad.length} trades inside the feed got no price, e.g. at ${bad.slice(0, 3).join(', ')}`);
        }
        const firstRequests = p.transport.stats.httpRequests;
        await p.feed.pricesAt(year());
        const secondRequests = p.transport.stats.httpRequests - firstRequests;
        const fresh = process();
        await fresh.feed.pricesAt(year());
        return { firstRequests, firstMs, secondRequests, newProcessRequests: fresh.transport.stats.httpRequests };
      } finally {
        await db.close();
      }
    }
    return { rounds, trades: 10_000, logs: await way(true), bisection: await way(false) };
  } finally {
    await anvil.stop();
  }
}
