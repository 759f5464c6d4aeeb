/**
 * Time to index a synthesised Solana wallet through the chain source, from the replay server,
 * next to its limit: the larger of the network bound and the CPU cost measured in the same run.
 *
 * Network bound, from the counts and the latency L with M requests in flight:
 *   P signature pages are strictly sequential (each needs the previous page's last signature),
 *   and the first transaction batch cannot start before the first page is back; the B
 *   transaction batches and S symbol calls share the M slots with the pages. So
 *     bound = max(P·L + L, ceil((P + B + S) / M)·L)
 *   (the +L: the last page's batches need one more round trip after it).
 * CPU cost: JSON.parse of the response bodies plus the decoder, as the source measures them in
 * this run; on one thread they take turns, so the walk's limit is max(network bound, parse +
 * decode): every stage overlapped with the network (the pipelined limit). The serial limit, the
 * network bound plus parse and decode, is what a walk that never overlapped them would take.
 * The target is wall time within 1.5x of the pipelined limit.
 * Prints nothing: returns numbers for `npm run bench`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createMemoryTokenCache, type HistoryBatch } from '../../src/lib/core/chain-source.js';
import { createSolanaSource } from '../../src/lib/chains/sol/source.js';
import { startCpuAccount, type CpuAccount } from './sol-cpu.js';
import { buildReplayWorld, startSolanaReplayServer, type ReplayStats } from '../support/sol-replay/index.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SERVE = fileURLToPath(new URL('../support/sol-replay/serve.ts', import.meta.url));

export interface RunningReplay {
  url: string;
  wallet: string;
  trades: number;
  signatures: number;
  /** Further wallets on the same tokens (startChildReplay's smallWallets). */
  smallWallets: string[];
  stats(): Promise<ReplayStats>;
  /** Counts from zero again (requests made before a measured run). */
  resetStats(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The replay server in its own process (default): on 2 cores the server's work (building
 * ~135 MB of responses for 10,000 trades) then runs beside the client instead of taking turns
 * with it on one event loop, as a real RPC node would.
 */
export async function startChildReplay(trades: number, latencyMs: number, seed: number, { smallWallets = 0, smallTrades = 300 } = {}): Promise<RunningReplay> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      SERVE,
      ...['--trades', String(trades), '--latency', String(latencyMs), '--seed', String(seed), '--no-fixtures', '--json'],
      ...['--small-wallets', String(smallWallets), '--small-trades', String(smallTrades)],
    ],
    // The IPC channel ties the server's life to this process: it exits when we do.
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const info = await new Promise<{ url: string; wallet: string; trades: number; signatures: number; smallWallets: string[] }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
    });
    child.on('exit', (code) => reject(new Error(`replay server exited (${code}): ${stderr.slice(-500)}`)));
  });
  const rpc = async (method: string) => {
    const res = await fetch(info.url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }) });
    return ((await res.json()) as { result: ReplayStats }).result;
  };
  return {
    ...info,
    stats: () => rpc('replay_stats'),
    resetStats: async () => void (await rpc('replay_resetStats')),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function startInlineReplay(trades: number, latencyMs: number, seed: number): Promise<RunningReplay> {
  const world = await buildReplayWorld({ trades, seed, includeFixtures: false });
  const server = await startSolanaReplayServer({ transactions: world.transactions, accounts: world.accounts, latencyMs });
  return {
    url: server.url,
    wallet: world.wallet.wallet,
    trades: world.wallet.tradeCount,
    signatures: world.wallet.transactions.length,
    smallWallets: [],
    stats: async () => server.stats,
    resetStats: async () => server.resetStats(),
    close: () => server.close(),
  };
}

export interface SolanaIndexBenchOptions {
  /** Trades in the synthesised wallet. Default 10,000. */
  trades?: number;
  /** Latency the replay server adds to every HTTP request. Default 50 ms. */
  latencyMs?: number;
  /** getTransaction calls per batch. Default 100. */
  batchSize?: number;
  /** HTTP requests in flight. Default 8. */
  maxInFlight?: number;
  seed?: number;
  /** Where the replay server runs. Default 'process' (a child process); 'inline' shares this event loop. */
  server?: 'process' | 'inline';
  /**
   * 'fetch' (default): the global fetch, as in production and in the browser worker.
   * 'node-http': a minimal fetch over node:http, to show what Node's fetch (undici, web streams)
   * costs on ~140 MB of responses; a server could inject it through transportOptions.fetch.
   */
  http?: 'fetch' | 'node-http';
}

/** Just enough of fetch for the transport (POST, status, one header, text), over node:http. */
export function createNodeHttpFetch(maxSockets = 16): typeof fetch {
  const agent = new Agent({ keepAlive: true, maxSockets });
  return ((url: string, init: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: init.method, headers: init.headers as Record<string, string>, agent, signal: init.signal ?? undefined }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: { get: (k: string) => (res.headers[k.toLowerCase()] as string | undefined) ?? null },
            text: async () => body,
          } as unknown as Response);
        });
      });
      req.on('error', reject);
      req.end(init.body as string);
    })) as typeof fetch;
}

