import { compileSolidity } from './anvil/compile.js';
import { createChainDriver } from './anvil/contracts.js';

/**
 * USD prices for the demo (issue 22): the demo has no public Ethereum node to read the real feeds
 * from, so it deploys Chainlink-shaped feeds (the test contracts of Feeds.sol: proxy, phases and
 * round ids as Chainlink's) on its local anvil chain, one per coin, with a round an hour over the
 * span of the demo wallets' trades. Their prices are made up (near each coin's late-2024 level,
 * moving a little each hour); the demo says so. Returns the PRICE_FEED_<COIN> settings.
 */
const DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const H = 3600;
/** Made-up USD levels (8 decimals), one per coin. */
const LEVEL: Record<string, bigint> = { SOL: 180_25_000_000n, TRX: 16_120_000n, ETH: 2650_50_000_000n };

export async function deployDemoFeeds(anvilUrl: string, chainSlug: string, timesByCoin: Record<string, number[]>): Promise<Record<string, string>> {
  const d = createChainDriver(anvilUrl);
  const c = compileSolidity(new URL('./anvil/chainlink/Feeds.sol', import.meta.url));
  const env: Record<string, string> = {};
  for (const [coin, times] of Object.entries(timesByCoin)) {
    if (!times.length || !LEVEL[coin]) continue;
    const proxy = await d.deploy(DEPLOYER, c.TestFeedProxy);
    const agg = await d.deploy(DEPLOYER, c.TestAggregator, [8, `${coin} / USD`, false]);
    await d.send(DEPLOYER, proxy, c.TestFeedProxy, 'setAggregator', [agg]);
    const from = Math.floor(Math.min(...times) / H) * H - H;
    const hours = Math.ceil((Math.max(...times) - from) / H) + 1;
    const ks = Array.from({ length: hours }, (_, k) => k);
    // ±0.5 % around the level, a different step each hour.
    const answers = ks.map((k) => LEVEL[coin] + (LEVEL[coin] * BigInt(((k * 37) % 11) - 5)) / 1000n);
    await d.send(DEPLOYER, agg, c.TestAggregator, 'push', [answers, ks.map((k) => BigInt(from + k * H))], 0n, 10_000_000n);
    env[`PRICE_FEED_${coin}`] = `${chainSlug}:${proxy}:${H}`;
  }
  return env;
}
