import { performance } from 'node:perf_hooks';
import { buildReplayWorld, startSolanaReplayServer } from '../support/sol-replay/index.js';
import { startTestServer, TEST_KEY } from '../support/test-server.js';

export interface SolanaHttpBenchResult {
  latencyMs: number;
  trades: number;
  /** Request start to the first batch line that carries trades, ms and in round trips of latencyMs. */
  firstLineMs: number;
  firstLineRoundTrips: number;
  /** The whole cold wallet streamed through the endpoint: fetch, decode, store and serve. */
  indexMs: number;
}

/**
 * A cold wallet through the real HTTP endpoint with RPC_URL_SOL at the replay server
 * (latency per request, batches of 100, 8 in flight): time to the first NDJSON batch line
 * and to the complete history, storing included.
 */
export async function benchSolanaHttp({ trades = 10_000, latencyMs = 50 } = {}): Promise<SolanaHttpBenchResult> {
  const world = await buildReplayWorld({ trades, seed: 11 });
  const rpc = await startSolanaReplayServer({ transactions: world.transactions, accounts: world.accounts, latencyMs });
  const srv = await startTestServer({
    sources: 'default',
    env: { RPC_URL_SOL: rpc.url, RPC_BATCH_SIZE_SOL: '100', RPC_MAX_IN_FLIGHT_SOL: '8', STREAM_MAX_SECONDS: '600', RATE_LIMIT_PER_MINUTE: '0' },
  });
  try {
    const t0 = performance.now();
    const res = await fetch(`${srv.url}/v1/wallets/${world.wallet.wallet}/history`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let firstLineMs = 0;
    let final: any;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = text.indexOf('\n')) >= 0) {
        const line = text.slice(0, nl);
        text = text.slice(nl + 1);
        if (!firstLineMs && line.startsWith('{"trades":[{')) firstLineMs = performance.now() - t0;
        if (line.startsWith('{"complete"')) final = JSON.parse(line);
      }
    }
    const indexMs = performance.now() - t0;
    if (!final?.complete) throw new Error('the cold wallet did not complete');
    return { latencyMs, trades: final.tradeCount, firstLineMs, firstLineRoundTrips: firstLineMs / latencyMs, indexMs };
  } finally {
    await srv.close();
    await rpc.close();
  }
}
