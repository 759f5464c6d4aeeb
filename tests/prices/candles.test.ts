import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/lib/core/chain-source.js';
import { createCandleSource } from '../../src/lib/prices/candle-source.js';
import type { StoredRound } from '../../src/lib/prices/price-source.js';
import { createScriptedSource } from '../support/scripted-source.js';
import { randomWallet, startTestServer, streamAll } from '../support/test-server.js';

/**
 * The optional candle source (issue 22, PRICE_SOURCE=candles) against a local server answering
 * Coinbase Exchange's documented candles shape: `GET /products/<COIN>-USD/candles?granularity=60&
 * start=&end=` → `[[time, low, high, open, close, volume], ...]` newest first, at most 300.
 *
 * The series: ETH-USD and SOL-USD, a candle each minute from M0, open 100 + (k mod 50) + 0.25 and
 * close open + 0.5 for minute k, except that minutes 10-14 of each hour have no candle (no
 * trades then). Other products answer 404.
 */
const M0 = 1_699_999_980; // a minute start (divisible by 60)
const open = (k: number) => `${100 + (k % 50)}.25`;
const close = (k: number) => `${100 + (k % 50)}.75`;
const hasCandle = (k: number) => k >= 0 && !(k % 60 >= 10 && k % 60 < 15);

let server: Server;
let url: string;
let requests = 0;
let failing = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    const u = new URL(req.url!, 'http://x');
    const m = /^\/products\/([A-Z]+)-USD\/candles$/.exec(u.pathname);
    if (failing) return res.writeHead(502).end('bad gateway');
    if (!m || !['ETH', 'SOL'].includes(m[1])) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"NotFound"}');
    if (u.searchParams.get('granularity') !== '60') return res.writeHead(400).end();
    const from = Date.parse(u.searchParams.get('start')!) / 1000;
    const to = Date.parse(u.searchParams.get('end')!) / 1000;
    const rows: number[][] = [];
    for (let t = to - (to % 60); t >= from && rows.length < 300; t -= 60) {
      const k = (t - M0) / 60;
      if (hasCandle(k)) rows.push([t, 1, 1000, Number(open(k)), Number(close(k)), 12.5]);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

/** The rule over the series: the minute's open, else the close of the latest earlier candle of its 300-minute window. */
function expected(t: number): { price: string; roundTime: number } | null {
  const minute = t - (t % 60);
  const k = (minute - M0) / 60;
  if (hasCandle(k)) return { price: open(k), roundTime: minute };
  const windowStart = Math.floor(t / 18_000) * 18_000;
  for (let m = minute - 60; m >= windowStart; m -= 60) if (hasCandle((m - M0) / 60)) return { price: close((m - M0) / 60), roundTime: m + 60 };
  return null;
}

describe('the candle source', () => {
  it('prices times from one request per 5-hour window, and none again from the same store', async () => {
    const rounds = createMemoryCache<StoredRound>();
    const source = createCandleSource({ coin: 'ETH', baseUrl: url, rounds });
    const times = [M0 - 1, M0, M0 + 59, M0 + 11 * 60 + 30, M0 + 3 * 3600 + 7, M0 + 9 * 3600 + 12 * 60, M0 + 20 * 3600 + 1];
    const before = requests;
    const got = await source.pricesAt(times);
    expect(got.map((p) => (p ? { price: p.price, roundTime: p.roundTime } : null))).toEqual(times.map(expected));
    // Before the series: null; in a gap (minute 11): the close of minute 9, in force from minute 10.
    expect(got[0]).toBeNull();
    expect(got[3]).toMatchObject({ price: close(9), roundTime: M0 + 10 * 60 });
    const windows = new Set(times.map((t) => Math.floor(t / 18_000))).size;
    expect(requests - before).toBe(windows);
    // Again, and from a new process on the same store: no request.
    await source.pricesAt(times);
    await createCandleSource({ coin: 'ETH', baseUrl: url, rounds }).pricesAt(times);
    expect(requests - before).toBe(windows);
  });

  it('a coin the exchange does not list has no price; an exchange that fails fails the read', async () => {
    expect(await createCandleSource({ coin: 'MON', baseUrl: url }).pricesAt([M0, M0 + 60])).toEqual([null, null]);
    failing = true;
    try {
      await expect(createCandleSource({ coin: 'ETH', baseUrl: url, retry: { maxRetries: 1, baseDelayMs: 1 } }).pricesAt([M0])).rejects.toThrow(/HTTP 502/);
    } finally {
      failing = false;
    }
  });

  it('serves include=usd on the built server with PRICE_SOURCE=candles', async () => {
    const source = createScriptedSource({ transactions: 40, batchSize: 20 });
    const srv = await startTestServer({ sources: { sol: source }, env: { PRICE_SOURCE: 'candles', PRICE_CANDLES_URL: url, PRICE_WAIT_MS: '60000' } });
    try {
      const w = randomWallet();
      const { trades, finals } = await streamAll(srv, w, 'include=usd');
      expect(finals.at(-1)).toMatchObject({ complete: true, pricesComplete: true });
      for (const text of trades) {
        const t = JSON.parse(text.replace(/"(amountSol|amount|nativeUsd|valueUsd)":([0-9.]+)/g, '"$1":"$2"'));
        expect(t.nativeUsd, t.blockTime).toBe(expected(Date.parse(t.blockTime) / 1000)!.price);
      }
    } finally {
      await srv.close();
    }
  });
});
