import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { ChainSource } from '../../src/lib/core/chain-source.js';
import { base58Encode } from '../../src/lib/chains/sol/address.js';
import { loadConfig } from '../../src/lib/server/config.js';
import { createServer, type Server } from '../../src/lib/server/create-server.js';
import { openDatabase, type Database } from '../../src/lib/server/store/database.js';
import { migrate } from '../../src/lib/server/store/migrations.js';
import { defaultSourceFactory } from '../../src/lib/server/sources.js';
import { serveApp } from './app.js';
import { ndjsonLines } from './ndjson-lines.js';

export const TEST_KEY = 'wth_test_key_for_account_alice_0001';
export const OTHER_KEY = 'wth_test_key_for_account_bob_00002';

/** The databases every store-facing suite runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const BACKENDS: ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
/** The stream suite also runs on a PostgreSQL database with an ICU collation (text order differs from C). */
export const STREAM_BACKENDS: ('pglite' | 'postgres' | 'postgres-icu')[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres', 'postgres-icu'] : ['pglite'];

/** A fresh PostgreSQL database for one suite (isolated, dropped by the returned function). */
export async function createTestDatabase({ icu = false } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL!;
  const name = `wth_test_${randomBytes(6).toString('hex')}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  // icu: a database whose default collation is ICU en-US, as many managed PostgreSQL servers have.
  await c.query(icu ? `CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'` : `CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c2 = new pg.Client({ connectionString: admin });
      await c2.connect();
      await c2.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c2.end();
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A migrated throwaway PGlite database, for tests of the store and the loader below the API. */
export async function openMemoryDatabase(): Promise<Database> {
  const db = await openDatabase({ dataDir: 'memory://' });
  await migrate(db);
  return db;
}

/** A random valid Solana address: isolates tests that share a database. */
export function randomWallet(): string {
  return base58Encode(randomBytes(32));
}

export interface TestServer {
  url: string;
  server: Server;
  get(path: string, key?: string | null, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface StartTestServerOptions {
  backend?: 'pglite' | 'postgres' | 'postgres-icu';
  /** One source per chain slug, or 'default' for the app's own sources (RPC_URL_<SLUG> in env). */
  sources: Record<string, ChainSource> | 'default';
  env?: Record<string, string>;
  readRows?: number;
}

/** Starts the real API (store, loaders, the app's route files over a socket) with scripted chain sources. */
export async function startTestServer({ backend = 'pglite', sources, env = {}, readRows }: StartTestServerOptions): Promise<TestServer> {
  const pgdb = backend === 'pglite' ? null : await createTestDatabase({ icu: backend === 'postgres-icu' });
  const config = loadConfig({
    API_KEYS: `alice:${TEST_KEY},bob:${OTHER_KEY}`,
    CURSOR_SECRET: 'test-secret',
    DATA_DIR: 'memory://',
    ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
    // No test reaches a public endpoint: prices only where a test names its feeds.
    ...(Object.keys(env).some((k) => k.startsWith('PRICE_')) ? {} : { PRICE_SOURCE: 'none' }),
    ...env,
  });
  const server = await createServer({
    config,
    // DEBUG_SERVER_LOG=1 prints the server's log lines (a load that stopped, and why) while a suite runs.
    log: process.env.DEBUG_SERVER_LOG ? (l: string) => console.error('[server]', l) : () => {},
    readRows,
    sources:
      sources === 'default'
        ? defaultSourceFactory
        : (chain) => {
            const s = sources[chain.slug];
            if (!s) throw new Error(`no scripted source for ${chain.slug}`);
            return s;
          },
  });
  const http = await serveApp(server);
  return {
    url: http.url,
    server,
    get(path, key = TEST_KEY, init = {}) {
      const headers = new Headers(init.headers);
      if (key !== null) headers.set('authorization', `Bearer ${key}`);
      return fetch(http.url + path, { ...init, headers });
    },
    async close() {
      await http.close();
      await server.close();
      await pgdb?.drop();
    },
  };
}

/** Reads an NDJSON stream whole: its batch lines and its final line. */
export async function readStream(res: Response): Promise<{ batches: { trades: any[]; cursor: string }[]; final: any; raw: string[] }> {
  const text = await res.text();
  const raw = text.split('\n').filter(Boolean);
  const lines = raw.map((l) => JSON.parse(l));
  const final = lines.at(-1);
  if (!final || !('complete' in final)) throw new Error(`stream did not end with a final line: ${text.slice(-300)}`);
  return { batches: lines.slice(0, -1), final, raw };
}

/** The exact text of the trades in a batch line or page body (amounts as written, not as floats). */
export function rawTradesText(line: string): string {
  const start = line.indexOf('"trades":[') + '"trades":['.length;
  let depth = 1;
  let inString = false;
  for (let i = start; i < line.length; i++) {
    const c = line[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      if (--depth === 0) return line.slice(start, i);
    }
  }
  throw new Error('no trades array');
}

/** Calls `onLine` with each NDJSON line of a response body as it arrives (nothing is kept). */
export async function eachLine(res: Response, onLine: (line: string) => void): Promise<void> {
  for await (const line of ndjsonLines(res)) onLine(line);
}

/** Splits the text of a trades array (`{..},{..}`) into each trade's exact text. */
export function splitTrades(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      out.push(text.slice(start, i + 1));
      start = i + 2;
    }
  }
  return out;
}

/**
 * Streams a wallet to the end, resuming from each final line's cursor: every trade's exact text
 * and the final lines. `query` is added to every request (e.g. `chain=tron`).
 */
export async function streamAll(srv: TestServer, wallet: string, query = ''): Promise<{ trades: string[]; finals: any[] }> {
  const trades: string[] = [];
  const finals: any[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const q = [query, cursor ? `cursor=${encodeURIComponent(cursor)}` : ''].filter(Boolean).join('&');
    const res = await srv.get(`/v1/wallets/${wallet}/history${q ? `?${q}` : ''}`);
    if (res.status !== 200) throw new Error(`stream answered ${res.status}: ${await res.text()}`);
    const lines = (await res.text()).split('\n').filter(Boolean);
    for (const l of lines.slice(0, -1)) {
      const text = rawTradesText(l);
      if (text) trades.push(...splitTrades(text));
    }
    const final = JSON.parse(lines.at(-1)!);
    finals.push(final);
    if (final.complete) return { trades, finals };
    cursor = final.cursor;
  }
  throw new Error('stream never completed');
}
