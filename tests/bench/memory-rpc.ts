/**
 * The Solana RPC of the memory benchmark, in a process of its own (started by memory.ts): the
 * replay server (tests/support/sol-replay) serving WALLETS synthesised wallets of WALLET_TRADES
 * trades each and one wallet of about BIG_TRADES trades, a period of PERIOD_TRADES repeated
 * (repeated-wallet.ts). Prints one JSON line `{ url, wallets, big, bigTrades, signatures }` once
 * listening; a message `{ latencyMs }` on the IPC channel changes the latency of every later
 * answer and is answered `{ latencyMs }`. Exits with its parent.
 *
 *   node --import tsx tests/bench/memory-rpc.ts   (environment: the names above, LATENCY_MS, SEED)
 */
import {
  buildTokenAccounts,
  loadSolanaFixtures,
  mintsOf,
  safeDecode,
  startSolanaReplayServer,
  synthesizeWallet,
  testMintsFrom,
} from '../support/sol-replay/index.js';
import { repeatWallet } from '../support/sol-replay/repeated-wallet.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const seed = num('SEED', 1);
const bigTrades = num('BIG_TRADES', 1_000_000);
const periodTrades = Math.min(bigTrades, num('PERIOD_TRADES', 2_000));

const fixtures = loadSolanaFixtures();
const synth = (trades: number, s: number) => synthesizeWallet({ decode: safeDecode, fixtures, trades, seed: s });
const wallets = Array.from({ length: num('WALLETS', 20) }, (_, i) => synth(num('WALLET_TRADES', 1_000), seed * 1000 + i + 1));
const big = repeatWallet(synth(periodTrades, seed), Math.round(bigTrades / periodTrades));

const accounts = await buildTokenAccounts(testMintsFrom([...fixtures.flatMap((f) => mintsOf(f.tx)), ...big.mints, ...wallets.flatMap((w) => w.mints)]));
const transactions = wallets.flatMap((w) => w.transactions).concat(big.transactions);
const server = await startSolanaReplayServer({ transactions, accounts, latencyMs: num('LATENCY_MS', 0) });
// getTokenAccountsByOwner's answers, worked out now rather than in the first request of a walk.
for (const w of wallets) server.tokenAccountsOf(w.wallet);
big.listTokenAccounts(server);

process.stdout.write(
  JSON.stringify({ url: server.url, wallets: wallets.map((w) => w.wallet), big: big.wallet, bigTrades: big.tradeCount, signatures: big.transactions.length }) +
    '\n',
);
process.on('message', (m: { latencyMs?: number }) => {
  if (typeof m.latencyMs === 'number') server.config.latencyMs = m.latencyMs;
  process.send!({ latencyMs: server.config.latencyMs });
});
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('disconnect', stop);
