import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/lib/core/chain-source.js';
import { createChainlinkFeed, roundIdOf } from '../../src/lib/prices/chainlink-feed.js';
import { createPriceService } from '../../src/lib/prices/price-service.js';
import type { StoredRound } from '../../src/lib/prices/price-source.js';
import { createRpcTransport } from '../../src/lib/rpc/json-rpc.js';
import { createStoreRoundCache } from '../../src/lib/server/store/price-rounds.js';
import { openMemoryDatabase } from '../support/test-server.js';
import { startAnvil, type AnvilNode } from '../support/anvil/anvil.js';
import { compileSolidity } from '../support/anvil/compile.js';
import { createChainDriver } from '../support/anvil/contracts.js';

/**
 * A Chainlink feed read over JSON-RPC (issue 22), on anvil: a proxy with the real interface
 * (phases, round ids `(phase << 64) | round`) in front of three aggregators in turn, with a
 * series of rounds at times chosen here, so each trade time's price is known by hand.
 *
 * The series (T0 = 1,700,000,000, hourly rounds, 8 decimals):
 *  - phase 1 (reverts on a missing round): 100 rounds at T0 + k h, answer 2000 + k USD;
 *  - phase 2 (answers zeros for a missing round): 50 rounds from T0 + 100 h, answer 3000 + k;
 *    round 20 answers 0 (nonsense);
 *  - phase 3: 30 rounds from T0 + 150 h, answer 4000 + k, except a 3-hour silence after round 10
 *    (rounds 11.. start at T0 + 163 h).
 * Heartbeat 3,600 s: a round counts up to 3,960 s after its update (10 % margin).
 */
const T0 = 1_700_000_000;
const H = 3600;
const DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const E8 = 100_000_000n;

interface Pushed {
  phase: number;
  round: number;
  time: number;
  usd: bigint;
}
const series: Pushed[] = [];
for (let k = 0; k < 100; k++) series.push({ phase: 1, round: k + 1, time: T0 + k * H, usd: 2000n + BigInt(k) });
for (let k = 0; k < 50; k++) series.push({ phase: 2, round: k + 1, time: T0 + (100 + k) * H, usd: k === 19 ? 0n : 3000n + BigInt(k) });
for (let k = 0; k < 30; k++) series.push({ phase: 3, round: k + 1, time: T0 + (150 + k + (k >= 10 ? 3 : 0)) * H, usd: 4000n + BigInt(k) });
const END = series.at(-1)!.time;

/** The rule of decisions.md, over the series: the latest round at or before t, within heartbeat + margin, with a positive answer. */
function expected(t: number): { price: string; roundTime: number; round: string } | null {
  const r = series.filter((s) => s.time <= t).at(-1);
  if (!r || r.usd <= 0n || t - r.time > H + 360) return null;
  return { price: String(r.usd), roundTime: r.time, round: roundIdOf(r.phase, BigInt(r.round)).toString() };
}

let anvil: AnvilNode;
let proxy: string;

beforeAll(async () => {
  anvil = await startAnvil();
  const d = createChainDriver(anvil.url);
  const c = compileSolidity(new URL('../support/anvil/chainlink/Feeds.sol', import.meta.url));
  proxy = await d.deploy(DEPLOYER, c.TestFeedProxy);
  for (const phase of [1, 2, 3]) {
    const agg = await d.deploy(DEPLOYER, c.TestAggregator, [8, 'ETH / USD', phase === 2]);
    await d.send(DEPLOYER, proxy, c.TestFeedProxy, 'setAggregator', [agg]);
    const rows = series.filter((s) => s.phase === phase);
    await d.send(DEPLOYER, agg, c.TestAggregator, 'push', [rows.map((r) => r.usd * E8), rows.map((r) => BigInt(r.time))], 0n, 10_000_000n);
  }
}, 120_000);
afterAll(async () => anvil?.stop());

const feed = (now = (END + 600) * 1000) => {
  const transport = createRpcTransport({ url: anvil.url });
  return { transport, feed: createChainlinkFeed({ coin: 'ETH', transport, proxy, heartbeatSeconds: H, now: () => now }) };
};

