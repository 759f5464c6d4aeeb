import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeTrade } from '../../src/lib/core/trade.js';
import { buildTronReplayWorld, startTronReplayServer, type TronReplayServer, type TronReplayWorld } from '../support/tron-replay/index.js';
import { rawTradesText, splitTrades, startTestServer, streamAll, type TestServer } from '../support/test-server.js';

/** The hand-checked trades of the synthesised wallet as the API must write them, byte for byte. */
const expectedText = (world: TronReplayWorld) => world.synth.expected.map(({ block: _b, leg: _l, ...t }) => serializeTrade(t));

describe('Tron through the HTTP endpoint, from the TronGrid replay', () => {
  let world: TronReplayWorld;
  let expected: string[];
  let rpc: TronReplayServer;
  beforeAll(async () => {
    world = buildTronReplayWorld({ trades: 520, seed: 3 });
    expected = expectedText(world);
    rpc = await startTronReplayServer({ ...world, latencyMs: 2 });
  });
  afterAll(() => rpc.close());

  async function withServer<T>(env: Record<string, string>, fn: (srv: TestServer) => Promise<T>): Promise<T> {
    const srv = await startTestServer({ sources: 'default', env: { RPC_URL_TRON: rpc.url, ...env } });
    try {
      return await fn(srv);
    } finally {
      await srv.close();
    }
  }

  it('streams and pages (limit=7) the wallet exactly, and meters each trade once', async () => {
    expect(expected.length).toBeGreaterThanOrEqual(520);
    await withServer({}, async (srv) => {
      const { trades, finals } = await streamAll(srv, world.synth.wallet, 'chain=tron');
      expect(finals.at(-1)).toMatchObject({ complete: true, tradeCount: expected.length, wallet: world.synth.wallet });
      expect(trades).toEqual(expected);

      const paged: string[] = [];
      let cursor = '';
      let last: any;
      for (let i = 0; i < 200; i++) {
        const res = await srv.get(`/v1/wallets/${world.synth.wallet}/history?chain=tron&limit=7${cursor}`);
        expect(res.status).toBe(200);
        const body = await res.text();
        last = JSON.parse(body);
        const text = rawTradesText(body);
        if (text) paged.push(...splitTrades(text));
        if (!last.cursor) break;
        cursor = `&cursor=${encodeURIComponent(last.cursor)}`;
      }
      expect(last).toMatchObject({ complete: true, tradeCount: expected.length, totalPages: Math.ceil(expected.length / 7) });
      expect(paged).toEqual(expected);

      const usage = (await (await srv.get('/v1/usage')).json()).trades;
      expect(usage).toBe(expected.length);
    });
    expect(rpc.stats.notFound).toBe(0);
  }, 120_000);

  it('answers 400 invalid_address for the 41-hex and 0x forms of a Tron address', async () => {
    await withServer({}, async (srv) => {
      for (const a of ['41a614f803b6fd780986a42c78ec9c7f77e6ded13c', '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c']) {
        const res = await srv.get(`/v1/wallets/${a}/history?chain=tron`);
        expect(res.status).toBe(400);
        expect((await res.json()).code).toBe('invalid_address');
      }
    });
  });

  it('gives the same trades across a budget-cut stream resumed while a quarter of the calls get 429', async () => {
    rpc.config.latencyMs = 20;
    rpc.config.faults = { rate: 0.25, kinds: ['429', '429-retry-after'], seed: 4 };
    try {
      await withServer({ STREAM_MAX_SECONDS: '1' }, async (srv) => {
        const { trades, finals } = await streamAll(srv, world.synth.wallet, 'chain=tron');
        expect(finals.length).toBeGreaterThan(1);
        expect(finals[0].complete).toBe(false);
        expect(trades).toEqual(expected);
        expect((await (await srv.get('/v1/usage')).json()).trades).toBe(expected.length);
      });
      expect(rpc.stats.faults['429']).toBeGreaterThan(0);
      expect(rpc.stats.faults['429-retry-after']).toBeGreaterThan(0);
    } finally {
      rpc.config.latencyMs = 2;
      rpc.config.faults = undefined;
    }
  }, 180_000);
});
