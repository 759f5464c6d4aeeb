import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { ensureAppBuild } from '../support/app-build.js';
import { startThrowawayPostgres } from '../support/throwaway-postgres.js';
import { TEST_KEY } from '../support/test-server.js';
import { drainStream } from './stream-client.js';
import { freePort } from '../support/free-port.js';

/**
 * Memory of the built server (`node build`, configured by environment only, as an operator runs
 * it) in a process of its own, its RSS read from /proc (the client is this process): idle; while
 * 20 wallets are walked; with 200 open streams of 20 other wallets; while and after loading a
 * wallet of many trades; on the embedded store and on PostgreSQL; and on PostgreSQL, how long
 * the server takes to answer again once the database is back.
 *
 * The chain data comes over a socket from the Solana replay RPC (tests/support/sol-replay) in
 * another process (memory-rpc.ts): recorded mainnet transactions re-assigned to synthesised
 * wallets, so the server fetches, parses, decodes and stores them as it would from a node.
 */
export interface MemoryBenchResult {
  store: 'embedded' | 'postgres';
  idleMb: number;
  /** Highest RSS while 20 wallets are walked, one stream each: what the walks take. */
  walksPeakMb: number;
  /**
   * Highest RSS while 200 streams over 20 other wallets are open, 10 each, and what each of the
   * 180 further streams added to it: (streamsPeakMb - walksPeakMb) / 180.
   */
  streamsPeakMb: number;
  perStreamMb: number;
  /** How long the 200 streams were open (the first request to the last stream's end). */
  streamsOpenMs: number;
  loadPeakMb: number;
  afterMillionMb: number;
  millionTrades: number;
  /** The big wallet fetched, decoded, stored and streamed: wall time, and the server's CPU time in it. */
  loadMs: number;
  loadCpuMs: number;
  /** PostgreSQL only: from the database accepting connections again to a history answer 200. */
  recoverMs?: number;
}

const ROOT = resolve(import.meta.dirname, '../..');
const STREAMS = 200;
const WALLETS = 20;
/**
 * Each wallet: 500 trades (~470 transactions: a signature page, 6 getTransaction batches, its
 * token accounts and symbols), the RPC answering after 200 ms, 8 requests in flight over all
 * wallets (RPC_MAX_IN_FLIGHT_SOL's default): 20 wallets are ~200 requests, so their streams stay
 * open about 5 s.
 */
const WALLET_TRADES = 500;
const STREAMS_LATENCY_MS = 200;
/**
 * The big wallet's trades (BENCH_MEMORY_TRADES changes it), its RPC answering at once. 200,000,
 * not the 1,000,000 of the budget, to keep the benchmark within ~6 minutes for both stores: the
 * built server spends ~0.27 ms of CPU per trade it fetches, parses, decodes, stores and streams
 * (54 s for 200,000, measured on this 2-core machine at load average ~7), and 1,000,000 took
 * over 10 minutes per store (676,402 trades when a 600 s stream budget ended it). RSS after
 * loading was about the same at either count (embedded store): 393 MB after 50,000 trades;
 * 349 and 410 MB after 200,000, in two runs.
 */
const BIG_TRADES = Number(process.env.BENCH_MEMORY_TRADES ?? 200_000);

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
/** CPU time of a process, all its threads (utime + stime from /proc, in clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const auth = { authorization: `Bearer ${TEST_KEY}` };

interface MemoryRpc {
  url: string;
  wallets: string[];
  big: string;
  bigTrades: number;
  setLatency(ms: number): Promise<void>;
  close(): Promise<void>;
}

async function startRpc(): Promise<MemoryRpc> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'memory-rpc.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      WALLETS: String(2 * WALLETS),
      WALLET_TRADES: String(WALLET_TRADES),
      BIG_TRADES: String(BIG_TRADES),
      LATENCY_MS: String(STREAMS_LATENCY_MS),
    },
    // The IPC channel sets the latency, and ends the RPC with this process.
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const info = await new Promise<Omit<MemoryRpc, 'setLatency' | 'close'>>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l)));
    child.once('exit', (code) => reject(new Error(`memory RPC exited (${code})`)));
  });
  return {
    ...info,
    setLatency: (latencyMs) =>
      new Promise((resolve) => {
        child.once('message', () => resolve());
        child.send({ latencyMs });
      }),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The built server's directory: build/ as `vite build` leaves it (rebuilt first when src/ is
 * newer, as the API suites do; adapter-node writes build/ in the same build), copied aside, since
 * a build started meanwhile (an e2e run) empties build/ and the server imports some chunks only
 * when first needed. node_modules is found from the copy as from build/.
 */
