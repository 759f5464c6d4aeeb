/**
 * The e2e stack: the Solana replay RPC (tests/support/sol-replay) serving one synthesised wallet,
 * and the BUILT server (`node build`, run `npm run build` first) configured by environment only,
 * as an operator would: PORT, DATA_DIR (embedded PGlite in a fresh temp directory), API_KEYS,
 * RPC_URL_SOL pointing at the replay server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { corsProxy } from '../support/cors-proxy.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildReplayWorld, startSolanaReplayServer, type ReplayServer } from '../support/sol-replay/index.js';
import { freePort } from '../support/free-port.js';

export const API_KEY = 'e2e-dashboard-key-0123456789';

export interface Stack {
  baseUrl: string;
  rpcUrl: string;
  app: AppServer;
  /** The replay RPC behind a CORS proxy: what a browser page can call (direct mode). */
  browserRpcUrl: string;
  wallet: string;
  tradeCount: number;
  replay: ReplayServer;
  logs: string[];
  /**
   * New trades for the wallet, newer than everything served so far (for refresh tests); with
   * `startTime` (unix s) they are timed from then (webhooks announce trades after their creation).
   */
  addNewerTrades(n: number, seed?: number, startTime?: number): Promise<void>;
  /** Another synthesised wallet served by the same replay; its address and trade count. */
  addWallet(trades: number, seed: number): Promise<{ wallet: string; tradeCount: number }>;
  /** Restarts the server on the same port and data with another cursor secret (old cursors turn invalid). */
  restartWithCursorSecret(secret: string): Promise<void>;
  stop(): Promise<void>;
}

async function waitFor(url: string, ms: number, child: ChildProcess, logs: string[]): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${logs.join('')}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server not ready at ${url} after ${ms} ms:\n${logs.join('')}`);
}

export interface StackOptions {
  trades: number;
  /** Replay RPC latency per HTTP response (ms): slows the load so a test can act mid-load. */
  latencyMs?: number;
  seed?: number;
  /** Server stream budget (s); short budgets exercise complete:false + resume. */
  streamMaxSeconds?: number;
  /** More server environment, e.g. DATABASE_URL for a PostgreSQL store instead of the embedded one. */
  env?: Record<string, string>;
}

export interface AppServer {
  baseUrl: string;
  logs: string[];
  /** Stops the process and starts it again on the same port and data with other settings. */
  restart(env?: Record<string, string>): Promise<void>;
  /** SIGKILL: the process dies where it stands (no handler runs); `restart()` starts it again. */
  kill(): Promise<void>;
  /** The running process's id (memory benchmarks read its RSS). */
  pid(): number;
  /** Sends the process a signal; resolves with how long it took to exit. */
  signal(sig: NodeJS.Signals): Promise<{ exitMs: number }>;
  stop(): Promise<void>;
}

/**
 * The BUILT server (`node build`) as an operator runs it, configured by environment only:
 * a fresh temp DATA_DIR (embedded PGlite), API_KEYS with the e2e key, and `env` on top.
 */
export async function startAppServer(env: Record<string, string>): Promise<AppServer> {
  if (!existsSync('build/index.js')) throw new Error('build/ is missing: run `npm run build` before the e2e');
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'wth-e2e-'));
  const logs: string[] = [];
  const baseUrl = `http://127.0.0.1:${port}`;
  const spawnServer = async (extra: Record<string, string>): Promise<ChildProcess> => {
    const c = spawn(process.execPath, ['build'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        API_KEYS: `e2e:${API_KEY}`,
        ORIGIN: baseUrl,
        // No test reaches a public endpoint: the default feeds' chains are public RPCs.
        PRICE_SOURCE: 'none',
        ...env,
        ...extra,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    c.stdout!.on('data', (d) => logs.push(String(d)));
    c.stderr!.on('data', (d) => logs.push(String(d)));
    // /readyz: the store answers and is migrated; it is also what a worker (ROLE=worker) serves.
    await waitFor(`${baseUrl}/readyz`, 60_000, c, logs);
    return c;
  };
  const stopServer = async (c: ChildProcess) => {
    if (c.exitCode !== null || c.signalCode !== null) return;
    c.kill('SIGTERM');
    await new Promise((r) => c.once('exit', r));
  };
  let child = await spawnServer({});
  return {
    baseUrl,
    logs,
    async restart(extra = {}) {
      await stopServer(child);
      child = await spawnServer(extra);
    },
    pid: () => child.pid!,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async signal(sig) {
      const t0 = Date.now();
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(sig);
      await exited;
      return { exitMs: Date.now() - t0 };
    },
    async stop() {
      await stopServer(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The environment of a stack's server; another instance started with it serves the same wallets. */
export function stackEnv(rpcUrl: string, o: Pick<StackOptions, 'streamMaxSeconds' | 'env'>): Record<string, string> {
  return {
    RPC_URL_SOL: rpcUrl,
    STREAM_MAX_SECONDS: String(o.streamMaxSeconds ?? 55),
    CURSOR_SECRET: 'e2e-cursor-secret-0123456789abcdef',
    // A request from the top looks for new trades when the head was checked over 1 s ago.
    HEAD_STALE_SECONDS: '1',
    DECODE_THREADS: '1',
    ...o.env,
  };
}

export async function startStack(o: StackOptions): Promise<Stack> {
  const world = await buildReplayWorld({ trades: o.trades, seed: o.seed ?? 11, includeFixtures: false });
  const replay = await startSolanaReplayServer({ transactions: world.transactions, accounts: world.accounts, latencyMs: o.latencyMs ?? 0 });
  const app = await startAppServer(stackEnv(replay.url, o));
  const proxy = await corsProxy(replay.url);
  return {
    baseUrl: app.baseUrl,
    app,
    rpcUrl: replay.url,
    browserRpcUrl: proxy.url,
    wallet: world.wallet.wallet,
    tradeCount: world.wallet.tradeCount,
    replay,
    logs: app.logs,
    async addNewerTrades(n, seed = 97, startTime?: number) {
      const all = world.transactions;
      const maxSlot = Math.max(...all.map((t) => t.slot));
      const maxTime = Math.max(...all.map((t) => t.blockTime ?? 0));
      const more = await buildReplayWorld({
        trades: n,
        seed,
        wallet: world.wallet.wallet,
        startSlot: maxSlot + 1000,
        startTime: Math.max(maxTime + 600, startTime ?? 0),
        includeFixtures: false,
      });
      // The replay server reads token metadata from this same Map.
      for (const [k, v] of more.accounts) world.accounts.set(k, v);
      world.transactions.push(...more.transactions);
      replay.addTransactions(more.transactions);
    },
    async addWallet(trades, seed) {
      const more = await buildReplayWorld({ trades, seed, includeFixtures: false });
      for (const [k, v] of more.accounts) world.accounts.set(k, v);
      world.transactions.push(...more.transactions);
      replay.addTransactions(more.transactions);
      return { wallet: more.wallet.wallet, tradeCount: more.wallet.tradeCount };
    },
    async restartWithCursorSecret(secret) {
      await app.restart({ CURSOR_SECRET: secret });
    },
    async stop() {
      await app.stop();
      await proxy.close();
      await replay.close();
    },
  };
}

export { corsProxy };
