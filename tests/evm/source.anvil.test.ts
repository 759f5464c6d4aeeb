import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawTradesText, startTestServer, type TestServer } from '../support/test-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmSource, type EvmSource } from '../../src/lib/chains/evm/source.js';
import { toChecksumAddress } from '../../src/lib/chains/evm/address.js';
import { BUILT_IN_EVM_CHAINS, mergeEvmChains, parseEvmChainsFile, type EvmChainConfig } from '../../src/lib/chains/evm/registry.js';
import { createMemoryCache, createMemoryTokenCache, type HistoryBatch } from '../../src/lib/core/chain-source.js';
import { serializeTrade, type SourceTrade } from '../../src/lib/core/trade.js';
import { asTrade, buildScenario, type GroundTruthTrade, type Scenario, type TradeKind } from '../support/anvil/scenario.js';
import { startExplorerReplay } from '../support/anvil/explorer-replay.js';
import { startLimitingProxy } from '../support/anvil/limiting-proxy.js';
import { createRpc } from '../support/anvil/anvil.js';

/**
 * The EVM source against real Uniswap V2/V3 contracts on anvil, over real sockets. Ground truth
 * comes from the scenario script's balance changes, never from the logs the source reads.
 */

let main: Scenario;
let second: Scenario;
let chain: EvmChainConfig;
/** Trades made after the build by a test (newest first); later tests expect them too. */
const extras: GroundTruthTrade[] = [];

const strip = (t: GroundTruthTrade): SourceTrade => {
  const { kind: _kind, ...rest } = t;
  return rest;
};

async function walk(source: EvmSource, wallet: string, extra: { before?: string; until?: string; maxBatches?: number } = {}) {
  const batches: HistoryBatch[] = [];
  for await (const b of source.history({ wallet, before: extra.before, until: extra.until })) {
    batches.push(b);
    if (extra.maxBatches && batches.length >= extra.maxBatches) break;
  }
  return { batches, trades: batches.flatMap((b) => b.trades) };
}

beforeAll(async () => {
  // Both chains at once: the second (devnet2) is small, a chain added only by configuration.
  [main, second] = await Promise.all([buildScenario(), buildScenario({ chainId: 31338, rounds: 2, gapBlocks: 30, clusterSize: 1, erc4337: false })]);
  [chain] = parseEvmChainsFile([main.chainsFileEntry('anvil')]);
}, 150_000);

afterAll(async () => {
  await Promise.all([main?.stop(), second?.stop()]);
});

