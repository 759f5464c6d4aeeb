import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFunctionData } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, createChainDriver } from '../support/anvil/contracts.js';
import { buildScenario, type Scenario } from '../support/anvil/scenario.js';
import { startTestServer, streamAll, type TestServer } from '../support/test-server.js';

/**
 * A reorganisation above the confirmation point while the wallet is served (anvil snapshot and
 * revert): a swap mined in the newest block is never delivered while it sits above the `safe`
 * block; the chain then drops it and mines another swap of the wallet in its place; once blocks
 * follow, the new swap is delivered, the dropped one never was, and nothing delivered before
 * changed.
 */
const WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
let s: Scenario;
let srv: TestServer;
let dir: string;

beforeAll(async () => {
  s = await buildScenario({ rounds: 2, gapBlocks: 50, clusterSize: 1, erc4337: false });
  dir = mkdtempSync(join(tmpdir(), 'wth-reorg-'));
  const file = join(dir, 'chains.json');
  writeFileSync(file, JSON.stringify([s.chainsFileEntry('devreorg')]));
  // HEAD_STALE_SECONDS 0: every read from the top looks for new trades.
  srv = await startTestServer({ sources: 'default', env: { EVM_CHAINS_FILE: file, HEAD_STALE_SECONDS: '0' } });
}, 120_000);
afterAll(async () => {
  await srv?.close();
  await s?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const signatures = (trades: string[]) => trades.map((t) => JSON.parse(t).signature as string);

describe('a reorganisation above the confirmation point', () => {
  it('never changes what was delivered, and serves the trades of the chain that settles', async () => {
    const d = createChainDriver(s.rpcUrl);
    const before = (await streamAll(srv, s.wallet, 'chain=devreorg')).trades;
    expect(before.length).toBe(s.groundTruth.length);

    const snapshot = await d.rpc.call<string>('evm_snapshot', []);
    const dropped = await s.extraBuy();
    // The dropped swap sits in the newest block, above `safe`: not served.
    const during = (await streamAll(srv, s.wallet, 'chain=devreorg')).trades;
    expect(signatures(during)).not.toContain(dropped.signature);
    expect(during.slice(-before.length)).toEqual(before);

    // The reorganisation: back to the snapshot, another swap of the wallet in its place, then
    // blocks on top so it settles below `safe`.
    expect(await d.rpc.call<boolean>('evm_revert', [snapshot])).toBe(true);
    const router = s.addresses.v2Router;
    const token = Object.values(s.addresses.tokens)[0];
    const data = encodeFunctionData({
      abi: ARTIFACTS.v2Router().abi,
      functionName: 'swapExactETHForTokens',
      args: [0n, [s.addresses.weth, token], WALLET, 2n ** 40n],
    } as never);
    const replacement = await d.sendRaw(WALLET, router, data, 777_000_000_000_000n, 400_000n);
    expect(replacement.status).toBe('0x1');
    await s.mine(3);

    const after = (await streamAll(srv, s.wallet, 'chain=devreorg')).trades;
    expect(signatures(after)).toContain(replacement.transactionHash.toLowerCase());
    expect(signatures(after)).not.toContain(dropped.signature);
    expect(after.slice(-before.length)).toEqual(before);
    expect(after.length).toBe(before.length + 1);
    const usage = (await (await srv.get('/v1/usage')).json()).trades;
    expect(usage).toBe(after.length);
  }, 120_000);
});
