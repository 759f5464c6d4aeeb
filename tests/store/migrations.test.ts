import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/lib/server/store/database.js';
import { migrate } from '../../src/lib/server/store/migrations.js';
import { createTestDatabase } from '../support/test-server.js';

/**
 * Servers started together on one fresh PostgreSQL database migrate it once between them. Each
 * "instance" here is a pool of its own (its own connections), as separate processes would have;
 * before the lock was taken first, about one round in three to eight crashed on a duplicate
 * pg_type key from two concurrent `CREATE TABLE IF NOT EXISTS schema_migrations`.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('migrations on PostgreSQL', () => {
  it('ten rounds of three instances migrating a fresh database at the same moment all succeed', async () => {
    for (let round = 0; round < 10; round++) {
      const fresh = await createTestDatabase();
      const instances = await Promise.all([0, 1, 2].map(() => openDatabase({ url: fresh.url })));
      try {
        const results = await Promise.allSettled(instances.map((db) => migrate(db)));
        expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
        const versions = await instances[0].query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
        expect(versions.map((v) => Number(v.version))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
        // Migrating again (a restart) changes nothing.
        await migrate(instances[1]);
        expect((await instances[2].query('SELECT count(*)::int AS n FROM schema_migrations'))[0]).toEqual({ n: 13 });
      } finally {
        await Promise.all(instances.map((db) => db.close()));
        await fresh.drop();
      }
    }
  });
});
