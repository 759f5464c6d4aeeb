import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { HistoryError } from '../../core/errors.js';

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

/**
 * PostgreSQL's "not answering" errors: a refused or dropped connection, the server shutting down
 * or starting up (SQLSTATE 57P01-57P03), a connection failure class 08. Those become
 * `store_unavailable` (503 with Retry-After; a loader backs off and tries again); anything else
 * is a real failure and goes on as it is.
 */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03']);
function unavailable(e: unknown): unknown {
  const err = e as { code?: string; message?: string };
  const code = typeof err?.code === 'string' ? err.code : '';
  const gone =
    UNAVAILABLE_CODES.has(code) ||
    code.startsWith('08') ||
    /Connection terminated|connection (is )?closed|Client has encountered a connection error/i.test(err?.message ?? '');
  return gone ? new HistoryError('store_unavailable', 'The database is not answering; retry shortly.', { cause: e, retryable: true, retryAfter: 5 }) : e;
}

async function openPostgres(url: string): Promise<Database> {
  // int8 (counts, sums) as JS numbers: every count here stays far below 2^53.
  pg.types.setTypeParser(20, (v) => Number(v));
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A server restart or a dropped idle connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  await pool.query('select 1');
  const guard = async <T>(f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (e) {
      throw unavailable(e);
    }
  };
  return {
    kind: 'postgres',
    query: (sql, params) => guard(async () => (await pool.query(sql, params)).rows),
    exec: (sql) =>
      guard(async () => {
        await pool.query(sql);
      }),
    transaction: (fn) => guard(() => inTransaction(fn)),
    close: () => pool.end(),
  };

  async function inTransaction<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const out = await fn({ query: async (sql, params) => (await client.query(sql, params)).rows });
      await client.query('COMMIT');
      return out;
    } catch (e) {
      await client.query('ROLLBACK').catch((r: Error) => (broken = r));
      throw e;
    } finally {
      // A connection that could not even roll back is dropped, not handed to the next query.
      client.release(broken);
    }
  }
}
