import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryTokenCache, type HistoryBatch } from '../../src/lib/core/chain-source.js';
import type { SourceTrade } from '../../src/lib/core/trade.js';
import { createTronSource } from '../../src/lib/chains/tron/source.js';
import { createHttpJsonClient } from '../../src/lib/rpc/http-json.js';
import { buildTronReplayWorld, startTronReplayServer, type TronReplayServer, type TronReplayWorld } from '../support/tron-replay/index.js';
import { GOLDEN } from './golden.js';

let world: TronReplayWorld;
let server: TronReplayServer;

beforeAll(async () => {
  world = buildTronReplayWorld({ trades: 520 });
  server = await startTronReplayServer(world);
});
afterAll(() => server?.close());

/** A source on the replay whose retries wait milliseconds, not seconds. */
function source(o: { pageSize?: number } = {}) {
  const client = createHttpJsonClient({ url: server.url, baseDelayMs: 2, maxDelayMs: 20, maxRetryAfterMs: 20 });
  return createTronSource({ rpcUrl: server.url, tokens: createMemoryTokenCache(), client, pageSize: o.pageSize });
}

async function walk(src: ReturnType<typeof source>, wallet: string, p: { before?: string; until?: string; stopAfter?: number } = {}) {
  const batches: HistoryBatch[] = [];
  for await (const b of src.history({ wallet, before: p.before, until: p.until })) {
    batches.push(b);
    if (p.stopAfter !== undefined && batches.length >= p.stopAfter) break;
  }
  return batches;
}

const view = (t: SourceTrade) => ({
  signature: t.signature,
  side: t.side,
  token: t.token,
  tokenMint: t.tokenMint,
  amountSol: t.amountSol,
  amount: t.amount,
  dex: t.dex,
  blockTime: t.blockTime,
});
const expectedView = () => world.synth.expected.map(({ block: _b, leg: _l, ...t }) => t);

