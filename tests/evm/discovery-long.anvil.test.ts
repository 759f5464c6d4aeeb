import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEvmChainsFile } from '../../src/lib/chains/evm/registry.js';
import { createEvmSource } from '../../src/lib/chains/evm/source.js';
import { createMemoryTokenCache } from '../../src/lib/core/chain-source.js';
import { startLimitingProxy } from '../support/anvil/limiting-proxy.js';
import { buildScenario, type Scenario } from '../support/anvil/scenario.js';
import { startStretchProxy, type StretchProxy } from '../support/anvil/stretch-proxy.js';

/**
 * Every discovery path on a long chain: the scenario's wallet on a real anvil chain served
 * through a proxy that makes each real block r block r×1000 (empty blocks between), with the
 * Otterscan index, without it, and without it behind a 10,000-block getLogs cap. Each path must
 * give the same trades as the ground truth (block numbers aside: they are the proxy's), for the
 * trades spread over the chain and again once the chain is 20 times longer than they are.
 * The request counts at 24,000,000 blocks are the benchmark's (npm run bench, evm-discovery).
 */
const K = 1000;
let s: Scenario;
let stretch: StretchProxy;

beforeAll(async () => {
  s = await buildScenario({ rounds: 2, gapBlocks: 2_000, clusterSize: 1, erc4337: false });
  stretch = await startStretchProxy(s.rpcUrl, K);
}, 120_000);
afterAll(async () => {
  await stretch?.close();
  await s?.stop();
});

const view = (t: {
  signature: string;
  side: string;
  token: string;
  amountSol: string | null;
  amount: string | null;
  dex: string;
  blockTime: string;
  leg: number;
}) => ({
  signature: t.signature,
  side: t.side,
  token: t.token,
  amountSol: t.amountSol,
  amount: t.amount,
  dex: t.dex,
  blockTime: t.blockTime,
  leg: t.leg,
});

async function walkAll(path: 'ots' | 'logs' | 'logs-cap') {
  const front =
    path === 'ots' ? null : await startLimitingProxy(stretch.url, { maxRange: path === 'logs-cap' ? 10_000 : 1e12, maxResults: 1e9, ots: 'hidden' });
  try {
    const [chain] = parseEvmChainsFile([s.chainsFileEntry('long')]);
    const source = createEvmSource({ chain, rpcUrl: front?.url ?? stretch.url, tokens: createMemoryTokenCache() });
    const trades = [];
    for await (const b of source.history({ wallet: s.wallet })) trades.push(...b.trades);
    return { trades, discovery: source.discovery, refused: front ? front.refusals.range + front.refusals.results : 0 };
  } finally {
    await front?.close();
  }
}

describe('discovery on a chain stretched 1,000 times', () => {
  it('gives the ground truth on every path, with the trades spread and then early in the chain', async () => {
    const want = s.groundTruth.map(view);
    expect(want.length).toBeGreaterThanOrEqual(20);
    for (const round of ['spread', 'early']) {
      if (round === 'early') await s.mine(20 * Number(s.groundTruth[0].position.slice(0, 12)));
      for (const path of ['ots', 'logs', 'logs-cap'] as const) {
        const r = await walkAll(path);
        expect(r.trades.map(view), `${round} ${path}`).toEqual(want);
        expect(r.discovery).toBe(path === 'ots' ? 'ots' : 'logs');
        // Positions are the stretched chain's: each real block r is r×K.
        expect(r.trades.map((t) => Number(t.position.slice(0, 12)) / K)).toEqual(s.groundTruth.map((t) => Number(t.position.slice(0, 12))));
        if (path === 'logs-cap') expect(r.refused).toBeLessThanOrEqual(2);
      }
    }
    // Six walks of a chain 1,000 times longer on anvil: 43-46 s alone on 2 cores, past the
    // suite's 60 s when other files share them.
  }, 150_000);
});
