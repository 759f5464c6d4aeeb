/**
 * EVM discovery on a chain as long as Ethereum's: the anvil scenario's wallet (2 rounds, about
 * 28 trades) served through a proxy that stretches the chain to 24,000,000 blocks (real block r
 * as block r×K), walked cold by the source on each discovery path:
 *  - ots: anvil's Otterscan index;
 *  - logs, no cap: ots hidden, any eth_getLogs range accepted;
 *  - logs, 10,000-block cap: ots hidden, larger ranges refused as providers do.
 * For each: HTTP requests and calls of the whole walk, calls refused, and the time to the first
 * batch with trades in round trips of the latency the proxy adds to every request.
 * Then the same with the wallet's trades all at the chain's beginning (the real chain extended by
 * empty blocks before stretching).
 */
import { parseEvmChainsFile } from '../../src/lib/chains/evm/registry.js';
import { createEvmSource } from '../../src/lib/chains/evm/source.js';
import { createMemoryTokenCache } from '../../src/lib/core/chain-source.js';
import { startLimitingProxy } from '../support/anvil/limiting-proxy.js';
import { buildScenario, type Scenario } from '../support/anvil/scenario.js';
import { startStretchProxy } from '../support/anvil/stretch-proxy.js';

export interface DiscoveryRun {
  path: string;
  trades: number;
  httpRequests: number;
  calls: number;
  refused: number;
  /** Time to the first batch with trades, in round trips of LATENCY_MS (the replay's own work makes it a little more). */
  roundTripsBeforeFirstTrade: number;
  ms: number;
}

const LENGTH = 24_000_000;
/** Added to every HTTP request: time to the first trade batch counts round trips of it. */
const LATENCY_MS = 150;

async function run(s: Scenario, path: 'ots' | 'logs' | 'logs-cap', factor: number): Promise<DiscoveryRun> {
  const stretch = await startStretchProxy(s.rpcUrl, factor, { latencyMs: LATENCY_MS });
  const front =
    path === 'ots' ? null : await startLimitingProxy(stretch.url, { maxRange: path === 'logs-cap' ? 10_000 : 1e12, maxResults: 1e9, ots: 'hidden' });
  try {
    const [chain] = parseEvmChainsFile([s.chainsFileEntry('stretched')]);
    const source = createEvmSource({ chain, rpcUrl: front?.url ?? stretch.url, tokens: createMemoryTokenCache() });
    const t0 = performance.now();
    let trades = 0;
    let firstTradeMs = -1;
    for await (const b of source.history({ wallet: s.wallet })) {
      if (b.trades.length && firstTradeMs < 0) firstTradeMs = performance.now() - t0;
      trades += b.trades.length;
    }
    if (trades !== s.groundTruth.length) throw new Error(`${path}: ${trades} trades, ground truth ${s.groundTruth.length}`);
    if (process.env.BENCH_DEBUG) console.log(path, JSON.stringify(stretch.seen.byMethod));
    return {
      path,
      trades,
      httpRequests: source.stats.httpRequests,
      calls: source.stats.calls,
      refused: front ? front.refusals.range + front.refusals.results : 0,
      roundTripsBeforeFirstTrade: firstTradeMs / LATENCY_MS,
      ms: performance.now() - t0,
    };
  } finally {
    await front?.close();
    await stretch.close();
  }
}

export async function benchEvmDiscovery(): Promise<{ spread: DiscoveryRun[]; early: DiscoveryRun[]; factor: number; realBlocks: number }> {
  const s = await buildScenario({ rounds: 2, gapBlocks: 4_000, clusterSize: 1, erc4337: false });
  try {
    const head = async () =>
      Number(
        BigInt(
          (
            (await (
              await fetch(s.rpcUrl, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
              })
            ).json()) as any
          ).result,
        ),
      );
    const realBlocks = await head();
    const factor = Math.floor(LENGTH / realBlocks);
    const spread = [];
    for (const p of ['ots', 'logs', 'logs-cap'] as const) spread.push(await run(s, p, factor));
    // The same trades, now in the first twentieth of the chain.
    await s.mine(realBlocks * 19);
    const factorEarly = Math.floor(LENGTH / (await head()));
    const early = [];
    for (const p of ['ots', 'logs', 'logs-cap'] as const) early.push(await run(s, p, factorEarly));
    return { spread, early, factor, realBlocks };
  } finally {
    await s.stop();
  }
}
