import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScenario, type Scenario } from '../support/anvil/scenario.js';
import { readLines } from '../support/follow-lines.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A follow stream on a real node (issue 24): anvil with Uniswap deployed from npm artifacts, the
 * built server with its own EVM source (confirmation `safe`, a block behind the head here). Once
 * the history is out, the wallet buys again; the buy reaches a live line once its block is safe,
 * through the EVM realtime stage (the confirmed head polled every 2 s, the followed wallets'
 * Transfer logs) and the walker's refresh. The latency is printed, as decisions.md's target
 * (≤ 2 s after the stage sees the confirmed block) is measured by the bench, not asserted here.
 */
let s: Scenario;
let dir: string;
let srv: TestServer;
beforeAll(async () => {
  s = await buildScenario({ chainId: 31345, rounds: 1, gapBlocks: 5, clusterSize: 1, erc4337: false });
  dir = mkdtempSync(join(tmpdir(), 'wth-follow-'));
  const file = join(dir, 'chains.json');
  writeFileSync(file, JSON.stringify([s.chainsFileEntry('devlive')]));
  srv = await startTestServer({ sources: 'default', env: { EVM_CHAINS_FILE: file, RPC_DISCOVERY_DEVLIVE: 'logs', FOLLOW_MAX_SECONDS: '60' } });
}, 120_000);
afterAll(async () => {
  await srv?.close();
  await s?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('follow=true on an EVM chain', () => {
  it('sends a new buy on a live line once its block is safe, exactly once', async () => {
    let bought: Awaited<ReturnType<Scenario['extraBuy']>> | null = null;
    let minedAt = 0;
    const lines = await readLines(await srv.get(`/v1/wallets/${s.wallet}/history?chain=devlive&follow=true`), async (l, all) => {
      if (l.complete === true) {
        bought = await s.extraBuy();
        // Two blocks on top: the buy's block is then behind `safe`.
        await s.mine(2);
        minedAt = Date.now();
      }
      // Stop at the first live line with a trade, and one empty line after it at most.
      return all.some((x) => x.live && x.trades?.length);
    });
    const history = lines.slice(
      0,
      lines.findIndex((l) => l.complete === true),
    );
    expect(history.flatMap((l) => l.trades ?? [])).toHaveLength(s.groundTruth.length);
    const live = lines.filter((l) => l.live && l.trades?.length);
    expect(live).toHaveLength(1);
    const got = live[0].trades!;
    const b = bought!;
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ signature: b.signature, side: b.side, tokenMint: b.tokenMint, amount: b.amount, amountSol: b.amountSol });
    console.log(`EVM follow: live line ${Date.now() - minedAt} ms after the buy's block was made safe (stage polls every 2 s)`);
  }, 60_000);
});
