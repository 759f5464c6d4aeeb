import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { startThrowawayPostgres } from '../support/throwaway-postgres.js';
import { randomWallet, TEST_KEY } from '../support/test-server.js';
import { drainStream } from './stream-client.js';

/**
 * Several instances on one PostgreSQL on this machine (2 cores: the instances, the database and
 * the client share them). Each instance is scale-out-server.ts (createServer behind the built
 * app's route files, bundled, in a process of its own) with scripted Solana sources.
 *  - pages: 1,000-row pages of a stored 17,000-trade wallet, 32 clients for 8 s, against one
 *    instance and spread over three;
 *  - database round trips of a page (transactions committed, from pg_stat_database), one instance
 *    against three;
 *  - loads: 24 wallets of 2,000 transactions in 100-transaction batches 50 ms apart (the RPC's
 *    pace), at most 8 batches in flight per instance (its RPC limiter), streamed through one
 *    instance, then 24 others through two.
 */
export interface ScaleOutBenchResult {
  pagesPerSecond: { one: number; three: number };
  p99Ms: { one: number; three: number };
  errors5xx: number;
  roundTripsPerPage: { one: number; three: number };
  tradesPerSecond: { one: number; two: number };
}

const auth = { authorization: `Bearer ${TEST_KEY}` };

/**
 * The server is bundled first (esbuild, packages left to node_modules) and run by plain node, as
 * the built app runs: under tsx the same process held ~100 MB more (the transpiler and its
 * per-module source maps), and tsx's transpiling would share the cores the instances are measured on.
 */
async function bundleServer(): Promise<string> {
  const { build } = await import('esbuild');
  // Two folders deep like its source: the bundle inlines tests/support/app-build.ts, which finds
  // the repository at '../..' from its own file (at .tmp/ it looked for /work/src and failed).
  const outfile = join(import.meta.dirname, '../../.tmp/bench/scale-out-server.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'scale-out-server.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

async function startServer(script: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`scale-out server exited (${code})`)));
  });
  return { url: JSON.parse(line).url, child };
}

async function pageCursors(url: string, wallet: string): Promise<string[]> {
  const cursors = [''];
  for (;;) {
    const r = (await (
      await fetch(`${url}/v1/wallets/${wallet}/history?limit=1000${cursors.at(-1) ? `&cursor=${encodeURIComponent(cursors.at(-1)!)}` : ''}`, { headers: auth })
    ).json()) as {
      cursor: string | null;
    };
    if (!r.cursor) return cursors;
    cursors.push(r.cursor);
  }
}

async function pageLoad(
  urls: string[],
  wallet: string,
  cursors: string[],
  clients: number,
  ms: number,
): Promise<{ pages: number; p99: number; errors: number }> {
  const lat: number[] = [];
  let errors = 0;
  const end = performance.now() + ms;
  let n = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (performance.now() < end) {
        const i = n++;
        const url = urls[(c + i) % urls.length];
        const cursor = cursors[i % cursors.length];
        const t0 = performance.now();
        const r = await fetch(`${url}/v1/wallets/${wallet}/history?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: auth });
        await r.arrayBuffer();
        if (r.status >= 500) errors++;
        lat.push(performance.now() - t0);
      }
    }),
  );
  lat.sort((a, b) => a - b);
  return { pages: lat.length / (ms / 1000), p99: lat[Math.floor(lat.length * 0.99)], errors };
}

async function commits(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    // A backend's statistics reach the shared view at a transaction's end at most once a second,
    // else after 10 s idle: wait those out so every pooled connection's commits are counted.
    await new Promise((r) => setTimeout(r, 11_000));
    await c.query('SELECT pg_stat_clear_snapshot()');
    const r = await c.query<{ n: string }>('SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()');
    return Number(r.rows[0].n);
  } finally {
    await c.end();
  }
}

async function roundTrips(dbUrl: string, urls: string[], wallet: string, cursors: string[], pages: number): Promise<number> {
  const before = await commits(dbUrl);
  for (let i = 0; i < pages; i++) {
    const cursor = cursors[i % cursors.length];
    await (
      await fetch(`${urls[i % urls.length]}/v1/wallets/${wallet}/history?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: auth })
    ).arrayBuffer();
  }
  // The stats reading itself commits twice (snapshot clear, select).
  return (await commits(dbUrl)) - before - 2;
}

async function loadWallets(urls: string[], wallets: string[]): Promise<number> {
  const t0 = performance.now();
  const done = await Promise.all(wallets.map((w, i) => drainStream(`${urls[i % urls.length]}/v1/wallets/${w}/history`, TEST_KEY)));
  const trades = done.reduce((n, d) => n + d.trades, 0);
  return trades / ((performance.now() - t0) / 1000);
}

export async function benchScaleOut(log: (s: string) => void = () => {}): Promise<ScaleOutBenchResult> {
  const db = await startThrowawayPostgres();
  const big = randomWallet();
  // Each instance fetches at most 8 batches at once (RPC_MAX_IN_FLIGHT's default) at 50 ms each.
  const env = {
    DATABASE_URL: db.url,
    BIG_WALLET: big,
    BIG_TX: '15000',
    WALLET_TX: '2000',
    WALLET_BATCH: '100',
    WALLET_DELAY_MS: '50',
    SOURCE_IN_FLIGHT: '8',
    DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE ?? '10',
  };
  const children: ChildProcess[] = [];
  const script = await bundleServer();
  const start = async () => {
    const s = await startServer(script, env);
    children.push(s.child);
    return s.url;
  };
  try {
    const a = await start();
    const loaded = await drainStream(`${a}/v1/wallets/${big}/history`, TEST_KEY);
    log(`  ${loaded.trades} trades stored`);
    const cursors = await pageCursors(a, big);

    const oneLoad = await loadWallets(
      [a],
      Array.from({ length: 24 }, () => randomWallet()),
    );
    log(`  loads through one instance: ${oneLoad.toFixed(0)} trades/s`);
    await pageLoad([a], big, cursors, 32, 2_000); // warm-up
    const one = await pageLoad([a], big, cursors, 32, 8_000);
    log(`  one instance: ${one.pages.toFixed(0)} pages/s, p99 ${one.p99.toFixed(1)} ms`);
    const rtOne = (await roundTrips(db.url, [a], big, cursors, 300)) / 300;

    const b = await start();
    const twoLoad = await loadWallets(
      [a, b],
      Array.from({ length: 24 }, () => randomWallet()),
    );
    log(`  loads through two instances: ${twoLoad.toFixed(0)} trades/s`);
    const c = await start();
    await pageLoad([a, b, c], big, cursors, 32, 2_000);
    const three = await pageLoad([a, b, c], big, cursors, 32, 8_000);
    log(`  three instances: ${three.pages.toFixed(0)} pages/s, p99 ${three.p99.toFixed(1)} ms`);
    const rtThree = (await roundTrips(db.url, [a, b, c], big, cursors, 300)) / 300;
    return {
      pagesPerSecond: { one: one.pages, three: three.pages },
      p99Ms: { one: one.p99, three: three.p99 },
      errors5xx: one.errors + three.errors,
      roundTripsPerPage: { one: rtOne, three: rtThree },
      tradesPerSecond: { one: oneLoad, two: twoLoad },
    };
  } finally {
    for (const ch of children) ch.kill('SIGTERM');
    await Promise.all(children.map((ch) => new Promise((r) => (ch.exitCode !== null ? r(null) : ch.once('exit', r)))));
    await db.destroy();
  }
}
