/**
 * `npm run demo`: the service and its dashboard on local replays of real chain data, no RPC key,
 * no database server, nothing left behind.
 *
 *   npm run demo [-- --port 3000] [--json]
 *
 * Starts, each on 127.0.0.1:
 *  - the Solana replay (tests/support/sol-replay): the recorded mainnet transactions plus a wallet
 *    synthesised from them;
 *  - the TronGrid replay (tests/support/tron-replay): the real captures plus a synthesised wallet,
 *    some of whose swaps go through a venue the decoder cannot read (listed as not recognised);
 *  - anvil (from npm) with Uniswap V2 and V3 deployed from their npm artifacts and a wallet that
 *    traded on them, as the EVM chain `anvil` (EVM_CHAINS_FILE);
 *  - the built server (`node build`, built first when src/ is newer) on a throwaway embedded store,
 *    with a demo key.
 * Prints the key, the dashboard's URL, one wallet per family and a curl line (`--json`: one JSON
 * line instead, for tests). Ctrl-C (or SIGTERM) stops everything and removes the store.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildScenario } from './anvil/scenario.js';
import { deployDemoFeeds } from './demo-feeds.js';
import { ensureAppBuild } from './app-build.js';
import { corsProxy } from './cors-proxy.js';
import { buildReplayWorld, startSolanaReplayServer } from './sol-replay/index.js';
import { buildTronReplayWorld, startTronReplayServer } from './tron-replay/index.js';
import { hideVenueEvents } from './tron-replay/venue-unseen.js';

const ROOT = resolve(import.meta.dirname, '../..');
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const json = process.argv.includes('--json');
const port = Number(arg('port') ?? process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, got ${arg('port') ?? process.env.PORT}`);
  process.exit(2);
}
const say = (line: string) => void (json ? process.stderr : process.stdout).write(line + '\n');

const stops: Array<() => Promise<void> | void> = [];
let stopping = false;
async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    for (const s of stops.reverse()) await Promise.resolve(s()).catch(() => {});
  }
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

try {
  say('Starting the demo: local replays of real chain data, an anvil chain with Uniswap, and the server...');
  await ensureAppBuild();

  const sol = await buildReplayWorld({ trades: 1200, seed: 3 });
  const solRpc = await startSolanaReplayServer({ transactions: sol.transactions, accounts: sol.accounts });
  stops.push(() => solRpc.close());

  const tron = buildTronReplayWorld({ trades: 200, seed: 21 });
  const hidden = hideVenueEvents(tron, 3);
  const tronRpc = await startTronReplayServer(tron);
  stops.push(() => tronRpc.close());

  const evm = await buildScenario({ chainId: 31337, rounds: 2, gapBlocks: 10, clusterSize: 1, erc4337: false });
  stops.push(() => evm.stop());

  // USD values: feeds on the local chain (the real ones need a public Ethereum node; demo-feeds.ts).
  const feeds = await deployDemoFeeds(evm.rpcUrl, 'anvil', {
    SOL: sol.wallet.transactions.flatMap((t) => (t.blockTime ? [t.blockTime] : [])),
    TRX: tron.synth.expected.map((t) => Date.parse(t.blockTime) / 1000),
    ETH: evm.groundTruth.map((t) => Date.parse(t.blockTime) / 1000),
  });

  // The replays send no CORS headers: the proxies are what a browser's direct mode can call.
  const proxies = await Promise.all([solRpc.url, tronRpc.url, evm.rpcUrl].map((u) => corsProxy(u)));
  for (const p of proxies) stops.push(() => p.close());

  const dir = mkdtempSync(join(tmpdir(), 'wth-demo-'));
  stops.push(() => rmSync(dir, { recursive: true, force: true }));
  const chainsFile = join(dir, 'chains.json');
  writeFileSync(chainsFile, JSON.stringify([evm.chainsFileEntry('anvil')]));
  const key = `wth_demo_${randomBytes(18).toString('base64url')}`;
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = await startServer(
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      ORIGIN: baseUrl,
      DATA_DIR: join(dir, 'data'),
      DATABASE_URL: '',
      API_KEYS: `demo:${key}`,
      CURSOR_SECRET: randomBytes(24).toString('base64url'),
      RPC_URL_SOL: solRpc.url,
      RPC_URL_TRON: tronRpc.url,
      EVM_CHAINS_FILE: chainsFile,
      ...feeds,
      // The feeds are local: a first read waits for its prices rather than showing none on a slow machine.
      PRICE_WAIT_MS: '10000',
    },
    baseUrl,
  );
  stops.push(
    () =>
      new Promise<void>((r) => {
        if (server.exitCode !== null || server.signalCode !== null) return r();
        server.once('exit', () => r());
        server.kill('SIGTERM');
      }),
  );
  server.once('exit', (code) => {
    if (!stopping) {
      console.error(`the server stopped (exit ${code}); stopping the demo`);
      void stopAll(1);
    }
  });

  const wallets = [
    { chain: 'sol', address: sol.wallet.wallet, trades: sol.wallet.tradeCount, directRpc: proxies[0].url },
    {
      chain: 'tron',
      address: tron.synth.wallet,
      trades: tron.synth.expected.filter((t) => !hidden.has(t.signature)).length,
      notRecognised: hidden.size,
      directRpc: proxies[1].url,
    },
    { chain: 'anvil', address: evm.wallet, trades: evm.groundTruth.length, directRpc: proxies[2].url },
  ];
  if (json) process.stdout.write(JSON.stringify({ url: baseUrl, key, wallets }) + '\n');
  else {
    say('');
    say(`Dashboard and API: ${baseUrl}`);
    say(`API key (paste it under "Set API key"): ${key}`);
    say('');
    say('Wallets to try (pick the chain, paste the address, Load):');
    for (const w of wallets) {
      const extra = w.notRecognised ? `, ${w.notRecognised} transactions not recognised` : '';
      say(`  ${w.chain.padEnd(6)} ${w.address}  (${w.trades} trades${extra})`);
    }
    say('');
    say('From a shell:');
    say(`  KEY=${key}`);
    say(`  curl -s -H "Authorization: Bearer $KEY" "${baseUrl}/v1/wallets/${wallets[0].address}/history?limit=5"`);
    say(`  curl -s -H "Authorization: Bearer $KEY" "${baseUrl}/v1/wallets/${wallets[0].address}/history?limit=5&include=usd"`);
    say('');
    say('USD values here come from Chainlink-shaped feeds on the local anvil chain with made-up prices;');
    say('a real server reads the chains\' own feeds (README, "USD values").');
    say('');
    say('Direct mode ("Directly from a chain RPC") RPC URLs, which allow browsers:');
    for (const w of wallets) say(`  ${w.chain.padEnd(6)} ${w.directRpc}`);
    say('');
    say('Ctrl-C stops everything and removes the demo store.');
  }
} catch (e) {
  console.error(`the demo could not start: ${e instanceof Error ? e.message : String(e)}`);
  await stopAll(1);
}

/** The built server as an operator runs it; resolves once /readyz answers. */
async function startServer(env: Record<string, string>, baseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['build'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  child.stdout!.on('data', (d) => logs.push(String(d)));
  child.stderr!.on('data', (d) => logs.push(String(d)));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited at start (${child.exitCode}):\n${logs.join('')}`);
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer at ${baseUrl} within 60 s:\n${logs.join('')}`);
}
