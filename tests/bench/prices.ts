import { createChainlinkFeed } from '../../src/lib/prices/chainlink-feed.js';
import { createRpcTransport } from '../../src/lib/rpc/json-rpc.js';
import { createStoreRoundCache } from '../../src/lib/server/store/price-rounds.js';
import { startAnvil } from '../support/anvil/anvil.js';
import { compileSolidity } from '../support/anvil/compile.js';
import { createChainDriver } from '../support/anvil/contracts.js';
import { openMemoryDatabase } from '../support/test-server.js';

/**
 * Pricing a year of trades (issue 22): a feed on anvil with one round an hour for a year (8,760
 * rounds, Feeds.sol), 10,000 trade times spread over it, priced through the store's round cache.
 * Counts the HTTP requests of the first wallet (target: at most one per 100 trades where logs are
 * not served), of a second wallet over the same span in the same process (target: none), and of
 * the same in a new process on the same store (the feed's bounds only).
 */
export interface PricesBench {
  rounds: number;
  trades: number;
  firstRequests: number;
  firstMs: number;
  secondRequests: number;
  newProcessRequests: number;
}

const DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const H = 3600;

export async function benchPrices(log: (line: string) => void): Promise<PricesBench> {
  const anvil = await startAnvil();
  const db = await openMemoryDatabase();
  try {
    const d = createChainDriver(anvil.url);
    const c = compileSolidity(new URL('../support/anvil/chainlink/Feeds.sol', import.meta.url));
    const proxy = await d.deploy(DEPLOYER, c.TestFeedProxy);
    const agg = await d.deploy(DEPLOYER, c.TestAggregator, [8, 'ETH / USD', false]);
    await d.send(DEPLOYER, proxy, c.TestFeedProxy, 'setAggregator', [agg]);
    const rounds = 8760;
    const start = 1_700_000_000;
    log(`prices: pushing ${rounds} hourly rounds to a feed on anvil...`);
    for (let from = 0; from < rounds; from += 250) {
      const ks = Array.from({ length: Math.min(250, rounds - from) }, (_, i) => from + i);
      await d.send(
        DEPLOYER,
        agg,
        c.TestAggregator,
        'push',
        [ks.map((k) => BigInt(2000 + (k % 500)) * 100_000_000n), ks.map((k) => BigInt(start + k * H))],
        0n,
        25_000_000n,
      );
    }
    let seed = 5;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const year = () => Array.from({ length: 10_000 }, () => start + Math.floor(rand() * (rounds - 1) * H));
    const cache = createStoreRoundCache(db);
    const now = () => (start + rounds * H) * 1000;
    const transport = createRpcTransport({ url: anvil.url });
    const feed = createChainlinkFeed({ coin: 'ETH', transport, proxy, heartbeatSeconds: H, rounds: cache, feedKey: `anvil:${proxy}`, now });
    const t0 = performance.now();
    const first = await feed.pricesAt(year());
    const firstMs = performance.now() - t0;
    if (first.some((p) => p === null)) throw new Error('a trade inside the feed got no price');
    const firstRequests = transport.stats.httpRequests;
    await feed.pricesAt(year());
    const secondRequests = transport.stats.httpRequests - firstRequests;
    const fresh = createRpcTransport({ url: anvil.url });
    await createChainlinkFeed({ coin: 'ETH', transport: fresh, proxy, heartbeatSeconds: H, rounds: cache, feedKey: `anvil:${proxy}`, now }).pricesAt(year());
    return { rounds, trades: 10_000, firstRequests, firstMs, secondRequests, newProcessRequests: fresh.stats.httpRequests };
  } finally {
    await db.close();
    await anvil.stop();
  }
}
