import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeTrade } from '../../src/lib/core/trade.js';
import { createScriptedSource, type ScriptedSource } from '../support/scripted-source.js';
import { STREAM_BACKENDS, randomWallet, rawTradesText, readStream, startTestServer, type TestServer } from '../support/test-server.js';

/** Each test gets its own wallet, so one server per backend serves the whole file. */
describe.each(STREAM_BACKENDS)('stream mode on %s', (backend) => {
  let srv: TestServer;
  const sources = new Map<string, ScriptedSource>();
  beforeAll(async () => {
    // One scripted source per wallet, chosen by the wallet the loader asks for.
    const router = {
      chain: 'sol',
      history: (p: Parameters<ScriptedSource['history']>[0]) => sources.get(p.wallet)!.history(p),
    };
    srv = await startTestServer({ backend, sources: { sol: router } });
  });
  afterAll(() => srv.close());

  function wallet(transactions: number, opts: Partial<Parameters<typeof createScriptedSource>[0]> = {}) {
    const w = randomWallet();
    const s = createScriptedSource({ transactions, ...opts });
    sources.set(w, s);
    return { w, s };
  }

  it.each([0, 1, 999, 25_000])('delivers a history of %i transactions whole, in order, exactly', async (n) => {
    const { w, s } = wallet(n, { batchSize: 250 });
    const res = await srv.get(`/v1/wallets/${w}/history`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const { batches, final, raw } = await readStream(res);
    const expected = s.expected(w);
    const got = batches.flatMap((b) => b.trades);
    expect(got.length).toBe(expected.length);
    // Exact text: amounts such as 1000.000000000000000001 must arrive digit for digit.
    const gotText = raw.slice(0, -1).map(rawTradesText).filter(Boolean).join(',');
    expect(gotText).toBe(expected.map(serializeTrade).join(','));
    for (const b of batches) expect(typeof b.cursor).toBe('string');
    expect(final).toEqual({
      complete: true,
      tradeCount: expected.length,
      wallet: w,
      firstTrade: expected.at(-1)?.blockTime ?? null,
      // The scripted source lists no unexplained transaction here; the count is always there.
      unexplained: 0,
    });
    if (n === 0) expect(final.firstTrade).toBeNull();
  });

  it('answers a second stream of a complete wallet from the store without walking the chain again', async () => {
    const { w, s } = wallet(300);
    await readStream(await srv.get(`/v1/wallets/${w}/history`));
    const walks = s.stats.walks;
    const { final, batches } = await readStream(await srv.get(`/v1/wallets/${w}/history`));
    expect(final.complete).toBe(true);
    expect(batches.flatMap((b) => b.trades).length).toBe(s.expected(w).length);
    expect(s.stats.walks).toBe(walks);
  });

  it('serves a page larger than one store read (limit 5,000) exactly, counted exactly', async () => {
    const { w, s } = wallet(6_000, { batchSize: 1_000 });
    const expected = s.expected(w);
    await readStream(await srv.get(`/v1/wallets/${w}/history`));
    const res = await srv.get(`/v1/wallets/${w}/history?limit=5000`);
    const body = await res.text();
    expect(res.headers.get('x-usage-trades')).toBe('0');
    expect(rawTradesText(body)).toBe(expected.slice(0, 5_000).map(serializeTrade).join(','));
    const page = JSON.parse(body);
    expect(page).toMatchObject({ complete: true, tradeCount: expected.length, pageSize: 5_000, totalPages: Math.ceil(expected.length / 5_000) });
    const rest = await (await srv.get(`/v1/wallets/${w}/history?limit=5000&cursor=${encodeURIComponent(page.cursor)}`)).text();
    expect(rawTradesText(rest)).toBe(expected.slice(5_000).map(serializeTrade).join(','));
    expect(JSON.parse(rest).cursor).toBeUndefined();
  });

  it('resumes from any batch cursor with no gap and no duplicate', async () => {
    const { w, s } = wallet(1_000, { batchSize: 100 });
    const first = await readStream(await srv.get(`/v1/wallets/${w}/history`));
    const all = first.batches.flatMap((b) => b.trades.map((t: any) => `${t.signature}/${t.side}`));
    // Resume from the cursor of every batch line: the rest must be exactly what followed it.
    let seen = 0;
    for (const b of first.batches.slice(0, 4)) {
      seen += b.trades.length;
      const rest = await readStream(await srv.get(`/v1/wallets/${w}/history?cursor=${encodeURIComponent(b.cursor)}`));
      expect(rest.batches.flatMap((x) => x.trades.map((t: any) => `${t.signature}/${t.side}`))).toEqual(all.slice(seen));
      expect(rest.final.complete).toBe(true);
    }
    expect(all.length).toBe(s.expected(w).length);
  });
});
