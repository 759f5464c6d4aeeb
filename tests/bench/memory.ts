import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { startThrowawayPostgres } from '../support/throwaway-postgres.js';
import { randomWallet, TEST_KEY } from '../support/test-server.js';
import { drainStream } from './stream-client.js';

/**
 * Memory of the server process alone (its RSS from /proc, the client in this process): idle, with
 * 200 open streams of 20 wallets, while and after loading a ~1,000,000-trade wallet, on the
 * embedded store and on PostgreSQL; and on PostgreSQL, how long the server takes to answer again
 * once the database is back.
 */
export interface MemoryBenchResult {
  store: 'embedded' | 'postgres';
  idleMb: number;
  /** Highest RSS while 200 streams of 20 wallets are open, and the growth per stream over idle. */
  streamsPeakMb: number;
  perStreamMb: number;
  loadPeakMb: number;
  afterMillionMb: number;
  millionTrades: number;
  /** PostgreSQL only: from the database accepting connections again to a history answer 200. */
  recoverMs?: number;
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The server is bundled first (esbuild, packages left to node_modules) and run by plain node, as
 * the built app runs: under tsx the same process held ~100 MB more (the transpiler and its
 * per-module source maps), which no operator's server carries.
 */
async function bundleServer(): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join(import.meta.dirname, '../../.tmp/bench-memory-server.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'memory-server.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

export async function startServer(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [await bundleServer()], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`memory server exited (${code})`)));
  });
  return { url: JSON.parse(line).url, child };
}

/** Samples the child's RSS every 50 ms while `work` runs; resolves with the peak. */
async function peakDuring(pid: number, work: Promise<unknown>): Promise<number> {
  let peak = rssMb(pid);
  const t = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  try {
    await work;
  } finally {
    clearInterval(t);
  }
  return Math.max(peak, rssMb(pid));
}

export async function benchMemory(store: 'embedded' | 'postgres', log: (s: string) => void = () => {}): Promise<MemoryBenchResult> {
  const pg = store === 'postgres' ? await startThrowawayPostgres() : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'wth-bench-mem-'));
  const big = randomWallet();
  const { url, child } = await startServer({ BIG_WALLET: big, ...(pg ? { DATABASE_URL: pg.url } : { DATA_DIR: join(dataDir, 'data') }) });
  const pid = child.pid!;
  try {
    // Idle: started on a fresh store (migrated, keys written), one request served, then left alone.
    await fetch(`${url}/v1/usage`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
    await sleep(2_000);
    const idleMb = rssMb(pid);
    log(`  ${store}: idle ${idleMb.toFixed(0)} MB`);

    // 200 streams over 20 wallets (10 each), all open at once for about 4 s.
    const wallets = Array.from({ length: 20 }, () => randomWallet());
    const streams = Promise.all(Array.from({ length: 200 }, (_, i) => drainStream(`${url}/v1/wallets/${wallets[i % 20]}/history`, TEST_KEY)));
    const streamsPeakMb = await peakDuring(pid, streams);
    const done = await streams;
    if (done.some((d) => d.trades === 0)) throw new Error('a stream ended without trades');
    log(`  ${store}: 200 open streams peak ${streamsPeakMb.toFixed(0)} MB`);

    // ~1,000,000 trades loaded into the store through one stream.
    const t0 = performance.now();
    const million = drainStream(`${url}/v1/wallets/${big}/history`, TEST_KEY);
    const loadPeakMb = await peakDuring(pid, million);
    const m = await million;
    log(`  ${store}: ${m.trades} trades loaded and streamed in ${((performance.now() - t0) / 1000).toFixed(1)} s, peak ${loadPeakMb.toFixed(0)} MB`);
    await sleep(2_000);
    const afterMillionMb = rssMb(pid);

    let recoverMs: number | undefined;
    if (pg) {
      await pg.stop();
      // The server notices (a request gets 503 store_unavailable), then the database comes back.
      const down = await fetch(`${url}/v1/usage`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
      if (down.status !== 503) throw new Error(`usage with the database stopped: ${down.status}`);
      await pg.start();
      const t1 = performance.now();
      for (;;) {
        const r = await fetch(`${url}/v1/wallets/${wallets[0]}/history?limit=10`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
        await r.arrayBuffer();
        if (r.status === 200) break;
        if (performance.now() - t1 > 60_000) throw new Error(`no answer 60 s after the database came back (${r.status})`);
        await sleep(20);
      }
      recoverMs = performance.now() - t1;
    }
    return {
      store,
      idleMb,
      streamsPeakMb,
      perStreamMb: (streamsPeakMb - idleMb) / 200,
      loadPeakMb,
      afterMillionMb,
      millionTrades: m.trades,
      recoverMs,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    await pg?.destroy();
    if (existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
  }
}
