import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database } from '../../src/lib/server/store/database.js';
import { migrate } from '../../src/lib/server/store/migrations.js';
import { createTestDatabase } from './test-server.js';

/**
 * A migrated store of `backend` for the calling describe block: a throwaway PostgreSQL database
 * (dropped after), or PGlite in memory. Returns a getter: the store exists once the block's
 * tests run.
 */
export function storeForSuite(backend: 'pglite' | 'postgres'): () => Database {
  let db: Database | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (backend === 'postgres') {
      const t = await createTestDatabase();
      drop = t.drop;
      db = await openDatabase({ url: t.url });
    } else db = await openDatabase({ dataDir: 'memory://' });
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });
  return () => {
    if (!db) throw new Error('the suite store is opened before the tests run');
    return db;
  };
}