describe('Tron source on the TronGrid replay', () => {
  it('walks a 520-trade wallet over several pages and yields exactly the hand-checked trades, newest first', async () => {
    server.resetStats();
    const src = source();
    const batches = await walk(src, world.synth.wallet);
    const trades = batches.flatMap((b) => b.trades);
    expect(trades.map(view)).toEqual(expectedView());
    expect(server.stats.byEndpoint.transactions).toBeGreaterThanOrEqual(3);
    expect(server.stats.notFound).toBe(0);
    expect(batches.at(-1)!.done).toBe(true);
    expect(batches.slice(0, -1).every((b) => !b.done)).toBe(true);
    // positions go strictly down across batches (the store's readers rely on it)
    const keys = trades.map((t) => `${t.position}:${9999 - t.leg}`);
    expect([...keys].sort().reverse()).toEqual(keys);
    expect(new Set(keys).size).toBe(keys.length);
    for (const t of trades) expect(t.signature).toMatch(/^[0-9a-f]{64}$/);
    // one info per swap sent, one page per 200 records, one look-up per token: about one request per trade
    const perTrade = server.stats.httpRequests / trades.length;
    expect(perTrade).toBeLessThan(1.1);
    // token metadata: the wallet's recent TRC-20 list once, then at most a look-up per token it lacks
    const lookups = (server.stats.byEndpoint.trc20 ?? 0) + (server.stats.byEndpoint.constant ?? 0);
    expect(lookups).toBeLessThanOrEqual(new Set(trades.map((t) => t.tokenMint)).size);
  });

  for (const wallet of [...new Set(GOLDEN.map((g) => g.wallet))]) {
    it(`gives the captured wallet ${wallet.slice(0, 8)}… its hand-checked trades`, async () => {
      const trades = (await walk(source(), wallet)).flatMap((b) => b.trades);
      const want = GOLDEN.filter((g) => g.wallet === wallet)
        .sort((a, b) => b.blockTime.localeCompare(a.blockTime))
        .flatMap((g) => g.trades.map((t) => ({ ...t, blockTime: g.blockTime })));
      expect(trades.map(({ signature: _s, position: _p, leg: _l, ...t }) => t)).toEqual(want);
    });
  }

  it('resumes from any batch position, on a new source, with nothing lost or repeated', async () => {
    const first = await walk(source(), world.synth.wallet, { stopAfter: 2 });
    expect(first.at(-1)!.done).toBe(false);
    const rest = await walk(source(), world.synth.wallet, { before: first.at(-1)!.position });
    const all = [...first, ...rest].flatMap((b) => b.trades);
    expect(all.map(view)).toEqual(expectedView());
  });

  it('refreshes down to the head marker: only trades newer than it', async () => {
    const first = await walk(source(), world.synth.wallet, { stopAfter: 1 });
    const head = first[0].head!;
    expect(head).toMatch(/^\d+\.\d+$/);
    // the same wallet's synthesis placed higher: its transactions above the first world's top block are new
    const newer = buildTronReplayWorld({ trades: 12, topBlock: 70_500_000 }).synth;
    expect(newer.wallet).toBe(world.synth.wallet);
    const newest = newer.transactions.filter((t) => t.record.blockNumber > 70_000_000);
    server.addTransactions(newest);
    const refresh = await walk(source(), world.synth.wallet, { until: head });
    const got = refresh.flatMap((b) => b.trades).map(view);
    const want = newer.expected.filter((t) => t.block > 70_000_000).map(({ block: _b, leg: _l, ...t }) => t);
    expect(got).toEqual(want);
    expect(refresh[0].head).not.toBe(head);
  });

  it('gives the same trades while a quarter of the requests fail (429 with and without Retry-After, 5xx, cut bodies, resets)', async () => {
    const clean = (await walk(source(), world.synth.wallet)).flatMap((b) => b.trades);
    server.config.faults = { rate: 0.25, kinds: ['429', '429-retry-after', '5xx', 'truncate', 'reset'], seed: 5 };
    try {
      const src = source();
      const trades = (await walk(src, world.synth.wallet)).flatMap((b) => b.trades);
      expect(trades).toEqual(clean);
      expect(trades.length).toBeGreaterThanOrEqual(world.synth.expected.length);
      expect(src.stats.retries).toBeGreaterThan(50);
      for (const k of ['429', '429-retry-after', '5xx', 'truncate', 'reset']) expect(server.stats.faults[k]).toBeGreaterThan(0);
    } finally {
      server.config.faults = undefined;
    }
  });

  it('decodes stored transactions again by id (a re-decode): exactly their trades, about two requests each', async () => {
    const src = source();
    expect(src.decoderVersion).toBeGreaterThanOrEqual(1);
    const stored = [...new Map(world.synth.expected.slice(100, 160).map((t) => [t.signature, t])).values()];
    const want = world.synth.expected.filter((t) => stored.some((s) => s.signature === t.signature)).map(({ block: _b, leg: _l, ...t }) => t);
    server.resetStats();
    const { trades } = await src.redecode!({
      wallet: world.synth.wallet,
      transactions: stored.map((t) => ({ signature: t.signature, position: `${t.block}.0` })),
    });
    expect(trades.map(view)).toEqual(want);
    // an info per transaction, the wallet's records of each block time, token look-ups at most once a token
    const tokens = new Set(want.map((t) => t.tokenMint)).size;
    expect(server.stats.byEndpoint.info).toBe(stored.length);
    expect(server.stats.byEndpoint.transactions).toBeLessThanOrEqual(stored.length);
    expect(server.stats.httpRequests).toBeLessThanOrEqual(2 * stored.length + tokens + 1);
    expect(await src.redecode!({ wallet: world.synth.wallet, transactions: [] })).toEqual({ trades: [], unexplained: [] });
  });

  it("refuses to re-decode a transaction the wallet's own list lacks, rather than dropping its trades", async () => {
    const others = world.synth.transactions.find((t) => t.origin === 'others-swap-paying-wallet')!;
    await expect(
      source().redecode!({ wallet: world.synth.wallet, transactions: [{ signature: others.record.txID, position: `${others.record.blockNumber}.0` }] }),
    ).rejects.toMatchObject({ code: 'rpc_malformed_response', retryable: true });
  });

  it('rejects positions it did not issue as invalid_position, before any request', async () => {
    server.resetStats();
    await expect(walk(source(), world.synth.wallet, { before: 'abc' })).rejects.toMatchObject({ code: 'invalid_position' });
    await expect(walk(source(), world.synth.wallet, { until: '12' })).rejects.toMatchObject({ code: 'invalid_position' });
    expect(server.stats.httpRequests).toBe(0);
  });
});
