import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/lib/server/store/database.js';
import { migrate } from '../../src/lib/server/store/migrations.js';
import { createSharedLimiter } from '../../src/lib/server/sync/shared-limiter.js';
import { createTestDatabase } from '../support/test-server.js';

/**
 * RPC_RPS_<SLUG> across instances: two instances (own connection pools and limiters) at 5
 * requests per second for one chain start 20 requests together; the upstream must see at most 5
 * starts in any second of the database's clock, not 10.
 */
const run = process.env.TEST_DATABASE_URL ? describe : describe.skip;

run('the RPC request rate shared through PostgreSQL', () => {
  let test: { url: string; drop(): Promise<void> };
  const dbs: Database[] = [];
  beforeAll(async () => {
    test = await createTestDatabase();
    for (let i = 0; i < 2; i++) dbs.push(await openDatabase({ url: test.url }));
    await migrate(dbs[0]);
  });
  afterAll(async () => {
    for (const db of dbs) await db.close();
    await test?.drop();
  });

  it('two instances at 5 requests per second start 5 per second in all', async () => {
    const limiters = dbs.map((db) => createSharedLimiter({ db, chain: 'sol', requestsPerSecond: 5, maxInFlight: 8 }));
    const t0 = Date.now();
    let started = 0;
    await Promise.all(
      limiters.flatMap((l) =>
        Array.from({ length: 10 }, () =>
          l.run(async () => {
            started++;
          }),
        ),
      ),
    );
    const elapsed = Date.now() - t0;
    expect(started).toBe(20);
    const rows = await dbs[0].query<{ count: number }>(`SELECT count FROM rpc_rate WHERE chain = 'sol' ORDER BY second`);
    expect(rows.reduce((n, r) => n + Number(r.count), 0)).toBe(20);
    for (const r of rows) expect(Number(r.count)).toBeLessThanOrEqual(5);
    // 20 starts at 5 a second fill four seconds of the clock: three boundaries crossed, so more
    // than two whole seconds passed (10 a second, the instances' sum, would have taken one).
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(elapsed).toBeGreaterThanOrEqual(1_950);
  });
});