export interface SolanaIndexBenchResult {
  trades: number;
  /** Signatures listed for the wallet (trades, failed, non-trades). */
  signatures: number;
  transactionsFetched: number;
  signaturePages: number;
  transactionBatches: number;
  symbolCalls: number;
  httpRequests: number;
  responseMegabytes: number;
  latencyMs: number;
  maxInFlight: number;
  /** Wall time of the walk, first request to last batch. */
  wallMs: number;
  /** Time to the first HistoryBatch, and the same in round trips of latencyMs. */
  firstBatchMs: number;
  firstBatchRoundTrips: number;
  networkBoundMs: number;
  parseMs: number;
  /** Finding the items of batch answers read item by item (not in cpuMs). */
  scanMs: number;
  decodeMs: number;
  /** parseMs + decodeMs. */
  cpuMs: number;
  /**
   * CPU time of this whole process during the walk (receiving bodies, UTF-8, parse, decode, GC,
   * with V8's GC helper threads): next to wallMs it shows whether the walk waited on anything.
   */
  processCpuMs: number;
  /** Garbage collection pauses during the walk. */
  gcMs: number;
  /** max(network bound, cpuMs): the pipelined limit, the one the target is on. */
  limitMs: number;
  /** network bound + cpuMs: nothing overlapping. */
  serialLimitMs: number;
  /** wallMs / limitMs; the target is <= 1.5. */
  ratio: number;
  withinTarget: boolean;
  /** wallMs / max(network bound, processCpuMs): near 1 means the walk never waited on the network. */
  ratioToProcessCpu: number;
  cpu: CpuAccount;
}

export async function benchSolanaIndex(opts: SolanaIndexBenchOptions = {}): Promise<SolanaIndexBenchResult> {
  const trades = opts.trades ?? 10_000;
  const latencyMs = opts.latencyMs ?? 50;
  const batchSize = opts.batchSize ?? 100;
  const maxInFlight = opts.maxInFlight ?? 8;
  const seed = opts.seed ?? 2024;
  const replay = await (opts.server === 'inline' ? startInlineReplay : startChildReplay)(trades, latencyMs, seed);
  try {
    const source = createSolanaSource({
      rpcUrl: replay.url,
      tokens: createMemoryTokenCache(),
      batchSize,
      maxInFlight,
      transportOptions: opts.http === 'node-http' ? { fetch: createNodeHttpFetch() } : {},
    });
    let count = 0;
    let firstBatchMs = 0;
    let gcMs = 0;
    const gc = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) gcMs += e.duration;
    });
    gc.observe({ entryTypes: ['gc'] });
    const cpu0 = process.cpuUsage();
    const account = startCpuAccount();
    const t0 = performance.now();
    for await (const b of source.history({ wallet: replay.wallet }) as AsyncIterable<HistoryBatch>) {
      if (firstBatchMs === 0) firstBatchMs = performance.now() - t0;
      count += b.trades.length;
    }
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const cpuAccount = account();
    gc.disconnect();
    if (count !== replay.trades) throw new Error(`bench walk found ${count} trades, expected ${replay.trades}`);

    const stats = await replay.stats();
    const pages = stats.byMethod.getSignaturesForAddress ?? 0;
    const fetched = stats.byMethod.getTransaction ?? 0;
    // getTransaction requests: one batch per chunk (none for a chunk of failed signatures only).
    const txRequests = source.stats.transactionBatches;
    const symbolRequests = stats.httpRequests - pages - txRequests;
    const networkBoundMs = Math.max(pages * latencyMs + latencyMs, Math.ceil((pages + txRequests + symbolRequests) / maxInFlight) * latencyMs);
    const parseMs = source.transport.stats.parseMs;
    const decodeMs = source.stats.decodeMs;
    const cpuMs = parseMs + decodeMs;
    const limitMs = Math.max(networkBoundMs, cpuMs);
    return {
      trades: count,
      signatures: replay.signatures,
      transactionsFetched: fetched,
      signaturePages: pages,
      transactionBatches: txRequests,
      symbolCalls: source.tokenResolver.stats.calls,
      httpRequests: stats.httpRequests,
      responseMegabytes: stats.bytesOut / 1e6,
      latencyMs,
      maxInFlight,
      wallMs,
      firstBatchMs,
      firstBatchRoundTrips: firstBatchMs / latencyMs,
      networkBoundMs,
      parseMs,
      scanMs: source.transport.stats.scanMs,
      decodeMs,
      cpuMs,
      processCpuMs: (cpu.user + cpu.system) / 1000,
      gcMs,
      limitMs,
      serialLimitMs: networkBoundMs + cpuMs,
      ratio: wallMs / limitMs,
      withinTarget: wallMs <= 1.5 * limitMs,
      ratioToProcessCpu: wallMs / Math.max(networkBoundMs, (cpu.user + cpu.system) / 1000),
      cpu: cpuAccount,
    };
  } finally {
    await replay.close();
  }
}
