import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLines } from '../support/follow-lines.js';
import { createScriptedSource, tradesOf } from '../support/scripted-source.js';
import { createTestDatabase, randomWallet, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A follow stream on an instance that does not walk (issue 24): ROLE=api and ROLE=worker on one
 * PostgreSQL database. The API instance's stage asks the workers for refreshes; the worker stores
 * the new trades; the API instance's stream hears of the commit through the wallet's NOTIFY and
 * sends them, well before its 15 s empty line would have re-read the store.
 */
let db: { url: string; drop(): Promise<void> };
let worker: TestServer;
let api: TestServer;
const source = createScriptedSource({ transactions: 6, batchSize: 3 });
beforeAll(async () => {
  db = await createTestDatabase();
  worker = await startTestServer({ sources: { sol: source }, env: { DATABASE_URL: db.url, ROLE: 'worker' } });
  api = await startTestServer({
    sources: { sol: createScriptedSource({ transactions: 0 }) },
    env: { DATABASE_URL: db.url, ROLE: 'api', FOLLOW_MAX_SECONDS: '30' },
  });
}, 60_000);
afterAll(async () => {
  await api?.close();
  await worker?.close();
  await db?.drop();
});

describe('follow=true across instances', () => {
  it('a trade the worker stores reaches the API instance’s follow stream within seconds', async () => {
    const w = randomWallet();
    let appendedAt = 0;
    const lines = await readLines(await api.get(`/v1/wallets/${w}/history?follow=true`), (l, all) => {
      if (l.complete === true && !appendedAt) {
        appendedAt = Date.now();
        source.append(1);
      }
      return all.some((x) => x.live && x.trades?.length);
    });
    const live = lines.filter((l) => l.live && l.trades?.length);
    expect(live[0].trades!.map((t) => t.signature)).toEqual([tradesOf(w, 6)[0].signature]);
    // The fallback poll (3 s) asks the worker; the commit's NOTIFY wakes the stream before its
    // first 15 s empty line would have re-read the store.
    expect(lines.filter((l) => l.live && !l.trades?.length)).toEqual([]);
  }, 40_000);
});
