import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * The one database seam: PGlite (embedded, a directory) or a PostgreSQL server, with the same
 * SQL, schema and migrations. Everything above talks to `Queryable`.
 */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenDatabaseParameters {
  /** postgres://... or undefined for PGlite. */
  url?: string;
  /** PGlite's directory; `memory://` for a throwaway database. */
  dataDir?: string;
}

export async function openDatabase({ url, dataDir = './data' }: OpenDatabaseParameters): Promise<Database> {
  return url ? openPostgres(url) : openPglite(dataDir);
}

async function openPglite(dataDir: string): Promise<Database> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  const query = async <T>(q: { query: PGlite['query'] }, sql: string, params?: unknown[]) => (await q.query<T>(sql, params as unknown[])).rows;
  return {
    kind: 'pglite',
    query: (sql, params) => query(db, sql, params),
    exec: async (sql) => {
      await db.exec(sql);
    },
    transaction: (fn) => db.transaction((tx) => fn({ query: (sql, params) => query(tx, sql, params) })),
    close: () => db.close(),
  };
}

async function openPostgres(url: string): Promise<Database> {
  // int8 (counts, sums) as JS numbers: every count here stays far below 2^53.
  pg.types.setTypeParser(20, (v) => Number(v));
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A server restart or a dropped idle connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  await pool.query('select 1');
  return {
    kind: 'postgres',
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    exec: async (sql) => {
      await pool.query(sql);
    },
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn({ query: async (sql, params) => (await client.query(sql, params)).rows });
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
