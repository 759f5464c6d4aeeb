/**
 * A cold 10,000-trade Tron wallet through the real HTTP endpoint, the Tron source reading the
 * TronGrid replay in a process of its own (50 ms a request, 8 requests in flight):
 *  - TronGrid HTTP requests per trade, apart from the token look-ups (target 1.05), and the
 *    look-ups next to the distinct tokens (one each);
 *  - the time to index and stream the wallet next to its bound, the larger of
 *      network: the account pages are a chain (each needs the previous fingerprint), the first
 *        infos wait for the first page, and every request shares the 8 slots:
 *        max(P·L + L, ceil(R / M)·L)
 *      CPU: JSON parsing + decoding (the source's counts) + the store's commits, in the same run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTronSource, type TronSource } from '../../src/lib/chains/tron/source.js';
import { createStoreTokenCache } from '../../src/lib/server/store/tokens.js';
import type { TronReplayStats } from '../support/tron-replay/server.js';
import { startTestServer, TEST_KEY } from '../support/test-server.js';
import { streamFromAnotherThread } from './stream-client.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SERVE = fileURLToPath(new URL('../support/tron-replay/serve.ts', import.meta.url));

export interface TronBenchResult {
  trades: number;
  httpRequests: number;
  pages: number;
  infos: number;
  tokenLookups: number;
  distinctTokens: number;
  requestsPerTradeBeforeLookups: number;
  indexMs: number;
  networkBoundMs: number;
  parseMs: number;
  decodeMs: number;
  storeMs: number;
  limitMs: number;
}

async function startChildTronReplay(trades: number, latencyMs: number) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SERVE, '--trades', String(trades), '--latency', String(latencyMs), '--json'], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const info = await new Promise<{ url: string; wallet: string; trades: number; tokens: number }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
    });
    child.on('exit', (code) => reject(new Error(`replay exited (${code}): ${stderr.slice(-500)}`)));
  });
  const ask = (m: string) =>
    new Promise<TronReplayStats>((resolve) => {
      child.once('message', (r: any) => resolve(r.stats));
      child.send(m);
    });
  return {
    ...info,
    stats: () => ask('stats'),
    reset: () => ask('reset'),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function benchTron({ trades = 10_000, latencyMs = 50, maxInFlight = 8 } = {}): Promise<TronBenchResult> {
  const rpc = await startChildTronReplay(trades, latencyMs);
  try {
    let source: TronSource | undefined;
    const srv = await startTestServer({
      sources: { tron: { chain: 'tron', history: (p) => source!.history(p) } },
      env: { STREAM_MAX_SECONDS: '600', RATE_LIMIT_PER_MINUTE: '0' },
    });
    try {
      source = createTronSource({ rpcUrl: rpc.url, tokens: createStoreTokenCache(srv.server.db), maxInFlight });
      await rpc.reset();
      const { indexMs, final } = await streamFromAnotherThread(`${srv.url}/v1/wallets/${rpc.wallet}/history?chain=tron`, TEST_KEY);
      if (!final?.complete) throw new Error('the cold Tron wallet did not complete');
      const stats = await rpc.stats();
      const pages = stats.byEndpoint.transactions ?? 0;
      const infos = stats.byEndpoint.info ?? 0;
      const tokenLookups = (stats.byEndpoint.trc20 ?? 0) + (stats.byEndpoint.constant ?? 0);
      // the stats request is not part of the walk (it goes over IPC, not HTTP)
      const networkBoundMs = Math.max(pages * latencyMs + latencyMs, Math.ceil(stats.httpRequests / maxInFlight) * latencyMs);
      const storeMs = (await srv.server.loaders.get('tron', rpc.wallet)).stats.commitMs;
      const { parseMs, decodeMs } = source.stats;
      return {
        trades: final.tradeCount,
        httpRequests: stats.httpRequests,
        pages,
        infos,
        tokenLookups,
        distinctTokens: rpc.tokens,
        requestsPerTradeBeforeLookups: (stats.httpRequests - tokenLookups) / final.tradeCount,
        indexMs,
        networkBoundMs,
        parseMs,
        decodeMs,
        storeMs,
        limitMs: Math.max(networkBoundMs, parseMs + decodeMs + storeMs),
      };
    } finally {
      await srv.close();
    }
  } finally {
    await rpc.close();
  }
}
