import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/lib/core/chain-source.js';
import { createChainlinkFeed, roundIdOf } from '../../src/lib/prices/chainlink-feed.js';
import { createRoundLogs } from '../../src/lib/prices/chainlink-logs.js';
import { createRpcTransport, type RpcCall, type RpcTransport } from '../../src/lib/rpc/json-rpc.js';
import { startAnvil, type AnvilNode } from '../support/anvil/anvil.js';
import { compileSolidity } from '../support/anvil/compile.js';
import { createChainDriver } from '../support/anvil/contracts.js';
import { pushTimedRounds } from '../support/anvil/chainlink/timed-rounds.js';
import { startLimitingProxy, type LimitingProxy } from '../support/anvil/limiting-proxy.js';

/**
 * The price feed's logs path (issue 22) on anvil, where each round is mined in a block of its own
 * at its update time, as real aggregators' rounds are: the rounds of the trades' span are read from
 * the aggregators' AnswerUpdated logs in a few requests, and the prices are those of the rule
 * (latest round at or before the time, within the heartbeat and its margin, positive). Where the
 * node serves no logs, or only short ranges, the feed still gives the same prices.
 *
 * The series (T0 = 1,700,000,000, 8 decimals): phase 1, 150 hourly rounds from T0, answer 2000 + k;
 * phase 2, 150 hourly rounds from T0 + 150 h, answer 3000 + k, of which round 40 answers 0 and
 * rounds 101.. start 5 h late (a silence longer than the heartbeat).
 */
const T0 = 1_700_000_000;
const H = 3600;
const DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const E8 = 100_000_000n;

const series: { phase: number; round: number; time: number; usd: bigint }[] = [];
for (let k = 0; k < 150; k++) series.push({ phase: 1, round: k + 1, time: T0 + k * H, usd: 2000n + BigInt(k) });
for (let k = 0; k < 150; k++) series.push({ phase: 2, round: k + 1, time: T0 + (150 + k + (k >= 100 ? 5 : 0)) * H, usd: k === 39 ? 0n : 3000n + BigInt(k) });
const END = series.at(-1)!.time;

function expected(t: number) {
  const r = series.filter((s) => s.time <= t).at(-1);
  if (!r || r.usd <= 0n || t - r.time > H + 360) return null;
  return { price: String(r.usd), roundTime: r.time, round: roundIdOf(r.phase, BigInt(r.round)).toString() };
}

let anvil: AnvilNode;
let proxy: string;
let noLogs: LimitingProxy;
let shortRanges: LimitingProxy;

beforeAll(async () => {
  // The chain starts a day before the first round, so every round can be mined at its own time.
  anvil = await startAnvil({ args: ['--timestamp', String(T0 - 86_400)] });
  const d = createChainDriver(anvil.url);
  const c = compileSolidity(new URL('../support/anvil/chainlink/Feeds.sol', import.meta.url));
  proxy = await d.deploy(DEPLOYER, c.TestFeedProxy);
  for (const phase of [1, 2]) {
    const agg = await d.deploy(DEPLOYER, c.TestAggregator, [8, 'ETH / USD', false]);
    await d.send(DEPLOYER, proxy, c.TestFeedProxy, 'setAggregator', [agg]);
    const rows = series.filter((s) => s.phase === phase).map((s) => ({ answer: s.usd * E8, time: s.time }));
    await pushTimedRounds(anvil.url, DEPLOYER, agg, c.TestAggregator, rows);
  }
  noLogs = await startLimitingProxy(anvil.url, { logs: 'hidden' });
  shortRanges = await startLimitingProxy(anvil.url, { maxRange: 40, maxResults: 100_000 });
}, 120_000);
afterAll(async () => {
  await noLogs?.close();
  await shortRanges?.close();
  await anvil?.stop();
});

/** Calls by method, whatever request carried them. */
function counting(transport: RpcTransport): RpcTransport & { calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const count = (method: string, n = 1) => (calls[method] = (calls[method] ?? 0) + n);
  const each = (cs: readonly RpcCall[]) => cs.forEach((c) => count(c.method));
  return {
    calls,
    get url() {
      return transport.url;
    },
    get stats() {
      return transport.stats;
    },
    get batching() {
      return transport.batching;
    },
    call: (method, params, o) => (count(method), transport.call(method, params, o)),
    callMany: (cs, o) => (each(cs), transport.callMany(cs, o)),
    callManySettled: (cs, o) => (each(cs), transport.callManySettled(cs, o)),
  };
}

function feedOver(url: string, { logs = true } = {}) {
  const transport = counting(createRpcTransport({ url }));
  const feed = createChainlinkFeed({
    coin: 'ETH',
    transport,
    proxy,
    heartbeatSeconds: H,
    now: () => (END + 600) * 1000,
    logs: logs ? createRoundLogs({ transport, chain: 'anvil', hints: createMemoryCache<number>() }) : undefined,
  });
  return { transport, feed };
}

let seed = 3;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const times = Array.from({ length: 3000 }, () => T0 - 2 * H + Math.floor(rand() * (END - T0 + 4 * H)));
const chosen = [T0 - 1, T0, T0 + 149 * H, T0 + 150 * H - 1, T0 + 150 * H, T0 + 189 * H + 10, T0 + 251 * H, END, END + 100];

describe('the price feed from the aggregators’ logs', () => {
  it('gives the rule’s prices for 3,000 times from the logs, with no round read one by one', async () => {
    const viaLogs = feedOver(anvil.url);
    expect(await viaLogs.feed.pricesAt([...chosen, ...times])).toEqual([...chosen, ...times].map(expected));
    const bisection = feedOver(anvil.url, { logs: false });
    expect(await bisection.feed.pricesAt([...chosen, ...times])).toEqual([...chosen, ...times].map(expected));
    // Bounds (3), the latest header and the search for the span's two blocks (a few steps of 20
    // headers), the logs of both aggregators in one range: about 10 requests. getRoundData only
    // for the bounds (each phase's first round); bisection reads all 300 rounds.
    expect(viaLogs.transport.stats.httpRequests).toBeLessThanOrEqual(12);
    expect(viaLogs.transport.calls.eth_getLogs).toBe(1);
    expect(viaLogs.transport.calls.eth_call).toBeLessThanOrEqual(2 + 2 + 4);
    expect(bisection.transport.calls.eth_call).toBeGreaterThan(290);
  });

  it('the same where the node serves no logs (bisection after one refusal) and where it takes 40 blocks a range', async () => {
    const refused = feedOver(noLogs.url);
    expect(await refused.feed.pricesAt(times)).toEqual(times.map(expected));
    const short = feedOver(shortRanges.url);
    expect(await short.feed.pricesAt(times)).toEqual(times.map(expected));
    expect(shortRanges.refusals.range).toBeGreaterThan(0);
  });
});