async function builtServerDir(): Promise<string> {
  await ensureAppBuild();
  const index = join(ROOT, 'build/index.js');
  if (!existsSync(index)) throw new Error('build/ is missing: run `npx vite build`');
  const parent = join(ROOT, '.tmp/bench-build');
  const dir = join(parent, String(Math.floor(statSync(index).mtimeMs)));
  if (!existsSync(dir)) {
    rmSync(parent, { recursive: true, force: true });
    cpSync(join(ROOT, 'build'), dir, { recursive: true });
  }
  return dir;
}

/**
 * `node build` as `npm start` runs it, on a free port, its whole configuration in its
 * environment (nothing of this process's own: no DATABASE_URL or RPC_URL_ leaks in); resolves
 * once /readyz answers (the store is open and migrated).
 */
async function startBuiltServer(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; logs: string[] }> {
  const dir = await builtServerDir();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [dir], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), ORIGIN: url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  for (const s of [child.stdout!, child.stderr!]) s.on('data', (d) => logs.push(String(d)));
  for (const end = performance.now() + 60_000; ; await sleep(100)) {
    if (child.exitCode !== null) throw new Error(`the built server exited (${child.exitCode}):\n${logs.join('')}`);
    if (performance.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`the built server was not ready after 60 s:\n${logs.join('')}`);
    }
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, child, logs };
  }
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

/** `perWallet` streams of each wallet, all at once, each read to its end; resolves with how long they were open. */
async function streamAll(url: string, wallets: string[], perWallet: number): Promise<number> {
  const t0 = performance.now();
  const done = await Promise.all(wallets.flatMap((w) => Array.from({ length: perWallet }, () => drainStream(`${url}/v1/wallets/${w}/history`))));
  for (const d of done) {
    if (!d.final?.complete || d.trades !== WALLET_TRADES) throw new Error(`a stream ended with ${d.trades} trades (complete: ${d.final?.complete})`);
  }
  return performance.now() - t0;
}

