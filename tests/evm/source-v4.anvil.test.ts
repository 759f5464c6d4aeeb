import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawTradesText, startTestServer, type TestServer } from '../support/test-server.js';
import { serializeTrade } from '../../src/lib/core/trade.js';
import { createEvmSource } from '../../src/lib/chains/evm/source.js';
import { parseEvmChainsFile, type EvmChainConfig } from '../../src/lib/chains/evm/registry.js';
import { createMemoryTokenCache } from '../../src/lib/core/chain-source.js';
import { createMemoryPoolKeyCache, type PoolKeyCache } from '../../src/lib/chains/evm/decode/pool-key.js';
import type { SourceTrade } from '../../src/lib/core/trade.js';
import { startLimitingProxy } from '../support/anvil/limiting-proxy.js';
import { buildV4Scenario, type V4GroundTruthTrade, type V4Scenario } from '../support/anvil/scenario-v4.js';
import { SETTLER_REGISTRY } from '../../src/lib/chains/evm/enrich/settler-registry.js';

/**
 * The EVM source against Uniswap V4 (v4-core 1.0.2's PoolManager), an unknown V4 fork and
 * Balancer V2's Vault, deployed on anvil from their npm artifacts. Ground truth from balances.
 */
// 28 wallet trades a round (and 2 of the ERC-4337 account, 2 of the Safe, 3 of the EIP-7702
// account): 6 rounds give 168 of the EOA and 210 in all; issue 11's scenario asks for at least 150.
const ROUNDS = Number(process.env.V4_ROUNDS ?? 6);
let s: V4Scenario;
let chain: EvmChainConfig;

const strip = (t: V4GroundTruthTrade): SourceTrade => {
  const { kind: _kind, amountSolWithoutTraces: _w, ...rest } = t;
  return rest;
};
/** What a source without call traces gives: the Swap event's figure for a hook that said nothing. */
const withoutTraces = (t: V4GroundTruthTrade): SourceTrade => ({ ...strip(t), amountSol: t.amountSolWithoutTraces ?? t.amountSol });

beforeAll(async () => {
  s = await buildV4Scenario({ rounds: ROUNDS });
  [chain] = parseEvmChainsFile([s.chainsFileEntry('anvil-v4')]);
}, 150_000);

afterAll(async () => {
  await s?.stop();
});

