import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { HistoryError } from '../../core/errors.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';

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
  /**
   * LISTEN on a channel: `fn` gets each NOTIFY's payload, from any connection (any instance on
   * this database). Resolves to the unsubscribe.
   */
  listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenDatabaseParameters {
  /** postgres://... or undefined for PGlite. */
  url?: string;
  /** PGlite's directory; `memory://` for a throwaway database. */
  dataDir?: string;
  /** Let V8 tier PGlite's hot WebAssembly up to optimized code (PGLITE_OPTIMIZE; see leanWasm). */
  pgliteOptimize?: boolean;
  /** PostgreSQL connections this process keeps (DATABASE_POOL_SIZE, default 10). */
  poolSize?: number;
}

export async function openDatabase({ url, dataDir = './data', pgliteOptimize = false, poolSize = 10 }: OpenDatabaseParameters): Promise<Database> {
  return url ? openPostgres(url, poolSize) : openPglite(dataDir, pgliteOptimize);
}

/**
 * PGlite's memory, measured on this machine (RSS of the process, PGlite 0.5): PGlite starts
 * PostgreSQL with shared_buffers = 160 MB inside its WebAssembly heap, which never shrinks; with
 * 16 MB an open data directory costs 186 MB instead of 313 MB. Pages the cache does not hold are
 * read through the kernel's page cache (real files), which RSS does not count. wal_buffers follows
 * shared_buffers (1/32).
 */
const PGLITE_CONF = 'shared_buffers = 16MB\n';

/**
 * A new data directory is created (initdb) in a short-lived process of its own: initdb grows
 * the WebAssembly heap to ~660 MB, which the process keeps (853 MB RSS after a first start in
 * process, against 186 MB on a directory that exists).
 */
async function initDataDir(dataDir: string): Promise<void> {
  const script = `const { PGlite } = await import(process.argv[1]); const db = await PGlite.create(process.argv[2]); await db.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, import.meta.resolve('@electric-sql/pglite'), dataDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`creating the embedded database in ${dataDir} failed (exit ${code}): ${err.trim().slice(-500)}`);
}

/**
 * V8 compiles WebAssembly twice: a quick baseline (Liftoff) at once, then optimized code for the
 * functions that run hot. For PGlite the optimized code costs about 45 MB of RSS that stays
 * (idle server 240-260 MB → 190-200 MB here); the baseline is about 18% slower on bulk writes
 * (the api benchmark's load: 20,900 → 17,100 trades/s) and as fast on reads (1,000-row page p50
 * 6.5 ms either way). Loads wait on the network far longer than on the store (the Tron
 * benchmark: 0.9 s of store time in a 59 s walk), so memory wins by default. The flag is
 * process-wide and read when a module is compiled: set before PGlite compiles its module.
 */
function leanWasm(): void {
  v8.setFlagsFromString('--liftoff-only');
}

async function openPglite(dataDir: string, optimize: boolean): Promise<Database> {
  if (!optimize) leanWasm();
  const memory = dataDir.startsWith('memory://');
  let lock: DataDirLock | null = null;
  if (!memory) {
    mkdirSync(dataDir, { recursive: true });
    lock = lockDataDir(dataDir);
  }
  let db: PGlite;
  try {
    if (!memory && !existsSync(join(dataDir, 'PG_VERSION'))) await initDataDir(dataDir);
    db = await PGlite.create(dataDir, { postgresqlconf: PGLITE_CONF });
  } catch (e) {
    lock?.release();
    throw e;
  }
  const query = async <T>(q: { query: PGlite['query'] }, sql: string, params?: unknown[]) => (await q.query<T>(sql, params as unknown[])).rows;
  return {
    kind: 'pglite',
    query: (sql, params) => query(db, sql, params),
    exec: async (sql) => {
      await db.exec(sql);
    },
    transaction: (fn) => db.transaction((tx) => fn({ query: (sql, params) => query(tx, sql, params) })),
    listen: (channel, fn) => db.listen(channel, fn),
    close: async () => {
      try {
        await db.close();
      } finally {
        lock?.release();
      }
    },
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

/**
 * A statement run on its own (its own transaction) that PostgreSQL chose as a deadlock's victim
 * (40P01) or failed for a concurrent update (40001) did nothing: it is run again, up to three
 * times. Metering a page (meter_run locks the account, then its intervals) can meet a wallet's
 * re-decode (which locks the wallet, then the accounts that read it) this way; the read must not
 * fail on it. Statements inside a transaction (`transaction`) are not retried here: the whole
 * transaction is the caller's.
 */
const CONFLICT_CODES = new Set(['40P01', '40001']);
async function retryConflicts<T>(f: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await f();
    } catch (e) {
      const code = (e as { code?: string })?.code;
      if (attempt >= 3 || !code || !CONFLICT_CODES.has(code)) throw e;
      await new Promise((r) => setTimeout(r, 10 + Math.random() * 40 * attempt));
    }
  }
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  // int8 (counts, sums) as JS numbers: every count here stays far below 2^53.
  pg.types.setTypeParser(20, (v) => Number(v));
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const subscribers = new Map<string, Set<(payload: string) => void>>();
  let listener: pg.Client | null = null;
  let listenerReady: Promise<pg.Client> | null = null;
  let closed = false;
  let reconnecting = false;
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
    query: (sql, params) => guard(() => retryConflicts(async () => (await pool.query(sql, params)).rows)),
    exec: (sql) =>
      guard(async () => {
        await pool.query(sql);
      }),
    transaction: (fn) => guard(() => inTransaction(fn)),
    listen,
    close: async () => {
      closed = true;
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };

  /**
   * One connection of its own for LISTEN (a pooled one would be handed to other queries). When it
   * drops (the server restarted), it is opened again after 1 s and listens to the same channels;
   * what was notified meanwhile is lost, which is why a follower also wakes at its lease's expiry.
   */
  function listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>> {
    let set = subscribers.get(channel);
    const fresh = !set;
    if (!set) subscribers.set(channel, (set = new Set()));
    set.add(fn);
    return connectListener().then(async (c) => {
      if (fresh) await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return async () => void set.delete(fn);
    });
  }

  function scheduleReconnect(): void {
    if (closed || reconnecting || subscribers.size === 0) return;
    reconnecting = true;
    setTimeout(async () => {
      reconnecting = false;
      if (closed) return;
      try {
        const n = await connectListener();
        for (const ch of subscribers.keys()) await n.query(`LISTEN ${pg.escapeIdentifier(ch)}`);
      } catch {
        scheduleReconnect();
      }
    }, 1_000).unref?.();
  }

  function connectListener(): Promise<pg.Client> {
    listenerReady ??= (async () => {
      const c = new pg.Client({ connectionString: url });
      c.on('notification', (m) => {
        for (const f of subscribers.get(m.channel) ?? []) f(m.payload ?? '');
      });
      const lost = () => {
        if (listener === c) {
          listener = null;
          listenerReady = null;
        }
        scheduleReconnect();
      };
      c.on('error', lost);
      c.on('end', lost);
      await c.connect();
      listener = c;
      return c;
    })();
    listenerReady.catch(() => (listenerReady = null));
    return listenerReady;
  }

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
