/**
 * Local demo and out-of-process server for the benchmark:
 *
 *   npx tsx tests/support/sol-replay/serve.ts --trades 5000 --latency 50 [--faults 0.1] [--no-batch]
 *        [--rate-limit 100/10000] [--seed 1] [--port 8899] [--json] [--small-wallets 5 --small-trades 300]
 *
 * Serves the recorded fixtures plus one synthesised wallet (and, with --small-wallets, that many
 * more of --small-trades trades each, on the same tokens); prints the URL and the wallets (one
 * JSON line with --json). Point RPC_URL_SOL at the URL. Runs until killed.
 */
import { buildReplayWorld, safeDecode, startSolanaReplayServer } from './index.js';
import { synthesizeWallet } from './synth.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

const trades = Number(arg('trades') ?? 5000);
const seed = Number(arg('seed') ?? 1);
const world = await buildReplayWorld({ trades, seed, includeFixtures: !flag('no-fixtures') });
const small = Array.from({ length: Number(arg('small-wallets') ?? 0) }, (_, i) =>
  synthesizeWallet({ decode: safeDecode, fixtures: world.fixtures, trades: Number(arg('small-trades') ?? 300), seed: seed * 1000 + i + 1 }),
);
for (const w of small) world.transactions.push(...w.transactions);
const rl = arg('rate-limit')?.split('/').map(Number);
const server = await startSolanaReplayServer({
  transactions: world.transactions,
  accounts: world.accounts,
  latencyMs: Number(arg('latency') ?? 0),
  batch: !flag('no-batch'),
  port: Number(arg('port') ?? 0),
  host: arg('host') ?? '127.0.0.1',
  rateLimit: rl ? { requests: rl[0], perMs: rl[1] ?? 1000 } : undefined,
  faults: arg('faults') ? { rate: Number(arg('faults')), seed: Number(arg('seed') ?? 1) } : undefined,
});
// What getTokenAccountsByOwner answers for the wallet, computed now rather than in a timed request.
for (const w of [world.wallet, ...small]) server.tokenAccountsOf(w.wallet);
const info = {
  url: server.url,
  wallet: world.wallet.wallet,
  trades: world.wallet.tradeCount,
  signatures: world.wallet.transactions.length,
  smallWallets: small.map((w) => w.wallet),
};
if (flag('json')) process.stdout.write(JSON.stringify(info) + '\n');
else {
  process.stdout.write(`Solana replay RPC at ${info.url}\n`);
  process.stdout.write(`wallet ${info.wallet}: ${info.trades} trades in ${info.signatures} transactions\n`);
  process.stdout.write(`RPC_URL_SOL=${info.url}\n`);
}
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// Started by the benchmark with an IPC channel: stop when the parent goes away.
if (process.send) process.on('disconnect', stop);
