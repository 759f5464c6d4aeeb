/**
 * The server the memory benchmark measures, in a process of its own so its RSS is the server's
 * alone: createServer as the SvelteKit hook wires it (store, loaders, decode threads, API) behind
 * serveNode, with scripted Solana sources instead of an RPC (the RPC client's memory is not what
 * is measured here). Prints `{"url": ...}` once listening.
 *
 * Environment: DATA_DIR or DATABASE_URL (the store), BIG_WALLET and BIG_TX (the wallet loaded
 * with ~1,000,000 trades: 5,000-transaction batches as fast as the store takes them); every other
 * wallet has 2,000 transactions in 100-transaction batches 200 ms apart, so its streams stay open
 * about 4 s (WALLET_TX, WALLET_BATCH, WALLET_DELAY_MS change that).
 */
import { loadConfig } from '../../src/lib/server/config.js';
import { createServer } from '../../src/lib/server/create-server.js';
import type { ChainSource } from '../../src/lib/core/chain-source.js';
import { createScriptedSource, type ScriptedSource } from '../support/scripted-source.js';
import { createLimiter } from '../../src/lib/rpc/limiter.js';
import { OTHER_KEY, TEST_KEY } from '../support/test-server.js';
import { serveApp } from '../support/app.js';

const big = process.env.BIG_WALLET ?? '';
const bigTx = Number(process.env.BIG_TX ?? 875_000);
// Every other wallet (the scale-out benchmark sets these to pace its loads like an RPC would).
const otherTx = Number(process.env.WALLET_TX ?? 2_000);
const otherBatch = Number(process.env.WALLET_BATCH ?? 100);
const otherDelayMs = Number(process.env.WALLET_DELAY_MS ?? 200);
const scripted = new Map<string, ScriptedSource>();
// SOURCE_IN_FLIGHT: batches fetched at once by this process over all wallets, as an instance's
// RPC limiter (RPC_MAX_IN_FLIGHT_<SLUG>) bounds what it asks its endpoint; unbounded by default.
const inFlight = createLimiter({ maxInFlight: Number(process.env.SOURCE_IN_FLIGHT ?? 1e9) });
const source: ChainSource = {
  chain: 'sol',
  history(p) {
    const walk = scriptedFor(p.wallet).history(p);
    return {
      [Symbol.asyncIterator]() {
        const it = walk[Symbol.asyncIterator]();
        return { next: () => inFlight.run(() => it.next()), return: (v?: unknown) => it.return?.(v) ?? Promise.resolve({ done: true, value: undefined }) };
      },
    } as ReturnType<ChainSource['history']>;
  },
};
function scriptedFor(wallet: string): ScriptedSource {
  let s = scripted.get(wallet);
  if (!s) {
    s = createScriptedSource(
      wallet === big ? { transactions: bigTx, batchSize: 5_000 } : { transactions: otherTx, batchSize: otherBatch, delayMs: otherDelayMs },
    );
    scripted.set(wallet, s);
  }
  return s;
}

const config = loadConfig({
  API_KEYS: `alice:${TEST_KEY},bob:${OTHER_KEY}`,
  CURSOR_SECRET: 'bench-memory-secret',
  DATA_DIR: process.env.DATA_DIR ?? './data',
  DATABASE_URL: process.env.DATABASE_URL ?? '',
  STREAM_MAX_SECONDS: '600',
  RATE_LIMIT_PER_MINUTE: '0',
  MAX_CONCURRENT_REQUESTS: '1000',
  MAX_STREAMS_PER_KEY: '1000',
});
const server = await createServer({ config, log: () => {}, sources: () => source });
const http = await serveApp(server);
console.log(JSON.stringify({ url: http.url }));
// `kill -USR2 <pid>`: where the memory is (V8 heap, WebAssembly and buffers outside it), on stderr.
process.on('SIGUSR2', () => {
  const m = process.memoryUsage();
  const mb = (n: number) => Math.round(n / 2 ** 20);
  console.error(
    JSON.stringify({ rss: mb(m.rss), heapTotal: mb(m.heapTotal), heapUsed: mb(m.heapUsed), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers) }),
  );
});
