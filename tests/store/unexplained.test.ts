import { beforeAll, describe, expect, it } from 'vitest';
import { serializeUnexplained } from '../../src/lib/core/activity.js';
import type { Database } from '../../src/lib/server/store/database.js';
import { getOrCreateWallet, getWalletById } from '../../src/lib/server/store/wallets.js';
import { createWalker } from '../../src/lib/server/sync/walker/create-walker.js';
import type { WalletLoader } from '../../src/lib/server/sync/wallet-loader.js';
import { createScriptedSource, type ScriptedSource } from '../support/scripted-source.js';
import { storeForSuite } from '../support/suite-store.js';
import { BACKENDS, randomWallet } from '../support/test-server.js';

/**
 * Unexplained transactions below the API (issue 20): written by the statement that writes the
 * trades of the same batch, so a walk that fails half-way and resumes (a crash, a restart) ends
 * with the same list as a clean one, each transaction once, and the count the final line reports.
 */
describe.each(BACKENDS)('unexplained transactions on %s', (backend) => {
  const store = storeForSuite(backend);
  let db: Database;
  beforeAll(() => {
    db = store();
  });

  const walker = async (address: string, source: ScriptedSource) =>
    createWalker({ db, source, wallet: await getOrCreateWallet(db, 'sol', address), headStaleMs: 60_000 });
  async function until(loader: WalletLoader, done: () => boolean, ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done() && Date.now() < deadline) await loader.nextChange(200);
    expect(done()).toBe(true);
  }
  const stored = async (walletId: number) =>
    (await db.query<{ json: string }>('SELECT json FROM unexplained WHERE wallet_id = $1 ORDER BY k DESC', [walletId])).map((r) => r.json);

  it('a walk that fails half-way and is resumed by another walker stores the same list as a clean walk, each once', async () => {
    const clean = randomWallet();
    const a = await walker(clean, createScriptedSource({ transactions: 500, batchSize: 30, unexplainedEvery: 7 }));
    await a.wantAll();
    await until(a, () => a.state.complete);
    await a.stop();

    const crashed = randomWallet();
    // The source fails after 6 batches, and every walk after that: the walker stops with the
    // error; a new walker (a restarted process) resumes from what was stored.
    const failing = createScriptedSource({ transactions: 500, batchSize: 30, unexplainedEvery: 7, failAfterBatches: 6 });
    const b = await walker(crashed, failing);
    await b.wantAll();
    await until(b, () => b.lastError !== null || b.state.complete);
    await b.stop();
    const half = await getWalletById(db, b.state.id);
    expect(half.complete).toBe(false);
    expect(half.unexplainedCount).toBeGreaterThan(0);
    const c = await walker(crashed, createScriptedSource({ transactions: 500, batchSize: 30, unexplainedEvery: 7 }));
    await c.wantAll();
    await until(c, () => c.state.complete);
    await c.stop();

    const source = createScriptedSource({ transactions: 500, unexplainedEvery: 7 });
    for (const [address, id] of [
      [clean, a.state.id],
      [crashed, c.state.id],
    ] as const) {
      const want = source.expectedUnexplained(address).map(serializeUnexplained);
      expect(want.length).toBe(72);
      expect(await stored(id)).toEqual(want);
      expect((await getWalletById(db, id)).unexplainedCount).toBe(72);
    }
  });
});
