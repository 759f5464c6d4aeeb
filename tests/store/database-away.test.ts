import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedSource } from '../support/scripted-source.js';
import { randomWallet, rawTradesText, splitTrades, startTestServer, type TestServer } from '../support/test-server.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../support/throwaway-postgres.js';

/**
 * PostgreSQL going away under an open stream, a page and a load, on a server of the test's own:
 * the stream ends in-band with its final line and a cursor, a page gets 503 store_unavailable
 * with Retry-After, and once the database is back the loader resumes by itself and the history
 * completes from the cursor with no gap, no duplicate, and usage equal to what was delivered.
 */
let db: ThrowawayPostgres;
let srv: TestServer;
const source = createScriptedSource({ transactions: 300, batchSize: 10, delayMs: 60 });

beforeAll(async () => {
  db = await startThrowawayPostgres();
  srv = await startTestServer({ sources: { sol: source }, env: { DATABASE_URL: db.url } });
}, 60_000);
afterAll(async () => {
  await srv?.close().catch(() => {});
  await db?.destroy();
});

describe('the database going away', () => {
  it('ends the stream in-band, answers pages 503 with Retry-After, and recovers without a restart', async () => {
    const w = randomWallet();
    const res = await srv.get(`/v1/wallets/${w}/history`);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!/"trades":\[\{/.test(text)) text += decoder.decode((await reader.read()).value, { stream: true });

    await db.stop();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const lines = text.trim().split('\n');
    const final = JSON.parse(lines.at(-1)!);
    expect(final.complete).toBe(false);
    expect(typeof final.cursor).toBe('string');
    const first = lines.slice(0, -1).flatMap((l) => splitTrades(rawTradesText(l)));
    expect(first.length).toBeGreaterThan(0);

    const page = await srv.get(`/v1/wallets/${w}/history?limit=5`);
    expect(page.status).toBe(503);
    expect((await page.json()).code).toBe('store_unavailable');
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);

    await db.start();
    // The loader was left wanting the whole history: it comes back by itself and finishes.
    const loader = await srv.server.loaders.get('sol', w);
    for (let i = 0; i < 200 && !loader.state.complete; i++) await new Promise((r) => setTimeout(r, 100));
    expect(loader.state.complete).toBe(true);

    const rest = await srv.get(`/v1/wallets/${w}/history?cursor=${encodeURIComponent(final.cursor)}`);
    const restLines = (await rest.text()).trim().split('\n');
    const restFinal = JSON.parse(restLines.at(-1)!);
    expect(restFinal.complete).toBe(true);
    const all = [...first, ...restLines.slice(0, -1).flatMap((l) => splitTrades(rawTradesText(l)))].map((t) => JSON.parse(t));
    const want = source.expected(w);
    expect(all.map((t) => `${t.signature}/${t.side}`)).toEqual(want.map((t) => `${t.signature}/${t.side}`));
    expect(restFinal.tradeCount).toBe(want.length);
    expect((await (await srv.get('/v1/usage')).json()).trades).toBe(all.length);
  }, 60_000);
});
