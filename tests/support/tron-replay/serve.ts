/**
 * Local demo and out-of-process server for the benchmark:
 *
 *   npx tsx tests/support/tron-replay/serve.ts --trades 600 --latency 50 [--faults 0.1] [--seed 1] [--port 8090] [--json]
 *
 * Serves the real Tron captures plus one synthesised wallet over the TronGrid subset of
 * tron-endpoints.md; prints the URL and the wallet (one JSON line with --json). Point
 * RPC_URL_TRON at the URL. Runs until killed. Started with an IPC channel (the benchmark), it
 * answers `'stats'` and `'reset'` messages with the replay's counts.
 */
import { buildTronReplayWorld, startTronReplayServer } from './index.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

const trades = Number(arg('trades') ?? 600);
const seed = Number(arg('seed') ?? 1);
const world = buildTronReplayWorld({ trades, seed });
const server = await startTronReplayServer({
  ...world,
  latencyMs: Number(arg('latency') ?? 0),
  port: Number(arg('port') ?? 0),
  faults: arg('faults') ? { rate: Number(arg('faults')), kinds: ['429', '429-retry-after', '5xx', 'reset'], seed } : undefined,
});
const info = {
  url: server.url,
  wallet: world.synth.wallet,
  trades: world.synth.expected.length,
  transactions: world.synth.transactions.length,
  tokens: new Set(world.synth.expected.map((t) => t.tokenMint)).size,
};
if (flag('json')) process.stdout.write(JSON.stringify(info) + '\n');
else {
  process.stdout.write(`TronGrid replay at ${info.url}\n`);
  process.stdout.write(`wallet ${info.wallet}: ${info.trades} trades in ${info.transactions} transactions\n`);
  process.stdout.write(`RPC_URL_TRON=${info.url}\n`);
}
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
if (process.send) {
  process.on('disconnect', stop);
  process.on('message', (m) => {
    if (m === 'reset') server.resetStats();
    process.send!({ stats: server.stats });
  });
}
