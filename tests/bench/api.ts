import { performance } from 'node:perf_hooks';
import { createScriptedSource, type ScriptedSource } from '../support/scripted-source.js';
import { randomWallet, startTestServer, TEST_KEY } from '../support/test-server.js';
import { drainStream } from './stream-client.js';

export interface ApiBenchResult {
  backend: 'pglite' | 'postgres';
  pageP50Ms: number;
  pageP99Ms: number;
  streamTradesPerSec: number;
  /** RSS growth while streaming the 1,000,000-trade wallet, MB, and the RSS it grew from. */
  rssGrowthMb: number;
  rssBaseMb: number;
  bigWalletTrades: number;
  loadTradesPerSec: number;
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/**
 * Stores a 100,000-trade and a 1,000,000-trade wallet through the real loader, then measures over
 * HTTP: 1,000-row pages (p50, p99), a full stream of the first (trades/s), and the RSS growth
 * while streaming the second.
 */
export async function benchApi(backend: 'pglite' | 'postgres', log: (s: string) => void = () => {}): Promise<ApiBenchResult> {
  const sources = new Map<string, ScriptedSource>();
  const srv = await startTestServer({
    backend,
    sources: { sol: { chain: 'sol', history: (p) => sources.get(p.wallet)!.history(p) } },
    env: { STREAM_MAX_SECONDS: '600', RATE_LIMIT_PER_MINUTE: '0' },
  });
  try {
    // Transactions are 1 or 2 trades (one in seven is token-to-token): 87,500 tx give ~100,000 trades.
    const mid = randomWallet();
    const big = randomWallet();
    sources.set(mid, createScriptedSource({ transactions: 87_500, batchSize: 5_000 }));
    sources.set(big, createScriptedSource({ transactions: 875_000, batchSize: 5_000 }));
    const tLoad = performance.now();
    const loadedMid = await drainStream(`${srv.url}/v1/wallets/${mid}/history`);
    log(`  loaded ${loadedMid.trades} trades through the loader`);
    const loadedBig = await drainStream(`${srv.url}/v1/wallets/${big}/history`);
    const loadTradesPerSec = (loadedMid.trades + loadedBig.trades) / ((performance.now() - tLoad) / 1000);
    log(`  loaded ${loadedBig.trades} trades through the loader (${Math.round(loadTradesPerSec)} trades/s)`);

    // Pages: walk 1,000-row pages from the top, timing each request to its last byte.
    const times: number[] = [];
    let cursor = '';
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      const res = await fetch(`${srv.url}/v1/wallets/${mid}/history?limit=1000${cursor}`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
      const body = await res.text();
      times.push(performance.now() - t0);
      const c = /"cursor":"([^"]+)"/.exec(body.slice(0, 600))?.[1];
      if (!c) break;
      cursor = `&cursor=${c}`;
    }
    // Full stream of the stored 100,000-trade wallet (best of 3: the first warms caches).
    let best = Infinity;
    let streamed = 0;
    for (let i = 0; i < 3; i++) {
      const r = await drainStream(`${srv.url}/v1/wallets/${mid}/history`);
      streamed = r.trades;
      best = Math.min(best, r.ms);
    }
    // RSS while streaming 1,000,000 stored trades.
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const bigRun = await drainStream(`${srv.url}/v1/wallets/${big}/history`);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    return {
      backend,
      pageP50Ms: percentile(times, 50),
      pageP99Ms: percentile(times, 99),
      streamTradesPerSec: streamed / (best / 1000),
      rssGrowthMb: (peak - base) / 2 ** 20,
      rssBaseMb: base / 2 ** 20,
      bigWalletTrades: bigRun.trades,
      loadTradesPerSec,
    };
  } finally {
    await srv.close();
  }
}
