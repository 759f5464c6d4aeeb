import { startAnvil } from '../support/anvil/anvil.js';
import { pushTimedRounds } from '../support/anvil/chainlink/timed-rounds.js';
import { deployFeed, FEED_DEPLOYER, feedContracts } from '../support/anvil/chainlink/deploy-feed.js';
import { createScriptedSource } from '../support/scripted-source.js';
import { randomWallet, startTestServer, TEST_KEY } from '../support/test-server.js';

/**
 * include=usd on a stored wallet (issue 22): how long the first line of a stream takes with it,
 * against without it. Target: no later than without it plus PRICE_WAIT_MS. The wallet (2,000
 * scripted transactions a minute apart) is stored first; the USD read is the first of the process,
 * so no round is known yet and the feed (hourly rounds on anvil) is read then.
 */
const H = 3600;
const T0 = 1_700_000_000;

async function firstLineMs(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${TEST_KEY}` } });
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('\n')) {
    const r = await reader.read();
    if (r.done) break;
    text += new TextDecoder().decode(r.value);
  }
  const ms = performance.now() - t0;
  await reader.cancel();
  return ms;
}

export async function benchUsdFirstLine(log: (line: string) => void): Promise<{ plainMs: number; usdMs: number; waitMs: number }> {
  const anvil = await startAnvil({ args: ['--timestamp', String(T0 - 86_400)] });
  const waitMs = 2000;
  try {
    const { proxy, aggregator } = await deployFeed(anvil.url, { description: 'SOL / USD' });
    const rounds = Array.from({ length: 36 }, (_, k) => ({ answer: BigInt(150 + k) * 100_000_000n, time: T0 - H + k * H }));
    await pushTimedRounds(anvil.url, FEED_DEPLOYER, aggregator, feedContracts().TestAggregator, rounds);
    const source = createScriptedSource({ transactions: 2000, batchSize: 500 });
    const srv = await startTestServer({
      sources: { sol: source },
      env: { PRICE_FEED_SOL: `bsc:${proxy}:${H}`, RPC_URL_BSC: anvil.url, PRICE_WAIT_MS: String(waitMs) },
    });
    try {
      const w = randomWallet();
      log('prices: storing a 2,000-transaction wallet...');
      await (await srv.get(`/v1/wallets/${w}/history`)).text();
      const plain: number[] = [];
      for (let i = 0; i < 5; i++) plain.push(await firstLineMs(`${srv.url}/v1/wallets/${w}/history`));
      const usdMs = await firstLineMs(`${srv.url}/v1/wallets/${w}/history?include=usd`);
      plain.sort((a, b) => a - b);
      return { plainMs: plain[2], usdMs, waitMs };
    } finally {
      await srv.close();
    }
  } finally {
    await anvil.stop();
  }
}