export async function benchMemory(store: 'embedded' | 'postgres', log: (s: string) => void = () => {}): Promise<MemoryBenchResult> {
  const [pgStarted, rpcStarted] = await Promise.allSettled([store === 'postgres' ? startThrowawayPostgres() : null, startRpc()]);
  if (pgStarted.status === 'rejected' || rpcStarted.status === 'rejected') {
    if (pgStarted.status === 'fulfilled') await pgStarted.value?.destroy();
    if (rpcStarted.status === 'fulfilled') await rpcStarted.value.close();
    throw pgStarted.status === 'rejected' ? pgStarted.reason : (rpcStarted as PromiseRejectedResult).reason;
  }
  const pg = pgStarted.value;
  const rpc = rpcStarted.value;
  const dataDir = mkdtempSync(join(tmpdir(), 'wth-bench-mem-'));
  let server: Awaited<ReturnType<typeof startBuiltServer>> | undefined;
  try {
    server = await startBuiltServer({
      ...(pg ? { DATABASE_URL: pg.url } : { DATA_DIR: join(dataDir, 'data') }),
      API_KEYS: `bench:${TEST_KEY}`,
      CURSOR_SECRET: 'bench-memory-secret-0123456789abcdef',
      RPC_URL_SOL: rpc.url,
      // Room for BENCH_MEMORY_TRADES=1000000 on one stream.
      STREAM_MAX_SECONDS: '3600',
      RATE_LIMIT_PER_MINUTE: '0',
      MAX_CONCURRENT_REQUESTS: '1000',
      MAX_STREAMS_PER_KEY: '1000',
    });
    const { url } = server;
    const pid = server.child.pid!;

    // Idle: started on a fresh store (migrated, keys written), one request served, then left alone.
    await (await fetch(`${url}/v1/usage`, { headers: auth })).arrayBuffer();
    await sleep(2_000);
    const idleMb = rssMb(pid);
    log(`  ${store}: idle ${idleMb.toFixed(0)} MB`);

    // A wallet walked takes memory of its own (its answers parsed and decoded, its trades stored;
    // the decode worker's heap and PGlite's grow to hold them, and keep it): 20 wallets with one
    // stream each first, then 200 streams over 20 other wallets (10 each), all open at once while
    // their wallets are walked. What the 180 further streams added is the cost of a stream.
    const walks = streamAll(url, rpc.wallets.slice(0, WALLETS), 1);
    const walksPeakMb = await peakDuring(pid, walks);
    log(`  ${store}: ${WALLETS} wallets walked, one stream each, in ${((await walks) / 1000).toFixed(1)} s, peak ${walksPeakMb.toFixed(0)} MB`);
    const streams = streamAll(url, rpc.wallets.slice(WALLETS), STREAMS / WALLETS);
    const streamsPeakMb = await peakDuring(pid, streams);
    const streamsOpenMs = await streams;
    log(`  ${store}: ${STREAMS} streams over ${WALLETS} other wallets open ${(streamsOpenMs / 1000).toFixed(1)} s, peak ${streamsPeakMb.toFixed(0)} MB`);

    // The big wallet loaded into the store through one stream, the RPC answering at once.
    await rpc.setLatency(0);
    const t1 = performance.now();
    const cpu1 = cpuMs(pid);
    const million = drainStream(`${url}/v1/wallets/${rpc.big}/history`);
    const loadPeakMb = await peakDuring(pid, million);
    const m = await million;
    const loadMs = performance.now() - t1;
    const loadCpuMs = cpuMs(pid) - cpu1;
    if (!m.final?.complete || m.trades !== rpc.bigTrades) throw new Error(`the big wallet streamed ${m.trades} of ${rpc.bigTrades} trades`);
    log(
      `  ${store}: ${m.trades} trades fetched, decoded, stored and streamed in ${(loadMs / 1000).toFixed(1)} s (server CPU ${(loadCpuMs / 1000).toFixed(1)} s), peak ${loadPeakMb.toFixed(0)} MB`,
    );
    if (m.trades < 1_000_000) {
      log(
        `  (${m.trades.toLocaleString('en')} trades, not 1,000,000: at ${(loadCpuMs / m.trades).toFixed(2)} ms of server CPU a trade, ` +
          `a million is ~${Math.round(((loadCpuMs / m.trades / 1000) * 1e6) / 60)} CPU-minutes per store; BENCH_MEMORY_TRADES=1000000 measures it)`,
      );
    }
    await sleep(2_000);
    const afterMillionMb = rssMb(pid);

    let recoverMs: number | undefined;
    if (pg) {
      await pg.stop();
      // The server notices (a request gets 503 store_unavailable), then the database comes back.
      const down = await fetch(`${url}/v1/usage`, { headers: auth });
      await down.arrayBuffer();
      if (down.status !== 503) throw new Error(`usage with the database stopped: ${down.status}`);
      await pg.start();
      const t2 = performance.now();
      for (;;) {
        const r = await fetch(`${url}/v1/wallets/${rpc.wallets[0]}/history?limit=10`, { headers: auth });
        await r.arrayBuffer();
        if (r.status === 200) break;
        if (performance.now() - t2 > 60_000) throw new Error(`no answer 60 s after the database came back (${r.status})`);
        await sleep(20);
      }
      recoverMs = performance.now() - t2;
    }
    return {
      store,
      idleMb,
      walksPeakMb,
      streamsPeakMb,
      perStreamMb: (streamsPeakMb - walksPeakMb) / (STREAMS - WALLETS),
      streamsOpenMs,
      loadPeakMb,
      afterMillionMb,
      millionTrades: m.trades,
      loadMs,
      loadCpuMs,
      recoverMs,
    };
  } finally {
    const child = server?.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await rpc.close();
    await pg?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
