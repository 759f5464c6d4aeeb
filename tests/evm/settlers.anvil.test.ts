import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmSource, type EvmSource } from '../../src/lib/chains/evm/source.js';
import { parseEvmChainsFile, type EvmChainConfig } from '../../src/lib/chains/evm/registry.js';
import { SETTLER_REGISTRY } from '../../src/lib/chains/evm/enrich/settler-registry.js';
import type { SettlerRegistryRead } from '../../src/lib/chains/evm/enrich/settler-kind.js';
import { createMemoryCache, createMemoryTokenCache, type HistoryBatch } from '../../src/lib/core/chain-source.js';
import type { SourceTrade } from '../../src/lib/core/trade.js';
import { buildScenario, type GroundTruthTrade, type Scenario, type TradeKind } from '../support/anvil/scenario.js';
import { placeSettlerRegistry } from '../support/anvil/settlers/registry.js';

/**
 * 0x's Settlers through the EVM source on anvil: the registry's code (a stub emitting the real
 * registry's Transfers) at its real address names the scenario's V2 router a Settler; the trades
 * sent to it are `0x`, and the registry's logs are read once per walk, counted off the wire.
 */

let s: Scenario;
let chain: EvmChainConfig;
let registry: Awaited<ReturnType<typeof placeSettlerRegistry>>;
/** The scenario's trades and the one made after the registry named the router, newest first. */
let truth: GroundTruthTrade[];
/** The block of the registry's Transfer naming the router. */
let named: number;

/** The kinds the scenario sends to its V2 router (the aggregator test in source.anvil.test.ts lists the same). */
const VIA_ROUTER = new Set<TradeKind>([
  'v2-buy-exact-in',
  'v2-buy-exact-out-refund',
  'v2-sell-exact-in',
  'v2-sell-exact-out',
  'token-to-token-direct',
  'token-to-token-via-weth',
  'fot-buy',
  'fot-sell',
]);
const expected = (ts: GroundTruthTrade[]): SourceTrade[] =>
  ts.map((t) => {
    const { kind, ...rest } = t;
    return { ...rest, dex: VIA_ROUTER.has(kind) ? '0x' : t.dex };
  });

/** eth_getLogs calls of the registry, read off the wire. */
const registryReads: Array<{ fromBlock: string; toBlock: string }> = [];
const recordingFetch: typeof fetch = async (input, init) => {
  const body = JSON.parse(String(init?.body)) as any;
  for (const r of Array.isArray(body) ? body : [body]) {
    if (r.method === 'eth_getLogs' && r.params[0].address === SETTLER_REGISTRY) registryReads.push(r.params[0]);
  }
  return fetch(input, init);
};

async function walk(source: EvmSource, until?: string) {
  const batches: HistoryBatch[] = [];
  for await (const b of source.history({ wallet: s.wallet, until })) batches.push(b);
  return { batches, trades: batches.flatMap((b) => b.trades) };
}

beforeAll(async () => {
  s = await buildScenario({ chainId: 31341, rounds: 2, gapBlocks: 30, clusterSize: 1, erc4337: false });
  [chain] = parseEvmChainsFile([s.chainsFileEntry('anvil-0x')]);
  registry = await placeSettlerRegistry(s.rpcUrl);
  // The router becomes feature 2's Settler, then the wallet trades once more (a Settler is named
  // before it is used); two blocks put that trade below the confirmation point.
  named = Number(BigInt((await registry.name('0x0000000000000000000000000000000000000000', s.addresses.v2Router)).blockNumber));
  truth = [await s.extraBuy(), ...s.groundTruth];
  await s.mine(2);
}, 150_000);

afterAll(async () => {
  await s?.stop();
});

describe("0x's Settlers on anvil", () => {
  const settlers = createMemoryCache<SettlerRegistryRead>();
  let firstHead: string;

  it('gives 0x to the trades sent to a Settler the registry names, reading the registry once in the walk', async () => {
    const source = createEvmSource({ chain, rpcUrl: s.rpcUrl, tokens: createMemoryTokenCache(), settlers, fetch: recordingFetch, otsPageSize: 10 });
    const { batches, trades } = await walk(source);
    // Pages of 10 transactions: several batches, one read.
    expect(batches.length).toBeGreaterThan(2);
    expect(trades).toEqual(expected(truth));
    expect(trades.filter((t) => t.dex === '0x').length).toBeGreaterThanOrEqual(10);
    // One read, from block 0 to the walk's newest transaction (the extra buy).
    const newest = Number(truth[0].position.slice(0, 12));
    expect(registryReads.map((f) => [Number(f.fromBlock), Number(f.toBlock)])).toEqual([[0, newest]]);
    expect(newest).toBeGreaterThan(named);
    expect((await settlers.get(chain.slug, ['registry'])).get('registry')).toEqual({ through: newest, instances: [s.addresses.v2Router], whole: true });
    firstHead = batches[0].head!;
  });

  it('a restart (a new source on the same store) reads nothing more while no newer transaction comes', async () => {
    const source = createEvmSource({ chain, rpcUrl: s.rpcUrl, tokens: createMemoryTokenCache(), settlers, fetch: recordingFetch, otsPageSize: 10 });
    expect((await walk(source)).trades).toEqual(expected(truth));
    expect(registryReads.length).toBe(1);
  });

  it('a refresh with a newer trade reads once more, only the blocks after the last read; a Settler named meanwhile is kept', async () => {
    const later = '0x' + 'c3'.repeat(20);
    await registry.name(s.addresses.v2Router, later);
    const extra = await s.extraBuy();
    await s.mine(2);
    const source = createEvmSource({ chain, rpcUrl: s.rpcUrl, tokens: createMemoryTokenCache(), settlers, fetch: recordingFetch, otsPageSize: 10 });
    const { trades } = await walk(source, firstHead);
    expect(trades).toEqual(expected([extra]));
    const before = Number(truth[0].position.slice(0, 12));
    const newest = Number(extra.position.slice(0, 12));
    expect(registryReads.slice(1).map((f) => [Number(f.fromBlock), Number(f.toBlock)])).toEqual([[before + 1, newest]]);
    expect((await settlers.get(chain.slug, ['registry'])).get('registry')).toEqual({ through: newest, instances: [s.addresses.v2Router, later], whole: true });
  });
});
