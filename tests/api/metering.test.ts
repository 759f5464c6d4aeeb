import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedSource, type ScriptedSource } from '../support/scripted-source.js';
import { BACKENDS, OTHER_KEY, randomWallet, readStream, startTestServer, TEST_KEY, type TestServer } from '../support/test-server.js';

describe.each(BACKENDS)('metering on %s', (backend) => {
  let srv: TestServer;
  const sources = new Map<string, ScriptedSource>();
  beforeAll(async () => {
    srv = await startTestServer({ backend, sources: { sol: { chain: 'sol', history: (p) => sources.get(p.wallet)!.history(p) } } });
  });
  afterAll(() => srv.close());

  const usage = async (key: string) => (await (await srv.get('/v1/usage', key)).json()).trades as number;
  function wallet(transactions: number, batchSize = 50) {
    const w = randomWallet();
    const s = createScriptedSource({ transactions, batchSize });
    sources.set(w, s);
    return { w, total: s.expected(w).length };
  }

  it('counts each trade once per account across re-reads, resumes and page walks', async () => {
    const { w, total } = wallet(500);
    const u0 = await usage(TEST_KEY);
    const first = await readStream(await srv.get(`/v1/wallets/${w}/history`));
    expect(await usage(TEST_KEY)).toBe(u0 + total);
    // The same wallet streamed again, resumed from an early cursor, and walked in pages: nothing new.
    await readStream(await srv.get(`/v1/wallets/${w}/history`));
    expect(first.final.complete).toBe(true);
    const mid = await (await srv.get(`/v1/wallets/${w}/history?limit=150`)).json();
    await readStream(await srv.get(`/v1/wallets/${w}/history?cursor=${encodeURIComponent(mid.cursor)}`));
    let cursor = '';
    let pages = 0;
    for (;;) {
      const res = await srv.get(`/v1/wallets/${w}/history?limit=97${cursor}`);
      expect(res.headers.get('x-usage-trades')).toBe('0');
      const p = await res.json();
      pages++;
      if (!p.cursor) break;
      cursor = `&cursor=${encodeURIComponent(p.cursor)}`;
    }
    expect(pages).toBe(Math.ceil(total / 97));
    expect(await usage(TEST_KEY)).toBe(u0 + total);
  });

  it('counts a page walk as it goes and says so in X-Usage-Trades', async () => {
    const { w, total } = wallet(120);
    const u0 = await usage(TEST_KEY);
    const a = await srv.get(`/v1/wallets/${w}/history?limit=30`);
    expect(a.headers.get('x-usage-trades')).toBe('30');
    const pa = await a.json();
    // Re-reading the same page counts nothing; the next page counts its own rows.
    expect((await srv.get(`/v1/wallets/${w}/history?limit=30`)).headers.get('x-usage-trades')).toBe('0');
    const b = await srv.get(`/v1/wallets/${w}/history?limit=40&cursor=${encodeURIComponent(pa.cursor)}`);
    expect(b.headers.get('x-usage-trades')).toBe('40');
    // A page that overlaps both: only the part never delivered counts.
    const c = await srv.get(`/v1/wallets/${w}/history?limit=100`);
    expect(c.headers.get('x-usage-trades')).toBe('30');
    expect(await usage(TEST_KEY)).toBe(u0 + 100);
    // A stream of the rest adds exactly the rest.
    await readStream(await srv.get(`/v1/wallets/${w}/history`));
    expect(await usage(TEST_KEY)).toBe(u0 + total);
  });

  it('counts once under concurrent readers of one account, and separately per account', async () => {
    const { w, total } = wallet(800);
    const a0 = await usage(TEST_KEY);
    const b0 = await usage(OTHER_KEY);
    await Promise.all([
      ...Array.from({ length: 6 }, () => srv.get(`/v1/wallets/${w}/history`).then(readStream)),
      ...Array.from({ length: 4 }, () => srv.get(`/v1/wallets/${w}/history?limit=333`).then((r) => r.json())),
      srv.get(`/v1/wallets/${w}/history`, OTHER_KEY).then(readStream),
    ]);
    expect(await usage(TEST_KEY)).toBe(a0 + total);
    expect(await usage(OTHER_KEY)).toBe(b0 + total);
  });
});
