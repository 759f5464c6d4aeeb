import { performance } from 'node:perf_hooks';
import { createSolanaSource, type SolanaSource } from '../../src/lib/chains/sol/source.js';
import { createStoreTokenCache } from '../../src/lib/server/store/tokens.js';
import { Worker } from 'node:worker_threads';
import { startTestServer, TEST_KEY } from '../support/test-server.js';
import { startChildReplay } from './sol-index.js';

export interface SolanaHttpBenchResult {
  latencyMs: number;
  trades: number;
  /** Request start to the first batch line that carries trades, ms and in round trips of latencyMs. */
  firstLineMs: number;
  firstLineRoundTrips: number;
  /** One request to the replay server and its answer, measured (median of 7 getHealth calls). */
  measuredRttMs: number;
  firstLineMeasuredRtts: number;
  /** The whole cold wallet streamed through the endpoint: fetch, decode, store and serve. */
  indexMs: number;
  /** Signature pages in sequence plus every HTTP request spread over the slots in flight. */
  networkBoundMs: number;
  /** CPU cost measured in the same run: JSON parsing, decoding, and the store's commits. */
  parseMs: number;
  decodeMs: number;
  storeMs: number;
  limitMs: number;
}

/**
 * A cold wallet through the real HTTP endpoint, the Solana source reading the replay server
 * (latency per request, batches of 100, 8 in flight): time to the first NDJSON batch line and to
 * the complete history, next to its limit, the larger of the network bound and the CPU cost of
 * parsing, decoding and storing (all on the one core the server runs on).
 */
export async function benchSolanaHttp({ trades = 10_000, latencyMs = 50, batchSize = 100, maxInFlight = 8 } = {}): Promise<SolanaHttpBenchResult> {
  // The replay server in its own process, as a real node would be: its ~140 MB of responses are
  // not built on the core the service runs on.
  const rpc = await startChildReplay(trades, latencyMs, 11);
  let source: SolanaSource | undefined;
  const srv = await startTestServer({
    sources: { sol: { chain: 'sol', history: (p) => source!.history(p) } },
    env: { STREAM_MAX_SECONDS: '600', RATE_LIMIT_PER_MINUTE: '0' },
  });
  // Built as the app builds it, with the store's token cache, so the run is cold and real.
  source = createSolanaSource({
    rpcUrl: rpc.url,
    tokens: createStoreTokenCache(srv.server.db),
    offload: srv.server.workers,
    batchSize,
    maxInFlight,
  });
  try {
    // As a server configured for Solana does at start: the decode worker is up before requests.
    await srv.server.workers.warm();
    const rtts: number[] = [];
    for (let i = 0; i < 8; i++) {
      const t = performance.now();
      await (await fetch(rpc.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"getHealth"}' })).text();
      if (i > 0) rtts.push(performance.now() - t); // the first opens the connection
    }
    const measuredRttMs = rtts.sort((a, b) => a - b)[3];
    const { firstLineMs, indexMs, final } = await streamFromAnotherThread(`${srv.url}/v1/wallets/${rpc.wallet}/history`, TEST_KEY);
    if (!final?.complete) throw new Error('the cold wallet did not complete');
    const stats = await rpc.stats();
    const pages = stats.byMethod.getSignaturesForAddress ?? 0;
    // Not part of the walk: the 8 getHealth calls before it and the stats request itself.
    const networkBoundMs = Math.max(pages * latencyMs + latencyMs, Math.ceil((stats.httpRequests - 9) / maxInFlight) * latencyMs);
    const parseMs = source.transport.stats.parseMs;
    const decodeMs = source.stats.decodeMs;
    const storeMs = (await srv.server.loaders.get('sol', rpc.wallet)).stats.commitMs;
    return {
      latencyMs,
      trades: final.tradeCount,
      firstLineMs,
      firstLineRoundTrips: firstLineMs / latencyMs,
      measuredRttMs,
      firstLineMeasuredRtts: firstLineMs / measuredRttMs,
      indexMs,
      networkBoundMs,
      parseMs,
      decodeMs,
      storeMs,
      limitMs: Math.max(networkBoundMs, parseMs + decodeMs + storeMs),
    };
  } finally {
    await srv.close();
    await rpc.close();
  }
}

/**
 * The client reads the stream on a thread of its own, as curl would in a process of its own: on
 * the server's thread it would see the first line only after whatever the server does next (the
 * walk's next batch launches, the next read; measured up to 15 ms after the line was written),
 * which no real client waits for. Times are taken on the client's thread, from the request to
 * the line, after a first request that loads the thread's fetch.
 */
async function streamFromAnotherThread(url: string, key: string): Promise<{ firstLineMs: number; indexMs: number; final: any }> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      // Node loads its fetch on first use (tens of ms): not part of what a client waits for.
      await (await fetch(new URL('/v1/chains', workerData.url))).text();
      const t0 = performance.now();
      const res = await fetch(workerData.url, { headers: { authorization: 'Bearer ' + workerData.key } });
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let text = '', firstLineMs = 0, final = null;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        let nl;
        while ((nl = text.indexOf('\\n')) >= 0) {
          const line = text.slice(0, nl);
          text = text.slice(nl + 1);
          if (!firstLineMs && line.startsWith('{"trades":[{')) firstLineMs = performance.now() - t0;
          if (line.startsWith('{"complete"')) final = JSON.parse(line);
        }
      }
      parentPort.postMessage({ firstLineMs, indexMs: performance.now() - t0, final });
    })().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
  `;
  const worker = new Worker(code, { eval: true, workerData: { url, key } });
  try {
    const r = await new Promise<any>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    if (r.error) throw new Error(`the client thread failed: ${r.error}`);
    return r;
  } finally {
    await worker.terminate();
  }
}
