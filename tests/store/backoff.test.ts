import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/lib/server/store/database.js';
import {
  getOrCreateWallet,
  recordFailure,
  RETRY_FIRST_SECONDS,
  RETRY_MAX_SECONDS,
  walletsToResume,
  walletsWithDemand,
} from '../../src/lib/server/store/wallets.js';
import { createWalker } from '../../src/lib/server/sync/walker/create-walker.js';
import type { WalletLoader } from '../../src/lib/server/sync/wallet-loader.js';
import { createScriptedSource } from '../support/scripted-source.js';
import { storeForSuite } from '../support/suite-store.js';
import { BACKENDS, randomWallet } from '../support/test-server.js';

/**
 * A wallet whose load stopped on an RPC failure (issue 21): the server does not resume it on its
 * own (at start, in the workers' sweep) before a backoff that doubles with each failure in a row;
 * a request naming it is served at once, and a stored batch clears the backoff.
 */
describe.each(BACKENDS)('the backoff of a failing wallet on %s', (backend) => {
  const store = storeForSuite(backend);
  let db: Database;
  beforeAll(() => {
    db = store();
  });
  async function until(loader: WalletLoader, done: () => boolean, ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done() && Date.now() < deadline) await loader.nextChange(200);
    expect(done()).toBe(true);
  }
  const backoff = async (id: number) =>
    (
      await db.query<{ failures: number; wait: number | null }>(
        'SELECT failures, extract(epoch FROM retry_at - now())::float8 AS wait FROM wallets WHERE id = $1',
        [id],
      )
    )[0];

  it('waits 30 s after a failure, twice that after the next; a request still loads it, and a stored batch clears it', async () => {
    const source = createScriptedSource({ transactions: 60, batchSize: 10, failImmediately: true });
    const wallet = await getOrCreateWallet(db, 'sol', randomWallet());
    const fail = async () => {
      const w = createWalker({ db, source, wallet: { ...wallet }, headStaleMs: 60_000 });
      await w.wantAll();
      await until(w, () => w.lastError !== null);
      await w.stop();
    };
    await fail();
    let b = await backoff(wallet.id);
    expect(b.failures).toBe(1);
    expect(b.wait).toBeGreaterThan(RETRY_FIRST_SECONDS - 5);
    expect(b.wait).toBeLessThanOrEqual(RETRY_FIRST_SECONDS);
    // Neither the start nor the sweep resumes it; a request naming it is served.
    expect((await walletsToResume(db)).some((w) => w.id === wallet.id)).toBe(false);
    expect((await walletsWithDemand(db)).some((w) => w.id === wallet.id)).toBe(false);
    expect((await walletsWithDemand(db, wallet.id)).map((w) => w.id)).toEqual([wallet.id]);

    await fail();
    b = await backoff(wallet.id);
    expect(b.failures).toBe(2);
    expect(b.wait).toBeGreaterThan(2 * RETRY_FIRST_SECONDS - 5);
    expect(b.wait).toBeLessThanOrEqual(2 * RETRY_FIRST_SECONDS);

    // Its time comes: resumed again.
    await db.query("UPDATE wallets SET retry_at = now() - interval '1 second' WHERE id = $1", [wallet.id]);
    expect((await walletsToResume(db)).some((w) => w.id === wallet.id)).toBe(true);
    expect((await walletsWithDemand(db)).some((w) => w.id === wallet.id)).toBe(true);

    // The RPC is back: the load completes and the backoff is gone.
    source.setFailure({});
    const w = createWalker({ db, source, wallet: { ...wallet }, headStaleMs: 60_000 });
    await w.wantAll();
    await until(w, () => w.state.complete);
    await w.stop();
    expect(await backoff(wallet.id)).toEqual({ failures: 0, wait: null });
  });

  it('waits an hour at most however many failures came in a row', async () => {
    const wallet = await getOrCreateWallet(db, 'sol', randomWallet());
    // float8 power(2, n) overflows past n = 1023: a wallet polled against a dead RPC for hours reaches that.
    await db.query('UPDATE wallets SET failures = 5000 WHERE id = $1', [wallet.id]);
    const r = await recordFailure(db, wallet.id);
    expect(r.failures).toBe(5001);
    const b = await backoff(wallet.id);
    expect(b.wait).toBeGreaterThan(RETRY_MAX_SECONDS - 5);
    expect(b.wait).toBeLessThanOrEqual(RETRY_MAX_SECONDS);
  });
});
