import { performance } from 'node:perf_hooks';
import { createSolanaSource, type SolanaSource } from '../../src/lib/chains/sol/source.js';
import { createStoreTokenCache } from '../../src/lib/server/store/tokens.js';
import { startTestServer, TEST_KEY } from '../support/test-server.js';
import { startCpuAccount, type CpuAccount } from './sol-cpu.js';
import { startChildReplay } from './sol-index.js';
import { median, streamFromAnotherThread } from './stream-client.js';

export interface SolanaHttpBenchResult {
  latencyMs: number;
  trades: number;
  /** Request start to the first batch line that carries trades (median over fresh servers), ms and in round trips of latencyMs. */
  firstLineMs: number;
  /** Each fresh server's figure, in the order measured. */
  firstLines: number[];
  firstLineRoundTrips: number;
  /** One request to the replay server and its answer, measured (median of 7 getHealth calls on an open connection). */
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
  /**
   * The pipelined limit, the one the target is on: max(network, parse + decode, store), the
   * slowest stage alone (parse and decode run in the decode worker, the store on the main thread).
   */
  limitMs: number;
  /** The serial limit: max(network, parse + decode + store), the CPU stages taking turns. */
  serialLimitMs: number;
  cpu: CpuAccount;
}

/** A server as the app builds it (store token cache, decode worker up), its Solana source on `rpcUrl`. */
async function startServerOn(rpcUrl: string, batchSize: number, maxInFlight: number) {
  // Assigned once the server (and its store) exists; the scripted source reads it lazily.
  // eslint-disable-next-line prefer-const
  let source: SolanaSource | undefined;
  const srv = await startTestServer({
    sources: { sol: { chain: 'sol', history: (p) => source!.history(p) } },
    env: { STREAM_MAX_SECONDS: '600', RATE_LIMIT_PER_MINUTE: '0' },
  });
  source = createSolanaSource({ rpcUrl, tokens: createStoreTokenCache(srv.server.db), offload: srv.server.workers, batchSize, maxInFlight });
  // As a server configured for Solana does at start: the decode worker is up before requests.
  await srv.server.workers.warm();
  return { srv, source };
}

/** Cold wallets the first line is measured on; the median is reported (one run moves by ±20 ms here). */
const FIRST_LINE_PROBES = 5;

/**
 * A cold wallet through the real HTTP endpoint, the Solana source reading the replay server
 * (latency per request, batches of 100, 8 in flight): time to the first NDJSON batch line, and
 * to the complete history next to its limit, the larger of the network bound and the CPU cost of
 * parsing, decoding and storing measured in the same run.
 *
 * The first line is measured on FIRST_LINE_PROBES wallets in turn, on one server as it runs:
 * wallets it has never seen, whose token symbols are wiped from its store before each, so
 * nothing about the wallet is known (the server's code and its database connection are warm
 * after the first, as a running server's are). The client goes away after the line. The whole
 * 10,000-trade walk then runs on a fresh server.
 *
 * Two limits are given: serial, max(network, parse + decode + store), as if the CPU stages took
 * turns; and pipelined, max(network, parse + decode, store), every stage overlapped with the
 * others (decoding in the worker thread, storing on the main thread), which the target is on.
 */
export async function benchSolanaHttp({ trades = 10_000, latencyMs = 50, batchSize = 100, maxInFlight = 8 } = {}): Promise<SolanaHttpBenchResult> {
  // The replay server in its own process, as a real node would be: its ~140 MB of responses are
  // not built on the core the service runs on.
  const rpc = await startChildReplay(trades, latencyMs, 11, { smallWallets: FIRST_LINE_PROBES, smallTrades: 300 });
  try {
    const rtts: number[] = [];
    for (let i = 0; i < 8; i++) {
      const t = performance.now();
      await (
        await fetch(rpc.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"getHealth"}' })
      ).text();
      if (i > 0) rtts.push(performance.now() - t); // the first opens the connection
    }
    const measuredRttMs = median(rtts);

    const firstLines: number[] = [];
    const probe = await startServerOn(rpc.url, batchSize, maxInFlight);
    try {
      for (const wallet of rpc.smallWallets) {
        await probe.srv.server.db.query('DELETE FROM tokens');
        const r = await streamFromAnotherThread(`${probe.srv.url}/v1/wallets/${wallet}/history`, TEST_KEY, { untilFirstLine: true });
        if (!r.firstLineMs) throw new Error(`no trade line for ${wallet}`);
        firstLines.push(r.firstLineMs);
        // The walk goes on in the background after the client left: let it end before the next
        // wallet, which would otherwise share the threads and the node with it.
        const loader = await probe.srv.server.loaders.get('sol', wallet);
        while (loader.running) await loader.nextChange(1_000);
      }
    } finally {
      await probe.srv.close();
    }
    const firstLineMs = median(firstLines);

    await rpc.resetStats();
    const { srv, source } = await startServerOn(rpc.url, batchSize, maxInFlight);
    try {
      const account = startCpuAccount();
      const { indexMs, final } = await streamFromAnotherThread(`${srv.url}/v1/wallets/${rpc.wallet}/history`, TEST_KEY);
      const cpu = account();
      if (!final?.complete) throw new Error('the cold wallet did not complete');
      const stats = await rpc.stats();
      const pages = stats.byMethod.getSignaturesForAddress ?? 0;
      // Not part of the walk: the stats request itself.
      const networkBoundMs = Math.max(pages * latencyMs + latencyMs, Math.ceil((stats.httpRequests - 1) / maxInFlight) * latencyMs);
      const parseMs = source.transport.stats.parseMs;
      const decodeMs = source.stats.decodeMs;
      const storeMs = (await srv.server.loaders.get('sol', rpc.wallet)).stats.commitMs;
      return {
        latencyMs,
        trades: final.tradeCount,
        firstLineMs,
        firstLines,
        firstLineRoundTrips: firstLineMs / latencyMs,
        measuredRttMs,
        firstLineMeasuredRtts: firstLineMs / measuredRttMs,
        indexMs,
        networkBoundMs,
        parseMs,
        decodeMs,
        storeMs,
        limitMs: Math.max(networkBoundMs, parseMs + decodeMs, storeMs),
        serialLimitMs: Math.max(networkBoundMs, parseMs + decodeMs + storeMs),
        cpu,
      };
    } finally {
      await srv.close();
    }
  } finally {
    await rpc.close();
  }
}
