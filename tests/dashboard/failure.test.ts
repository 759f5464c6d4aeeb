import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DashboardDb } from '../../src/lib/dashboard/db.js';
import { WalletLoader } from '../../src/lib/dashboard/loader.js';
import { createScriptedSource, type ScriptedSource } from '../support/scripted-source.js';
import { randomWallet, startTestServer, TEST_KEY, type TestServer } from '../support/test-server.js';

/**
 * A load whose RPC fails on the server (issue 21): the stream's final line says why, and the
 * dashboard's load ends with that reason (status `error`, the rows and cursor reached kept) instead
 * of asking again every second with a progress bar that never ends; a retry goes on from the
 * cursor and loses nothing. The real API over a socket, on a scripted source that fails.
 */
let db: DashboardDb;
let seq = 0;
let srv: TestServer;
let source: ScriptedSource;
beforeAll(async () => {
  source = createScriptedSource({ transactions: 120, batchSize: 10 });
  srv = await startTestServer({ sources: { sol: source } });
});
afterAll(async () => srv?.close());
beforeEach(async () => {
  db = new DashboardDb(`failure-${++seq}`);
  await db.open();
});
afterEach(() => db.close());

describe('a load whose RPC fails on the server', () => {
  it('ends with the reason the final line gives, keeps what it stored, and a retry completes it without a duplicate', async () => {
    const w = randomWallet();
    const calls: string[] = [];
    const counting: typeof fetch = (input, init) => {
      calls.push(new URL(String(input)).pathname);
      return fetch(input, init);
    };
    const loader = () => new WalletLoader({ db, api: () => ({ baseUrl: srv.url, apiKey: TEST_KEY, fetch: counting }), retryDelayMs: 5 });
    source.setFailure({ failAfterBatches: source.stats.batchesYielded + 4 });
    const failed = await loader().load({ chain: 'sol', address: w, mode: 'api' });
    expect(failed).toMatchObject({
      status: 'error',
      errorCode: 'upstream_unavailable',
      error: 'The sol RPC could not be reached or answered with an HTTP error; loading stopped here and resumes from the cursor.',
    });
    expect(failed.tradeCount).toBeGreaterThan(0);
    // One call of the stream: not asked again once the server said its load stopped.
    expect(calls.filter((p) => p.endsWith('/history')).length).toBe(1);
    expect(failed.walk?.cursor).toBeTruthy();

    source.setFailure({});
    const done = await loader().load({ chain: 'sol', address: w, mode: 'api' });
    expect(done).toMatchObject({ status: 'complete', error: null, tradeCount: source.expected(w).length });
  });
});
