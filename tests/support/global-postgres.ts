import { startThrowawayPostgres, type ThrowawayPostgres } from './throwaway-postgres.js';

/**
 * Vitest global setup: the PostgreSQL suites need a server. With TEST_DATABASE_URL set (CI points
 * it at the machine's server) that one is used; without it, a throwaway PostgreSQL of the run's own
 * is started (about a second) so `npm test` alone runs every suite, and stopped at the end.
 */
let pg: ThrowawayPostgres | undefined;

export async function setup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL || process.env.TEST_NO_POSTGRES) return;
  pg = await startThrowawayPostgres();
  // Workers are forked after this: they inherit it.
  process.env.TEST_DATABASE_URL = pg.url;
}

export async function teardown(): Promise<void> {
  await pg?.destroy();
}
