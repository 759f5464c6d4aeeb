import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedSource, type ScriptedSource } from '../support/scripted-source.js';
import { eachLine, randomWallet, readStream, sleep, startTestServer, type TestServer } from '../support/test-server.js';
const ids = (trades: any[]) => trades.map((t) => `${t.signature}/${t.side}/${t.tokenMint}`);

/** A server whose sources are chosen per wallet, so each test scripts its own history. */
async function scriptedServer(env: Record<string, string>) {
  const sources = new Map<string, ScriptedSource>();
  const srv = await startTestServer({
    sources: { sol: { chain: 'sol', history: (p) => sources.get(p.wallet)!.history(p) } },
    env,
  });
  const wallet = (transactions: number, opts: Partial<Parameters<typeof createScriptedSource>[0]> = {}) => {
    const w = randomWallet();
    const s = createScriptedSource({ transactions, ...opts });
    sources.set(w, s);
    return { w, s };
  };
  return { srv, wallet };
}

async function waitFor(cond: () => Promise<boolean> | boolean, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(50);
  }
}

describe('with a 2 s budget', () => {
  let srv: TestServer;
  let wallet: Awaited<ReturnType<typeof scriptedServer>>['wallet'];
  beforeAll(async () => ({ srv, wallet } = await scriptedServer({ STREAM_MAX_SECONDS: '2' })));
  afterAll(() => srv.close());

  it('cuts a stream with complete:false and a cursor, keeps loading, and resumes with no gap or duplicate', async () => {
    const { w, s } = wallet(400, { batchSize: 20, delayMs: 200 }); // 20 batches x 200 ms = 4 s > 2 s
    const t0 = Date.now();
    const first = await readStream(await srv.get(`/v1/wallets/${w}/history`));
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(1_900);
    expect(took).toBeLessThan(4_000);
    expect(first.final.complete).toBe(false);
    expect(typeof first.final.cursor).toBe('string');
    expect(first.final.wallet).toBe(w);
    const got = first.batches.flatMap((b) => b.trades);
    expect(got.length).toBeGreaterThan(0);
    expect(first.final.tradeCount).toBeGreaterThanOrEqual(got.length);
    // Loading goes on after the response ended.
    const yieldedAtEnd = s.stats.tradesYielded;
    await sleep(600);
    expect(s.stats.tradesYielded).toBeGreaterThan(yieldedAtEnd);
    // Resume until complete: the concatenation is the history, exactly once each.
    let cursor = first.final.cursor;
    const all = [...got];
    for (let i = 0; i < 10 && cursor; i++) {
      const r = await readStream(await srv.get(`/v1/wallets/${w}/history?cursor=${encodeURIComponent(cursor)}`));
      all.push(...r.batches.flatMap((b) => b.trades));
      cursor = r.final.complete ? null : r.final.cursor;
      if (r.final.complete) expect(r.final.tradeCount).toBe(s.expected(w).length);
    }
    expect(cursor).toBeNull();
    expect(ids(all)).toEqual(ids(s.expected(w)));
  });

  it.each([1, 7, 1_000])(
    'walks pages of limit %i: an empty page with a cursor while loading, then complete with totalPages',
    async (limit) => {
      // Each batch takes longer than the budget, so the first page finds nothing yet.
      const { w, s } = wallet(30, { batchSize: 10, delayMs: 2_300 });
      const all: any[] = [];
      let cursor: string | undefined;
      let sawEmptyLoading = false;
      let last: any;
      for (let i = 0; i < 400; i++) {
        const res = await srv.get(`/v1/wallets/${w}/history?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status).toBe(200);
        last = await res.json();
        expect(last.pageSize).toBe(limit);
        expect(last.trades.length).toBeLessThanOrEqual(limit);
        if (!last.complete) {
          expect(last.totalPages).toBeUndefined();
          expect(typeof last.cursor).toBe('string');
          if (last.trades.length === 0) sawEmptyLoading = true;
        }
        all.push(...last.trades);
        if (!last.cursor) break;
        cursor = last.cursor;
      }
      expect(sawEmptyLoading).toBe(true);
      expect(last.complete).toBe(true);
      const total = s.expected(w).length;
      expect(last.tradeCount).toBe(total);
      expect(last.totalPages).toBe(Math.ceil(total / limit));
      expect(ids(all)).toEqual(ids(s.expected(w)));
    },
    120_000,
  );
});

describe('with the default budget', () => {
  let srv: TestServer;
  let wallet: Awaited<ReturnType<typeof scriptedServer>>['wallet'];
  beforeAll(async () => ({ srv, wallet } = await scriptedServer({ HEAD_STALE_SECONDS: '1' })));
  afterAll(() => srv.close());

  it('limit=10 on a 100,000-trade history fetches at most 10 trades plus one batch', async () => {
    const { w, s } = wallet(100_000, { batchSize: 100 });
    const res = await srv.get(`/v1/wallets/${w}/history?limit=10`);
    const page = await res.json();
    expect(page.trades).toHaveLength(10);
    expect(page.complete).toBe(false);
    expect(page.cursor).toBeTruthy();
    expect(res.headers.get('x-usage-trades')).toBe('10');
    await sleep(300); // nothing keeps loading after a page is filled
    expect(s.stats.batchesYielded).toBe(1);
    expect(s.stats.tradesYielded).toBeLessThanOrEqual(10 + 115);
    expect(ids(page.trades)).toEqual(ids(s.expected(w).slice(0, 10)));
  });

  it('keeps loading to the end after a client disconnects mid-stream', async () => {
    const { w, s } = wallet(600, { batchSize: 20, delayMs: 40 });
    const ac = new AbortController();
    const res = await srv.get(`/v1/wallets/${w}/history`, undefined, { signal: ac.signal });
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('"trades"');
    ac.abort();
    await reader.cancel().catch(() => {});
    const total = s.expected(w).length;
    await waitFor(async () => (await srv.server.loaders.get('sol', w)).state.complete);
    expect((await srv.server.loaders.get('sol', w)).state.tradeCount).toBe(total);
    expect(s.stats.tradesYielded).toBe(total);
  });

  it('fetches new trades at the head when the stored head is older than the staleness window', async () => {
    const { w, s } = wallet(50);
    const before = await readStream(await srv.get(`/v1/wallets/${w}/history`));
    expect(before.final.complete).toBe(true);
    s.append(5);
    await sleep(1_100);
    const after = await readStream(await srv.get(`/v1/wallets/${w}/history`));
    expect(after.final).toMatchObject({ complete: true, tradeCount: s.expected(w).length });
    expect(ids(after.batches.flatMap((b) => b.trades))).toEqual(ids(s.expected(w)));
    // A page from the top sees the newest trade first.
    const page = await (await srv.get(`/v1/wallets/${w}/history?limit=1`)).json();
    expect(page.trades[0].signature).toBe(s.expected(w)[0].signature);
  });

  it('writes empty batch lines with a cursor while the source is silent for more than 10 s', async () => {
    const { w, s } = wallet(5, { batchSize: 5, delayMs: 12_500 });
    const t0 = Date.now();
    const res = await srv.get(`/v1/wallets/${w}/history`);
    const arrivals: { at: number; line: string }[] = [];
    await eachLine(res, (line) => arrivals.push({ at: Date.now() - t0, line }));
    // An empty line with a cursor at once (headers leave with it), then at least every 10 s while
    // the source is silent, then the trades when they come.
    const lines = arrivals.map((a) => ({ ...a, json: JSON.parse(a.line) }));
    const firstData = lines.findIndex((l) => l.json.trades?.length);
    expect(firstData).toBeGreaterThanOrEqual(2);
    for (const l of lines.slice(0, firstData)) {
      expect(l.json.trades).toEqual([]);
      expect(typeof l.json.cursor).toBe('string');
    }
    expect(lines[0].at).toBeLessThan(2_500);
    let previous = 0;
    for (const l of lines) {
      expect(l.at - previous).toBeLessThan(10_500);
      previous = l.at;
    }
    expect(lines[firstData].at).toBeGreaterThanOrEqual(12_000);
    const final = JSON.parse(arrivals.at(-1)!.line);
    expect(final.complete).toBe(true);
    expect(final.tradeCount).toBe(s.expected(w).length);
  }, 30_000);
});

describe('with default settings', () => {
  let srv: TestServer;
  let wallet: Awaited<ReturnType<typeof scriptedServer>>['wallet'];
  beforeAll(async () => ({ srv, wallet } = await scriptedServer({})));
  afterAll(() => srv.close());

  it('serves 20 concurrent streams of one wallet with one load', async () => {
    const { w, s } = wallet(2_000, { batchSize: 100, delayMs: 5 });
    const results = await Promise.all(Array.from({ length: 20 }, () => srv.get(`/v1/wallets/${w}/history`).then(readStream)));
    // One walk, and no trade fetched twice.
    expect(s.stats.walks).toBe(1);
    expect(s.stats.refreshes).toBe(0);
    expect(s.stats.tradesYielded).toBe(s.expected(w).length);
    for (const r of results) {
      expect(r.final.complete).toBe(true);
      expect(ids(r.batches.flatMap((b) => b.trades))).toEqual(ids(s.expected(w)));
    }
  });
});
