import { createEvmSource } from '../../src/lib/chains/evm/source.js';
import { parseEvmChainsFile } from '../../src/lib/chains/evm/registry.js';
import { createMemoryTokenCache } from '../../src/lib/core/chain-source.js';
import { buildScenario } from '../support/anvil/scenario.js';

export interface EvmBenchResult {
  /** JSON-RPC calls per trade found (each element of a batch counts). */
  rpcCallsPerTrade: number;
  /** HTTP requests per trade found (batching puts many calls in one). */
  httpRequestsPerTrade: number;
  /** Trades decoded per second of wall time, discovery and receipts included. */
  tradesPerSec: number;
  trades: number;
  calls: number;
  httpRequests: number;
  ms: number;
}

/**
 * Builds the anvil scenario (about 250 trades over more than 20,000 blocks), walks the wallet's
 * whole history with a cold token cache and reports the call budget. Prints nothing.
 */
export async function benchEvm(): Promise<EvmBenchResult> {
  const s = await buildScenario({ erc4337: false });
  try {
    const [chain] = parseEvmChainsFile([s.chainsFileEntry('anvil')]);
    const source = createEvmSource({ chain, rpcUrl: s.rpcUrl, tokens: createMemoryTokenCache() });
    const t0 = performance.now();
    let trades = 0;
    for await (const b of source.history({ wallet: s.wallet })) trades += b.trades.length;
    const ms = performance.now() - t0;
    if (trades !== s.groundTruth.length) throw new Error(`bench walk found ${trades} trades, ground truth has ${s.groundTruth.length}`);
    const { calls, httpRequests } = source.stats;
    return {
      rpcCallsPerTrade: calls / trades,
      httpRequestsPerTrade: httpRequests / trades,
      tradesPerSec: trades / (ms / 1000),
      trades,
      calls,
      httpRequests,
      ms,
    };
  } finally {
    await s.stop();
  }
}

/**
 * The Uniswap V4 / Balancer / mixed-route scenario (tests/support/anvil/scenario-v4.ts, 8 rounds:
 * 152 trades of 15 kinds with liquidity changes and other noise between them), walked cold: the
 * call budget with pool keys looked up once each.
 */
export async function benchEvmV4(): Promise<EvmBenchResult> {
  const { buildV4Scenario } = await import('../support/anvil/scenario-v4.js');
  const s = await buildV4Scenario({ rounds: 8 });
  try {
    const [chain] = parseEvmChainsFile([s.chainsFileEntry('anvil-v4')]);
    const source = createEvmSource({ chain, rpcUrl: s.rpcUrl, tokens: createMemoryTokenCache() });
    const t0 = performance.now();
    let trades = 0;
    for await (const b of source.history({ wallet: s.wallet })) trades += b.trades.length;
    const ms = performance.now() - t0;
    if (trades !== s.groundTruth.length) throw new Error(`bench walk found ${trades} trades, ground truth has ${s.groundTruth.length}`);
    const { calls, httpRequests } = source.stats;
    return {
      rpcCallsPerTrade: calls / trades,
      httpRequestsPerTrade: httpRequests / trades,
      tradesPerSec: trades / (ms / 1000),
      trades,
      calls,
      httpRequests,
      ms,
    };
  } finally {
    await s.stop();
  }
}