// First, before other tests add trades to the wallet (extraBuy).
describe('through the HTTP endpoint (EVM_CHAINS_FILE, RPC from configuration)', () => {
  let srv: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wth-evm-'));
    // The built-in eth gets this node's factories and WETH (an entry with a built-in slug overrides it); devnet2 is new.
    const file = join(dir, 'chains.json');
    writeFileSync(file, JSON.stringify([main.chainsFileEntry('eth'), second.chainsFileEntry('devnet2')]));
    srv = await startTestServer({ sources: 'default', env: { EVM_CHAINS_FILE: file, RPC_URL_ETH: main.rpcUrl } });
  });
  afterAll(async () => {
    await srv?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const exact = (ts: GroundTruthTrade[]) => ts.map((t) => serializeTrade(asTrade(t)));
  async function streamText(path: string): Promise<{ trades: string[]; final: any }> {
    const lines = (await (await srv.get(path)).text()).split('\n').filter(Boolean);
    const trades = lines.slice(0, -1).flatMap((l) => JSON.parse(l).trades.map((t: any) => t.signature + '/' + t.side));
    expect(new Set(trades).size).toBe(trades.length);
    const text = lines.slice(0, -1).map(rawTradesText).filter(Boolean).join(',');
    return { trades: text ? [text] : [], final: JSON.parse(lines.at(-1)!) };
  }

  it('streams the wallet exactly as the ground truth, and echoes it in EIP-55 form', async () => {
    const { trades, final } = await streamText(`/v1/wallets/${main.wallet}/history?chain=eth`);
    expect(final).toMatchObject({ complete: true, tradeCount: main.groundTruth.length, wallet: toChecksumAddress(main.wallet) });
    expect(trades.join(',')).toBe(exact(main.groundTruth).join(','));
  });

  it('pages the wallet (limit 37) exactly as the ground truth', async () => {
    const got: string[] = [];
    let cursor = '';
    let last: any;
    for (let i = 0; i < 100; i++) {
      const body = await (await srv.get(`/v1/wallets/${main.wallet.toUpperCase().replace('0X', '0x')}/history?chain=eth&limit=37${cursor}`)).text();
      last = JSON.parse(body);
      const t = rawTradesText(body);
      if (t) got.push(t);
      if (!last.cursor) break;
      cursor = `&cursor=${encodeURIComponent(last.cursor)}`;
    }
    expect(last).toMatchObject({ complete: true, totalPages: Math.ceil(main.groundTruth.length / 37) });
    expect(got.join(',')).toBe(exact(main.groundTruth).join(','));
  });

  it('serves the ERC-4337 account its bundled swaps', async () => {
    expect(main.aaWallet).toBeTruthy();
    const { trades, final } = await streamText(`/v1/wallets/${main.aaWallet}/history?chain=eth`);
    expect(final.complete).toBe(true);
    expect(trades.join(',')).toBe(exact(main.aaGroundTruth).join(','));
  });

  it('lists devnet2 in /v1/chains and serves it end to end', async () => {
    const chains = await (await srv.get('/v1/chains', null)).json();
    expect(chains.chains.find((c: any) => c.slug === 'devnet2')).toMatchObject({ family: 'evm', chainId: 31338, nativeSymbol: 'ETH' });
    const { trades, final } = await streamText(`/v1/wallets/${second.wallet}/history?chain=devnet2`);
    expect(final).toMatchObject({ complete: true, tradeCount: second.groundTruth.length });
    expect(trades.join(',')).toBe(exact(second.groundTruth).join(','));
    // The chain's first walk chose its discovery path from what anvil answers (it serves ots_).
    const after = await (await srv.get('/v1/chains', null)).json();
    expect(after.chains.find((c: any) => c.slug === 'devnet2').evm.discovery).toBe('ots');
    expect(after.chains.find((c: any) => c.slug === 'base').evm.discovery).toBeNull();
  });
});

describe('scenario (the ground truth itself)', () => {
  it('has >= 200 swaps, every kind >= 10 times, spread over >= 20,000 blocks, with non-trades interleaved', () => {
    const swaps = new Set(main.groundTruth.map((t) => t.signature));
    expect(swaps.size).toBeGreaterThanOrEqual(200);
    const byKind = new Map<TradeKind, Set<string>>();
    for (const t of [...main.groundTruth, ...main.aaGroundTruth]) byKind.set(t.kind, (byKind.get(t.kind) ?? new Set()).add(t.signature));
    for (const k of [
      'v2-buy-exact-in',
      'v2-buy-exact-out-refund',
      'v2-sell-exact-in',
      'v2-sell-exact-out',
      'token-to-token-direct',
      'token-to-token-via-weth',
      'v3-buy',
      'v3-buy-exact-out-refund',
      'v3-sell-unwrap',
      'v3-multihop-via-weth',
      'fot-buy',
      'fot-sell',
      'fork-buy',
      'aa-buy',
      'aa-sell',
    ] as const) {
      expect(byKind.get(k)?.size ?? 0, k).toBeGreaterThanOrEqual(10);
    }
    const blocks = main.groundTruth.map((t) => Number(t.position.slice(0, 12)));
    expect(Math.max(...blocks) - Math.min(...blocks)).toBeGreaterThanOrEqual(20_000);
    for (const k of [
      'transfer-in',
      'transfer-out',
      'wrap',
      'unwrap',
      'liquidity-add',
      'liquidity-remove',
      'others-swap-to-wallet',
      'failed-swap',
      'eth-transfer',
    ]) {
      expect(main.nonTrades[k] ?? 0, k).toBeGreaterThan(0);
    }
    // The bytes32-symbol token and the fee-on-transfer token are among the traded ones.
    expect(new Set(main.groundTruth.map((t) => t.token))).toEqual(new Set(['ALP', 'BRV', 'CHR', 'DTT', 'UNI-V1']));
  });
});

