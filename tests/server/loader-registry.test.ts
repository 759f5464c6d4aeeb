import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/lib/server/store/database.js';
import { createLoaderRegistry } from '../../src/lib/server/sync/loader-registry.js';
import { createScriptedSource } from '../support/scripted-source.js';
import { openMemoryDatabase, randomWallet, sleep } from '../support/test-server.js';

describe('the loader registry', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openMemoryDatabase();
  });
  afterAll(() => db.close());

  it('gives one loader per wallet, drops idle ones (state stays in the store), and keeps a walking one', async () => {
    const slow = createScriptedSource({ transactions: 40, batchSize: 10, delayMs: 150 });
    const registry = createLoaderRegistry({ db, sourceFor: () => slow, headStaleMs: 60_000, idleMs: 100 });
    try {
      const idle = randomWallet();
      const busy = randomWallet();
      const [a, b] = await Promise.all([registry.get('sol', idle), registry.get('sol', idle)]);
      expect(a).toBe(b);
      const walking = await registry.get('sol', busy);
      await walking.wantAll();
      await sleep(350);
      // The idle loader was dropped: a new instance, built from the stored state.
      expect(await registry.get('sol', idle)).not.toBe(a);
      // The walking one was kept, and finishes.
      expect(walking.running).toBe(true);
      expect(await registry.get('sol', busy)).toBe(walking);
      while (walking.running) await sleep(50);
      expect(walking.state.complete).toBe(true);
      expect(walking.state.tradeCount).toBe(slow.expected(busy).length);
    } finally {
      await registry.stopAll();
    }
  });
});
