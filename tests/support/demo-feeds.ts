import { deployFeed } from './anvil/chainlink/deploy-feed.js';

/**
 * USD prices for the demo (issue 22): the demo has no public Ethereum node to read the real feeds
 * from, so it deploys Chainlink-shaped feeds (the test contracts of Feeds.sol: proxy, phases and
 * round ids as Chainlink's) on its local anvil chain, one per coin, with a round an hour over the
 * span of the demo wallets' trades. Their prices are made up (near each coin's late-2024 level,
 * moving a little each hour); the demo says so. Returns the PRICE_FEED_<COIN> settings.
 */
const H = 3600;
/** Made-up USD levels (8 decimals), one per coin. */
const LEVEL: Record<string, bigint> = { SOL: 180_25_000_000n, TRX: 16_120_000n, ETH: 2650_50_000_000n };

export async function deployDemoFeeds(anvilUrl: string, chainSlug: string, timesByCoin: Record<string, number[]>): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const [coin, times] of Object.entries(timesByCoin)) {
    if (!times.length || !LEVEL[coin]) continue;
    const from = Math.floor(Math.min(...times) / H) * H - H;
    const hours = Math.ceil((Math.max(...times) - from) / H) + 1;
    const ks = Array.from({ length: hours }, (_, k) => k);
    // ±0.5 % around the level, a different step each hour.
    const answers = ks.map((k) => LEVEL[coin] + (LEVEL[coin] * BigInt(((k * 37) % 11) - 5)) / 1000n);
    const { proxy } = await deployFeed(anvilUrl, { description: `${coin} / USD`, rounds: ks.map((k) => ({ answer: answers[k], time: from + k * H })) });
    env[`PRICE_FEED_${coin}`] = `${chainSlug}:${proxy}:${H}`;
  }
  return env;
}