describe('EVM source on anvil', () => {
  it.each(['logs', 'ots'] as const)('returns exactly the ground truth, newest first, within the call budget (%s path)', async (discovery) => {
    const source = createEvmSource({ chain, rpcUrl: main.rpcUrl, tokens: createMemoryTokenCache(), discovery });
    const { batches, trades } = await walk(source, main.wallet);
    expect(trades).toEqual(main.groundTruth.map(strip));
    // One head marker, on the first batch: the safe block at the start of the walk.
    const safe = await createRpc(main.rpcUrl).call<{ number: string }>('eth_getBlockByNumber', ['safe', false]);
    expect(batches[0].head).toBe(String(Number(BigInt(safe.number))));
    expect(batches.slice(1).every((b) => b.head === undefined)).toBe(true);
    expect(batches.map((b) => b.done)).toEqual([...batches.slice(1).map(() => false), true]);
    expect(batches.at(-1)!.position).toBe('0');
    expect(source.discovery).toBe(discovery);
    // Targets of the issue: <= 1.2 JSON-RPC calls and <= 0.1 HTTP requests per trade.
    expect(source.stats.calls / trades.length).toBeLessThanOrEqual(1.2);
    expect(source.stats.httpRequests / trades.length).toBeLessThanOrEqual(0.1);
  });

  it('shows the swaps an ERC-4337 account made through a bundler as its trades', async () => {
    expect(main.aaWallet).toBeTruthy();
    const source = createEvmSource({ chain, rpcUrl: main.rpcUrl, tokens: createMemoryTokenCache() });
    const { trades } = await walk(source, main.aaWallet!);
    expect(trades).toEqual(main.aaGroundTruth.map(strip));
    expect(trades.length).toBeGreaterThanOrEqual(20);
  });

  it('gives the same result through a proxy that refuses ranges > 1,000 blocks and > 50 results', async () => {
    const proxy = await startLimitingProxy(main.rpcUrl, { maxRange: 1000, maxResults: 50 });
    try {
      const source = createEvmSource({ chain, rpcUrl: proxy.url, tokens: createMemoryTokenCache(), discovery: 'logs' });
      const { trades } = await walk(source, main.wallet);
      expect(trades).toEqual(main.groundTruth.map(strip));
      expect(proxy.refusals.range).toBeGreaterThan(0);
      expect(proxy.refusals.results).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
  });

  it('pays a range refusal once per chain: later walks, and a new source sharing the hints, stay under the learned range', async () => {
    const proxy = await startLimitingProxy(main.rpcUrl, { maxRange: 1000, maxResults: 100_000 });
    try {
      const hints = createMemoryCache<number>();
      const first = createEvmSource({ chain, rpcUrl: proxy.url, tokens: createMemoryTokenCache(), hints, discovery: 'logs' });
      expect((await walk(first, main.wallet)).trades).toEqual(main.groundTruth.map(strip));
      const paid = proxy.refusals.range;
      expect(paid).toBeGreaterThan(0);
      expect((await hints.get(chain.slug, ['logsRange'])).get('logsRange')).toBeLessThanOrEqual(1000);
      // The same source again, then a new one (a restart) reading the kept hint: no refusal at all.
      expect((await walk(first, main.wallet)).trades).toEqual(main.groundTruth.map(strip));
      const restarted = createEvmSource({ chain, rpcUrl: proxy.url, tokens: createMemoryTokenCache(), hints, discovery: 'logs' });
      expect((await walk(restarted, main.wallet)).trades).toEqual(main.groundTruth.map(strip));
      // RPC_LOGS_RANGE_<SLUG> given up front: none either, from the first walk.
      const configured = createEvmSource({ chain, rpcUrl: proxy.url, tokens: createMemoryTokenCache(), logsRange: 1000, discovery: 'logs' });
      expect((await walk(configured, main.wallet)).trades).toEqual(main.groundTruth.map(strip));
      expect(proxy.refusals.range).toBe(paid);
      // Several ranges ride in one HTTP request.
      expect(proxy.seen.calls / proxy.seen.httpRequests).toBeGreaterThan(4);
    } finally {
      await proxy.close();
    }
  });

  it('by the Otterscan index: small pages (blocks split across pages) resume exactly, and the path is chosen from what the node answers', async () => {
    const tokens = createMemoryTokenCache();
    const auto = createEvmSource({ chain, rpcUrl: main.rpcUrl, tokens });
    expect((await walk(auto, main.wallet)).trades).toEqual(main.groundTruth.map(strip));
    expect(auto.discovery).toBe('ots');
    // Pages of 4 transactions: a page's oldest block is held back to the next one.
    const small = createEvmSource({ chain, rpcUrl: main.rpcUrl, tokens, discovery: 'ots', otsPageSize: 4 });
    const all = await walk(small, main.wallet);
    expect(all.trades).toEqual(main.groundTruth.map(strip));
    expect(all.batches.length).toBeGreaterThan(20);
    const k = Math.floor(all.batches.length / 2);
    const rest = await walk(small, main.wallet, { before: all.batches[k].position });
    expect([...all.batches.slice(0, k + 1).flatMap((b) => b.trades), ...rest.trades]).toEqual(main.groundTruth.map(strip));
    // The discovery itself is a handful of requests: the walk costs few calls beyond the receipts it carries.
    expect(auto.stats.httpRequests).toBeLessThan(20);
  });

  it('falls back to the log path when the node hides ots_, or refuses it in the middle of a walk, losing nothing', async () => {
    const hidden = await startLimitingProxy(main.rpcUrl, { maxRange: 1_000_000, maxResults: 100_000, ots: 'hidden' });
    try {
      const source = createEvmSource({ chain, rpcUrl: hidden.url, tokens: createMemoryTokenCache() });
      expect((await walk(source, main.wallet)).trades).toEqual(main.groundTruth.map(strip));
      expect(source.discovery).toBe('logs');
    } finally {
      await hidden.close();
    }
    const flaky = await startLimitingProxy(main.rpcUrl, { maxRange: 1_000_000, maxResults: 100_000, ots: { refuseAfter: 5 } });
    try {
      const logs: string[] = [];
      const source = createEvmSource({ chain, rpcUrl: flaky.url, tokens: createMemoryTokenCache(), otsPageSize: 6, log: (l) => logs.push(l) });
      const { trades, batches } = await walk(source, main.wallet);
      expect(trades).toEqual(main.groundTruth.map(strip));
      expect(batches.filter((b) => b.head !== undefined)).toHaveLength(1);
      expect(source.discovery).toBe('logs');
      expect(logs.some((l) => /Otterscan index.*refused/.test(l))).toBe(true);
    } finally {
      await flaky.close();
    }
  });

  it('by an explorer API where the node has no ots_: the same trades, receipts from the RPC, a transaction the RPC does not know not served', async () => {
    const noOts = await startLimitingProxy(main.rpcUrl, { maxRange: 1e12, maxResults: 1e9, ots: 'hidden' });
    const phantom = { address: main.wallet, hash: '0x' + 'ab'.repeat(32), blockNumber: Number(main.groundTruth[3].position.slice(0, 12)) };
    const explorer = await startExplorerReplay({ rpcUrl: main.rpcUrl, addresses: [main.wallet], apiKey: 'k-1', phantom: [phantom] });
    try {
      const source = createEvmSource({
        chain,
        rpcUrl: noOts.url,
        tokens: createMemoryTokenCache(),
        explorer: { url: explorer.url + '?chainid=31337', key: 'k-1' },
        explorerPageSize: 40,
      });
      const { trades, batches } = await walk(source, main.wallet);
      expect(trades).toEqual(main.groundTruth.map(strip));
      expect(source.discovery).toBe('explorer');
      expect(batches.length).toBeGreaterThan(3);
      expect(explorer.seen.byAction.txlist).toBeGreaterThan(3);
      // Discovery asked the explorer, not the node's logs.
      expect(noOts.refusals.range + noOts.refusals.results).toBe(0);
      // A wrong key: the explorer refuses, and the walk goes on by log scans with nothing lost.
      const logs: string[] = [];
      const wrongKey = createEvmSource({
        chain,
        rpcUrl: noOts.url,
        tokens: createMemoryTokenCache(),
        explorer: { url: explorer.url, key: 'bad' },
        log: (l) => logs.push(l),
      });
      expect((await walk(wrongKey, main.wallet)).trades).toEqual(main.groundTruth.map(strip));
      expect(wrongKey.discovery).toBe('logs');
      expect(logs.some((l) => /Invalid API Key/.test(l))).toBe(true);
    } finally {
      await explorer.close();
      await noOts.close();
    }
  });

  it('resumes from a batch position and from a trade position without gap or duplicate', async () => {
    const tokens = createMemoryTokenCache();
    const source = createEvmSource({ chain, rpcUrl: main.rpcUrl, tokens, initialRange: 3_000, rangesPerRequest: 1, discovery: 'logs' });
    const first = await walk(source, main.wallet, { maxBatches: 2 });
    expect(first.batches.at(-1)!.done).toBe(false);
    const rest = await walk(source, main.wallet, { before: first.batches.at(-1)!.position });
    expect(rest.batches[0].head).toBeUndefined();
    expect([...first.trades, ...rest.trades]).toEqual(main.groundTruth.map(strip));

    // Dense ranges come in parts of `receiptsPerBatch` receipts, each resumable from its position.
    const parts = createEvmSource({ chain, rpcUrl: main.rpcUrl, tokens, receiptsPerBatch: 7, discovery: 'logs' });
    const all = await walk(parts, main.wallet);
    expect(all.trades).toEqual(main.groundTruth.map(strip));
    const mid = all.batches.filter((b) => b.position.includes('.'));
    expect(mid.length).toBeGreaterThan(10);
    expect(all.batches.filter((b) => b.done).length).toBe(1);
    const k = all.batches.indexOf(mid[5]);
    const before = all.batches.slice(0, k + 1).flatMap((b) => b.trades);
    const after = await walk(parts, main.wallet, { before: mid[5].position });
    expect([...before, ...after.trades]).toEqual(main.groundTruth.map(strip));

    // A trade position as `before`: strictly older transactions only (its own legs excluded).
    const pivot = main.groundTruth[41];
    const older = await walk(source, main.wallet, { before: pivot.position });
    expect(older.trades).toEqual(main.groundTruth.filter((t) => t.position < pivot.position).map(strip));
  });

  it('stops at `until` (an earlier head) and serves only up to the confirmation point', async () => {
    const source = createEvmSource({ chain, rpcUrl: main.rpcUrl, tokens: createMemoryTokenCache() });
    const cut = Number(main.groundTruth[60].position.slice(0, 12));
    const newer = await walk(source, main.wallet, { until: String(cut) });
    expect(newer.trades).toEqual(main.groundTruth.filter((t) => Number(t.position.slice(0, 12)) > cut).map(strip));
    expect(newer.batches.at(-1)!.done).toBe(true);

    // A buy in the newest block is past the `safe` block: not served until blocks follow it.
    const { batches } = await walk(source, main.wallet, { maxBatches: 1 });
    const head = batches[0].head!;
    const extra = await main.extraBuy();
    extras.unshift(extra);
    const now = await walk(source, main.wallet, { until: head });
    expect(now.trades.map((t) => t.signature)).not.toContain(extra.signature);
    await main.mine(3);
    const later = await walk(source, main.wallet, { until: head });
    expect(later.trades).toEqual([strip(extra)]);
    expect(Number(later.batches[0].head)).toBeGreaterThan(Number(head));
  });

  it('asks symbols and decimals once per token (cache) and names unknown forks', async () => {
    const tokens = createMemoryTokenCache();
    const a = createEvmSource({ chain, rpcUrl: main.rpcUrl, tokens });
    await walk(a, main.wallet, { until: String(main.lastBlock - 200) });
    const b = createEvmSource({ chain, rpcUrl: main.rpcUrl, tokens });
    await walk(b, main.wallet, { until: String(main.lastBlock - 200) });
    const tokensTraded = new Set(main.groundTruth.filter((t) => Number(t.position.slice(0, 12)) > main.lastBlock - 200).map((t) => t.tokenMint)).size;
    expect(a.stats.calls - b.stats.calls).toBe(2 * tokensTraded);
    expect(main.groundTruth.some((t) => t.dex === 'unknown-v2-fork')).toBe(true);
  });
});

describe('aggregator routers', () => {
  it('give their slug to the trades of transactions sent to them', async () => {
    const viaRouter = new Set<TradeKind>([
      'v2-buy-exact-in',
      'v2-buy-exact-out-refund',
      'v2-sell-exact-in',
      'v2-sell-exact-out',
      'token-to-token-direct',
      'token-to-token-via-weth',
      'fot-buy',
      'fot-sell',
    ]);
    const [withAgg] = parseEvmChainsFile([{ ...main.chainsFileEntry('anvil'), aggregators: [{ name: 'test-aggregator', address: main.addresses.v2Router }] }]);
    const source = createEvmSource({ chain: withAgg, rpcUrl: main.rpcUrl, tokens: createMemoryTokenCache() });
    const cut = Number(main.groundTruth[80].position.slice(0, 12));
    const { trades } = await walk(source, main.wallet, { until: String(cut) });
    const want = [...extras, ...main.groundTruth]
      .filter((t) => Number(t.position.slice(0, 12)) > cut)
      .map((t) => ({ ...strip(t), dex: viaRouter.has(t.kind) ? 'test-aggregator' : t.dex }));
    expect(trades).toEqual(want);
    expect(new Set(trades.map((t) => t.dex))).toEqual(new Set(['test-aggregator', 'uniswap-v3', 'unknown-v2-fork']));
  });
});

describe('a chain added only by configuration', () => {
  it('works through EVM_CHAINS_FILE under a slug that is not built in (devnet2)', async () => {
    expect(BUILT_IN_EVM_CHAINS.some((c) => c.slug === 'devnet2')).toBe(false);
    const fromFile = parseEvmChainsFile(JSON.parse(JSON.stringify([second.chainsFileEntry('devnet2')])));
    const all = mergeEvmChains(BUILT_IN_EVM_CHAINS, fromFile);
    const devnet2 = all.find((c) => c.slug === 'devnet2')!;
    expect(devnet2.chainId).toBe(31338);
    const source = createEvmSource({ chain: devnet2, rpcUrl: devnet2.rpcUrl, tokens: createMemoryTokenCache() });
    expect(source.chain).toBe('devnet2');
    const { trades } = await walk(source, second.wallet);
    expect(trades.length).toBeGreaterThanOrEqual(20);
    expect(trades).toEqual(second.groundTruth.map(strip));
  });
});