describe('a Chainlink feed over JSON-RPC', () => {
  it('gives the price in force at chosen times: before the first round, on a boundary, between rounds, across phase changes, through silences and nonsense', async () => {
    const { feed: f } = feed();
    const cases: [string, number, string | null][] = [
      ['before the first round', T0 - 1, null],
      ['on the first round', T0, '2000'],
      ['on a boundary', T0 + 5 * H, '2005'],
      ['a second before the next round', T0 + 6 * H - 1, '2005'],
      ['the last round of phase 1, a second before phase 2', T0 + 100 * H - 1, '2099'],
      ['the first round of phase 2', T0 + 100 * H, '3000'],
      ['a zero answer is not a price', T0 + 119 * H + 10, null],
      ['the round after it', T0 + 120 * H, '3020'],
      ['phase 3, second round', T0 + 151 * H + 1, '4001'],
      ['within the margin past the heartbeat', T0 + 159 * H + 3900, '4009'],
      ['past heartbeat and margin: the feed was silent', T0 + 159 * H + 3961, null],
      ['two hours into the silence', T0 + 161 * H, null],
      ['after the silence', T0 + 163 * H, '4010'],
      ['after the last round, within the heartbeat', END + 100, '4029'],
    ];
    const got = await f.pricesAt(cases.map((c) => c[1]));
    cases.forEach(([what, t, price], i) => {
      expect(got[i]?.price ?? null, what).toBe(price);
      expect(got[i], what).toEqual(expected(t));
    });
    // Round ids as the proxy writes them.
    expect(got[5]!.round).toBe(((2n << 64n) | 1n).toString());
  });

  it('prices 2,000 times at once in at most 10 batched requests, and none again for times it has read', async () => {
    const { feed: f, transport } = feed();
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const times = Array.from({ length: 2000 }, () => T0 - H + Math.floor(rand() * (END - T0 + 2 * H)));
    const got = await f.pricesAt(times);
    expect(got).toEqual(times.map(expected));
    // Bounds: decimals and phaseId; the aggregators; their first and latest rounds (3 requests);
    // then one batch per bisection step: log2(100) rounds up to 7.
    const first = transport.stats.httpRequests;
    expect(first).toBeLessThanOrEqual(3 + 7);
    const again = await f.pricesAt(times.slice(0, 500));
    expect(again).toEqual(times.slice(0, 500).map(expected));
    expect(transport.stats.httpRequests).toBe(first);
  });

  it('does not use a round that claims an update after now', async () => {
    // "Now" is a minute after phase 3's round 5: later rounds are nonsense for a time past now.
    const { feed: f } = feed((T0 + 154 * H + 60) * 1000);
    const got = await f.pricesAt([T0 + 154 * H + 30, T0 + 156 * H]);
    expect(got[0]?.price).toBe('4004');
    expect(got[1]).toBeNull();
  });

  it('refuses an address that is not a feed, naming it', async () => {
    const transport = createRpcTransport({ url: anvil.url });
    const f = createChainlinkFeed({ coin: 'ETH', transport, proxy: DEPLOYER, heartbeatSeconds: H });
    await expect(f.pricesAt([T0])).rejects.toThrow(/not a Chainlink proxy/);
  });

  it('keeps the rounds it read in the store: another process over the same times reads only the bounds', async () => {
    const db = await openMemoryDatabase();
    try {
      const times = Array.from({ length: 300 }, (_, i) => T0 + i * 1777);
      // A process: a feed object of its own (nothing in memory) on the store.
      const newProcess = () => {
        const transport = createRpcTransport({ url: anvil.url });
        const f = createChainlinkFeed({
          coin: 'ETH',
          transport,
          proxy,
          heartbeatSeconds: H,
          rounds: createStoreRoundCache(db),
          feedKey: `anvil:${proxy}`,
          now: () => (END + 600) * 1000,
        });
        return { transport, f };
      };
      const first = newProcess();
      expect(await first.f.pricesAt(times)).toEqual(times.map(expected));
      const stored = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM price_rounds'))[0].n;
      expect(stored).toBeGreaterThan(50);
      const second = newProcess();
      expect(await second.f.pricesAt(times)).toEqual(times.map(expected));
      // decimals and phaseId; the aggregators; their first and latest rounds: nothing else.
      expect(second.transport.stats.httpRequests).toBe(3);
    } finally {
      await db.close();
    }
  });

  it('reads every round once when the times are dense: 5,000 trades over 2,000 hourly rounds in at most one request per 200 trades', async () => {
    const d = createChainDriver(anvil.url);
    const c = compileSolidity(new URL('../support/anvil/chainlink/Feeds.sol', import.meta.url));
    const dense = await d.deploy(DEPLOYER, c.TestFeedProxy);
    const agg = await d.deploy(DEPLOYER, c.TestAggregator, [8, 'SOL / USD', true]);
    await d.send(DEPLOYER, dense, c.TestFeedProxy, 'setAggregator', [agg]);
    const start = T0 + 1_000_000;
    const usd = (k: number) => 100n + BigInt(k % 97);
    for (let from = 0; from < 2000; from += 250) {
      const ks = Array.from({ length: 250 }, (_, i) => from + i);
      await d.send(DEPLOYER, agg, c.TestAggregator, 'push', [ks.map((k) => usd(k) * E8), ks.map((k) => BigInt(start + k * H))], 0n, 25_000_000n);
    }
    const transport = createRpcTransport({ url: anvil.url });
    const f = createChainlinkFeed({ coin: 'SOL', transport, proxy: dense, heartbeatSeconds: H, now: () => (start + 2000 * H) * 1000 });
    let seed = 11;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const times = Array.from({ length: 5000 }, () => start + Math.floor(rand() * 1999 * H));
    const got = await f.pricesAt(times);
    times.forEach((t, i) => {
      const k = Math.floor((t - start) / H);
      expect(got[i]).toEqual({ price: String(usd(k)), roundTime: start + k * H, round: roundIdOf(1, BigInt(k + 1)).toString() });
    });
    // The bounds (3), then the rounds between the first and the last, 100 a batch (20).
    expect(transport.stats.httpRequests).toBeLessThanOrEqual(25);
  }, 120_000);

  it("the price service prices a coin by its feed over the feed chain's RPC, and a coin without a feed or RPC as unknown", async () => {
    const asked: string[] = [];
    const service = createPriceService({
      feeds: { ETH: { chain: 'anvil', proxy, heartbeatSeconds: H }, BNB: { chain: 'bsc', proxy, heartbeatSeconds: H } },
      rpcUrlOf: (chain) => (asked.push(chain), chain === 'anvil' ? anvil.url : undefined),
      rounds: createMemoryCache<StoredRound>(),
      now: () => (END + 600) * 1000,
    });
    const times = [T0 - 1, T0 + 5 * H, T0 + 100 * H];
    expect((await service.pricesAt('ETH', times)).map((p) => p?.price ?? null)).toEqual([null, '2005', '3000']);
    // No RPC for bsc here, no feed for DOGE: unknown, not an error.
    expect(await service.pricesAt('BNB', times)).toEqual([null, null, null]);
    expect(await service.pricesAt('DOGE', times)).toEqual([null, null, null]);
    // Each feed built once.
    await service.pricesAt('ETH', times);
    expect(asked).toEqual(['anvil', 'bsc']);
  });
});
