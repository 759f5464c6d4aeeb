import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedSource, type ScriptedSource } from '../support/scripted-source.js';
import { OTHER_KEY, randomWallet, readStream, startTestServer, STREAM_BACKENDS, type TestServer } from '../support/test-server.js';

/**
 * GET /v1/wallets/{address}/unexplained through the app's route file, on a scripted source that
 * lists every fifth transaction (from 1) as unexplained beside its trades (issue 20): the list is
 * stored with the trades of the same batch, paged newest first with its own cursors, counted in the
 * stream's final line, not metered, and validated as history is.
 */
describe.each(STREAM_BACKENDS.slice(0, 2))('the unexplained list on %s', (backend) => {
  let srv: TestServer;
  let source: ScriptedSource;
  beforeAll(async () => {
    source = createScriptedSource({ transactions: 230, batchSize: 40, unexplainedEvery: 5 });
    srv = await startTestServer({ backend, sources: { sol: source } });
  });
  afterAll(async () => srv?.close());

  const parse = (text: string) => JSON.parse(text.replace(/"amount":(-?[0-9.]+)/g, '"amount":"$1"'));

  it('pages newest first through every unexplained transaction, exact amounts, after a stream loaded the wallet', async () => {
    const w = randomWallet();
    const { final } = await readStream(await srv.get(`/v1/wallets/${w}/history`));
    expect(final).toMatchObject({ complete: true, tradeCount: source.expected(w).length, unexplained: 46 });
    const want = source.expectedUnexplained(w).map(({ position: _, ...u }) => u);
    expect(want.length).toBe(46);
    const got: unknown[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const res = await srv.get(`/v1/wallets/${w}/unexplained?limit=20${cursor}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-usage-trades')).toBe('0');
      const page = parse(await res.text());
      pages++;
      expect(page).toMatchObject({ wallet: w, complete: true, unexplainedCount: 46, pageSize: 20 });
      got.push(...page.unexplained);
      if (!page.cursor) break;
      cursor = `&cursor=${encodeURIComponent(page.cursor)}`;
    }
    expect(pages).toBe(3);
    expect(got).toEqual(want);
    // Not metered: the account's usage is the stream's trades only.
    expect((await (await srv.get('/v1/usage')).json()).trades).toBe(source.expected(w).length);
  });

  it("a cold wallet's first page starts its load and says it is incomplete, with a cursor to go on from", async () => {
    const w = randomWallet();
    const page = parse(await (await srv.get(`/v1/wallets/${w}/unexplained`, OTHER_KEY)).text());
    expect(page.pageSize).toBe(100);
    if (!page.complete) expect(typeof page.cursor).toBe('string');
    // The load goes on: the list ends with every unexplained transaction.
    const deadline = Date.now() + 60_000;
    let last = page;
    while (!last.complete && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      last = parse(await (await srv.get(`/v1/wallets/${w}/unexplained?limit=1000`, OTHER_KEY)).text());
    }
    expect(last.complete).toBe(true);
    expect(last.unexplained.length).toBe(46);
    expect(last.cursor).toBeUndefined();
  }, 90_000);

  it('refuses what history refuses: a bad address, an unknown chain, a bad limit, a history cursor, another wallet’s cursor', async () => {
    const w = randomWallet();
    const historyPage = await (await srv.get(`/v1/wallets/${w}/history?limit=1`)).json();
    const listPage = await (await srv.get(`/v1/wallets/${w}/unexplained?limit=1`)).json();
    const cases: Array<[string, number, string]> = [
      [`/v1/wallets/not-an-address/unexplained`, 400, 'invalid_address'],
      [`/v1/wallets/${w}/unexplained?chain=nope`, 400, 'unknown_chain'],
      [`/v1/wallets/${w}/unexplained?limit=0`, 400, 'invalid_limit'],
      [`/v1/wallets/${w}/unexplained?cursor=${encodeURIComponent(historyPage.cursor)}`, 400, 'invalid_cursor'],
      [`/v1/wallets/${randomWallet()}/unexplained?cursor=${encodeURIComponent(listPage.cursor)}`, 400, 'invalid_cursor'],
    ];
    for (const [path, status, code] of cases) {
      const res = await srv.get(path);
      expect(res.status, path).toBe(status);
      expect((await res.json()).code, path).toBe(code);
    }
    expect((await srv.get(`/v1/wallets/${w}/unexplained`, null)).status).toBe(401);
    expect((await srv.get(`/v1/wallets/${w}/unexplained`, undefined, { method: 'POST' })).status).toBe(405);
  });
});