describe('Uniswap V4 and Balancer V2 through the EVM source', () => {
  it('finds every trade of the wallet exactly as the balances say, and nothing else', async () => {
    const source = createEvmSource({ chain, rpcUrl: s.rpcUrl, tokens: createMemoryTokenCache() });
    const trades: SourceTrade[] = [];
    for await (const b of source.history({ wallet: s.wallet })) trades.push(...b.trades);
    expect(new Set(s.groundTruth.map((t) => t.kind)).size).toBe(24);
    expect(s.groundTruth.length).toBe(ROUNDS * 28);
    expect(trades).toEqual(s.groundTruth.map(strip));
    expect(s.nonTrades['others-swap-paying-wallet']).toBeGreaterThan(0);
  });

  it('gives a Safe the V4 swaps its owner executed through it, and an EIP-7702 account those a relayer sent to its address', async () => {
    const walk = async (wallet: string) => {
      const source = createEvmSource({ chain, rpcUrl: s.rpcUrl, tokens: createMemoryTokenCache() });
      const trades: SourceTrade[] = [];
      for await (const b of source.history({ wallet })) trades.push(...b.trades);
      return trades;
    };
    expect(s.safeGroundTruth.map((t) => t.kind)).toEqual(Array.from({ length: ROUNDS }, () => ['safe-v4-sell', 'safe-v4-buy']).flat());
    expect(await walk(s.safeWallet)).toEqual(s.safeGroundTruth.map(strip));
    // Two legs per token-to-token route: 3 trades a round.
    expect(s.delegatedGroundTruth.length).toBe(3 * ROUNDS);
    expect(await walk(s.delegatedWallet)).toEqual(s.delegatedGroundTruth.map(strip));
  });

  it('gives the ERC-4337 account its bundled V4 swaps (the bundler sent them)', async () => {
    const source = createEvmSource({ chain, rpcUrl: s.rpcUrl, tokens: createMemoryTokenCache() });
    const trades: SourceTrade[] = [];
    for await (const b of source.history({ wallet: s.aaWallet })) trades.push(...b.trades);
    expect(s.aaGroundTruth.map((t) => t.kind)).toEqual(Array.from({ length: ROUNDS }, () => ['aa-v4-sell', 'aa-v4-buy']).flat());
    expect(trades).toEqual(s.aaGroundTruth.map(strip));
  });

  it('gives the same trades through a proxy that refuses ranges over 100 blocks and answers over 40 logs (log-scan discovery)', async () => {
    // The densest 100 blocks hold 49 of the wallet's Transfer logs (52 before the treasury hook's
    // trades moved the blocks): 40 keeps both kinds of refusal in play.
    const proxy = await startLimitingProxy(s.rpcUrl, { maxRange: 100, maxResults: 40, ots: 'hidden' });
    try {
      for (const [wallet, truth] of [
        [s.wallet, s.groundTruth],
        [s.aaWallet, s.aaGroundTruth],
      ] as const) {
        const source = createEvmSource({ chain, rpcUrl: proxy.url, tokens: createMemoryTokenCache(), discovery: 'logs' });
        const trades: SourceTrade[] = [];
        for await (const b of source.history({ wallet })) trades.push(...b.trades);
        expect(trades).toEqual(truth.map(strip));
      }
      expect(proxy.refusals.range).toBeGreaterThan(0);
      expect(proxy.refusals.results).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
  });

  it('reads a call trace only for a hook that may move the amounts and said nothing; without traces, the Swap figure', async () => {
    // Two hooks that say nothing: one keeps its ETH fee, one sends it to a treasury.
    const silent = s.groundTruth.filter((t) => t.kind.startsWith('v4-silent-hook') || t.kind.startsWith('v4-treasury-hook'));
    // The silent hooks' fees are in ETH, so their trades' figures differ from the Swap event's.
    expect(silent.length).toBe(4 * ROUNDS);
    for (const t of silent) expect(t.amountSolWithoutTraces).not.toBe(t.amountSol);
    const traced = await startLimitingProxy(s.rpcUrl, { maxRange: 1e9, maxResults: 1e9 });
    const untraced = await startLimitingProxy(s.rpcUrl, { maxRange: 1e9, maxResults: 1e9, debug: 'hidden' });
    try {
      const walk = async (source: ReturnType<typeof createEvmSource>) => {
        const trades: SourceTrade[] = [];
        for await (const b of source.history({ wallet: s.wallet })) trades.push(...b.trades);
        return trades;
      };
      const lines: string[] = [];
      const sourceOn = (url: string) => createEvmSource({ chain, rpcUrl: url, tokens: createMemoryTokenCache(), log: (l) => lines.push(l) });
      expect(await walk(sourceOn(traced.url))).toEqual(s.groundTruth.map(strip));
      // One trace per silent-hook transaction, none for the announced hooks or plain pools.
      expect(traced.seen.debug).toBe(silent.length);
      expect(lines.filter((l) => l.includes('debug_traceTransaction'))).toEqual([]);
      const noTraces = sourceOn(untraced.url);
      expect(await walk(noTraces)).toEqual(s.groundTruth.map(withoutTraces));
      // Refused in the first batch that asked; this source does not ask again, and says so once.
      const asked = untraced.seen.debug;
      expect(asked).toBeGreaterThan(0);
      expect(asked).toBeLessThan(silent.length);
      expect(await walk(noTraces)).toEqual(s.groundTruth.map(withoutTraces));
      expect(untraced.seen.debug).toBe(asked);
      expect(lines.filter((l) => l.includes('debug_traceTransaction'))).toEqual([
        expect.stringContaining('anvil-v4: the RPC does not serve debug_traceTransaction'),
      ]);
      // Another source on the same node (a restart, another instance) asks for itself.
      await walk(sourceOn(untraced.url));
      expect(untraced.seen.debug).toBeGreaterThan(asked);
    } finally {
      await traced.close();
      await untraced.close();
    }
  });

  it.each([
    ['a tracer timeout', { code: -32000, message: 'execution timeout' }],
    ['a node behind the one that served the receipt', { code: -32000, message: 'transaction not found' }],
  ])('a trace refused with a transient error (%s) is asked again: the traced figures, not the Swap event’s', async (_what, error) => {
    const silent = s.groundTruth.filter((t) => t.kind.startsWith('v4-silent-hook') || t.kind.startsWith('v4-treasury-hook'));
    // The first three traces asked are refused, then the node serves them.
    const flaky = await startLimitingProxy(s.rpcUrl, { maxRange: 1e9, maxResults: 1e9, debug: { failFirst: 3, error } });
    try {
      const source = createEvmSource({ chain, rpcUrl: flaky.url, tokens: createMemoryTokenCache() });
      const trades: SourceTrade[] = [];
      for await (const b of source.history({ wallet: s.wallet })) trades.push(...b.trades);
      expect(trades).toEqual(s.groundTruth.map(strip));
      expect(flaky.seen.debug).toBe(silent.length + 3);
    } finally {
      await flaky.close();
    }
  });

  it('looks each V4 pool key up once (poolKeys of the PositionManager, else the Initialize log), then reads the cache', async () => {
    // What the source asks the node, read off the wire.
    const asked: string[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const body = JSON.parse(String(init?.body)) as Array<{ method: string; params: any[] }> | { method: string; params: any[] };
      for (const r of Array.isArray(body) ? body : [body]) {
        if (r.method === 'eth_call' && String(r.params[0].data).startsWith('0x86b6be7d')) asked.push('poolKeys');
        if (r.method === 'eth_getLogs' && r.params[0].address === SETTLER_REGISTRY) asked.push('settler-registry');
        else if (r.method === 'eth_getLogs' && r.params[0].address) asked.push('initialize-log');
      }
      return fetch(input, init);
    };
    const inner = createMemoryPoolKeyCache();
    const puts: string[] = [];
    const cache: PoolKeyCache = {
      get: (c, ids) => inner.get(c, ids),
      put: async (c, entries) => {
        puts.push(...entries.keys());
        await inner.put(c, entries);
      },
    };
    for (let i = 0; i < 2; i++) {
      const source = createEvmSource({ chain, rpcUrl: s.rpcUrl, tokens: createMemoryTokenCache(), poolKeys: cache, fetch: recordingFetch });
      const trades: SourceTrade[] = [];
      for await (const b of source.history({ wallet: s.wallet })) trades.push(...b.trades);
      expect(trades).toEqual(s.groundTruth.map(strip));
    }
    // ETH/ALP, ETH/BRV, ALP/BRV and the four hooked ETH pools on the PoolManager, ETH/CHR on
    // the fork: eight pools, eight lookups.
    expect(puts.length).toBe(8);
    // ETH/ALP has a position (poolKeys answers); the six others have none, and the fork's
    // manager has no PositionManager configured: their Initialize logs. Nothing on the second walk
    // but 0x's Settler registry, read once by each walk's new source (its read kept in memory).
    expect(asked.sort()).toEqual([...Array(7).fill('initialize-log'), ...Array(7).fill('poolKeys'), 'settler-registry', 'settler-registry']);
    expect(new Set(puts).size).toBe(8);
    const keys = await inner.get(chain.slug, puts);
    expect([...keys.values()].filter((k) => k.currency0 === '0x0000000000000000000000000000000000000000').length).toBe(7);
    // The hooked pools' keys carry their hooks.
    expect(new Set([...keys.values()].map((k) => k.hooks))).toEqual(
      new Set([
        '0x0000000000000000000000000000000000000000',
        '0x1111000000000000000000000000000000000044',
        '0x2222000000000000000000000000000000000088',
        '0x3333000000000000000000000000000000000044',
        '0x4444000000000000000000000000000000000044',
      ]),
    );
  });
});

describe('through the HTTP endpoint (the V4 and Balancer venues from EVM_CHAINS_FILE)', () => {
  let srv: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wth-evm-v4-'));
    const file = join(dir, 'chains.json');
    writeFileSync(file, JSON.stringify([s.chainsFileEntry('devnet4')]));
    srv = await startTestServer({ sources: 'default', env: { EVM_CHAINS_FILE: file } });
  });
  afterAll(async () => {
    await srv?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const exact = (ts: V4GroundTruthTrade[]) =>
    ts.map((t) => {
      const { kind: _k, position: _p, leg: _l, ...trade } = t;
      return serializeTrade(trade);
    });

  it('streams the wallet exactly as the ground truth', async () => {
    const lines = (await (await srv.get(`/v1/wallets/${s.wallet}/history?chain=devnet4`)).text()).split('\n').filter(Boolean);
    const final = JSON.parse(lines.at(-1)!);
    expect(final).toMatchObject({ complete: true, tradeCount: s.groundTruth.length });
    expect(lines.slice(0, -1).map(rawTradesText).filter(Boolean).join(',')).toBe(exact(s.groundTruth).join(','));
  });

  async function pages(wallet: string, limit: number): Promise<string> {
    const got: string[] = [];
    let cursor = '';
    let last: any;
    for (let i = 0; i < 200; i++) {
      const body = await (await srv.get(`/v1/wallets/${wallet}/history?chain=devnet4&limit=${limit}${cursor}`)).text();
      last = JSON.parse(body);
      const t = rawTradesText(body);
      if (t) got.push(t);
      if (!last.cursor) break;
      cursor = `&cursor=${encodeURIComponent(last.cursor)}`;
    }
    expect(last).toMatchObject({ complete: true });
    return got.join(',');
  }

  it('pages the wallet (limit 25) and the ERC-4337 account (limit 3) exactly as the ground truth', async () => {
    expect(await pages(s.wallet, 25)).toBe(exact(s.groundTruth).join(','));
    expect(await pages(s.aaWallet, 3)).toBe(exact(s.aaGroundTruth).join(','));
  });
});
