/**
 * The server the scale-out benchmark runs several of, each in a process of its own: createServer
 * as the SvelteKit hook wires it (store, loaders, decode threads, API) behind the built app's own
 * route files (tests/support/app.ts), with scripted Solana sources instead of an RPC. Scripted,
 * not the replay RPC: that benchmark measures what instances add to one another on one database
 * (pages, round trips, loads at an RPC's pace), and on this 2-core machine two instances decoding
 * real transactions would be bounded by the cores they share, not by how they coordinate. The
 * memory benchmark, which measures a server as an operator runs it, runs `node build` instead.
 * Prints `{"url": ...}` once listening.
 *
 * Environment: DATA_DIR or DATABASE_URL (the store), DATABASE_POOL_SIZE, BIG_WALLET and BIG_TX
 * (a wallet of 5,000-transaction batches as fast as the store takes them); every other wallet has
 * WALLET_TX transactions (default 2,000) in WALLET_BATCH-transaction batches (100) WALLET_DELAY_MS
 * apart (200), at most SOURCE_IN_FLIGHT batches at once over all wallets (unbounded).
 */
import { loadConfig } from '../../src/lib/server/config.js';
import { createServer } from '../../src/lib/server/create-server.js';
import type { ChainSource } from '../../src/lib/core/chain-source.js';
import { createScriptedSource, type ScriptedSource } from '../support/scripted-source.js';
import { createLimiter } from '../../src/lib/rpc/limiter.js';
import { OTHER_KEY, TEST_KEY } from '../support/test-server.js';
import { serveApp } from '../support/app.js';

const big = process.env.BIG_WALLET ?? '';
const bigTx = Number(process.env.BIG_TX ?? 15_000);
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
  CURSOR_SECRET: 'bench-scale-out-secret',
  DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? '10',
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
