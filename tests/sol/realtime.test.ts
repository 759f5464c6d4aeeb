import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solanaRealtime } from '../../src/lib/chains/sol/realtime/logs-subscribe.js';
import { wsUrlOf } from '../../src/lib/rpc/ws-subscriptions.js';
import { buildReplayWorld, startSolanaReplayServer, type ReplayServer, type ReplayWorld } from '../support/sol-replay/index.js';

/**
 * The Solana realtime stage (issue 24) against the replay's WebSocket: a transaction naming a
 * followed wallet is told at once through logsSubscribe; with the WebSocket dropped and refused,
 * the safety poll still tells it (a 1 s poll here; the bench measures the real 10 s); once the
 * WebSocket is back the stage resubscribes, looks at every wallet once, and is fast again.
 * WebSocket is the platform's: the tests run under Node 22 (npm run test:unit), which has it.
 */
let world: ReplayWorld;
let replay: ReplayServer;
let slot = 0;
beforeAll(async () => {
  world = await buildReplayWorld({ trades: 10, seed: 5, includeFixtures: false });
  replay = await startSolanaReplayServer({ transactions: world.transactions, accounts: world.accounts });
  slot = Math.max(...world.transactions.map((t) => t.slot));
});
afterAll(() => replay?.close());

async function newer(n: number, seed: number) {
  const more = await buildReplayWorld({ trades: n, seed, wallet: world.wallet.wallet, startSlot: (slot += 1_000), includeFixtures: false });
  for (const [k, v] of more.accounts) world.accounts.set(k, v);
  replay.addTransactions(more.transactions);
}

describe('Solana realtime stage', () => {
  it('tells a new transaction through logsSubscribe at once, through the poll while the WebSocket is down, and resubscribes', async () => {
    expect(typeof globalThis.WebSocket).toBe('function');
    const told: { at: number; wallets: string[] }[] = [];
    const abort = new AbortController();
    const other = 'So11111111111111111111111111111111111111112';
    const running = solanaRealtime(
      { wsUrl: wsUrlOf(replay.url), pollMs: 1_000 },
      { wallets: () => [world.wallet.wallet, other], onActivity: (w) => void told.push({ at: Date.now(), wallets: [...w] }), signal: abort.signal },
    );
    const after = (t0: number) => told.filter((t) => t.at >= t0);
    const until = async (f: () => boolean, ms: number) => {
      for (const end = Date.now() + ms; !f() && Date.now() < end;) await new Promise((r) => setTimeout(r, 20));
    };
    try {
      await until(() => replay.ws.subscriptions === 2, 5_000);
      expect(replay.ws.subscriptions).toBe(2);
      // Between polls: the WebSocket's notice comes first, naming the wallet only.
      await new Promise((r) => setTimeout(r, 1_050));
      const t0 = Date.now();
      await newer(1, 71);
      // Which path told is shown by whom it names (the WebSocket the one wallet, the poll both), not by a clock.
      await until(() => after(t0).some((t) => t.wallets.length === 1), 10_000);
      const ws = after(t0).find((t) => t.wallets.length === 1)!;
      expect(ws.wallets).toEqual([world.wallet.wallet]);

      // Dropped and refused: only the poll (every wallet) tells.
      replay.ws.refuse = true;
      replay.ws.drop();
      await new Promise((r) => setTimeout(r, 100));
      const t1 = Date.now();
      await newer(1, 72);
      await until(() => after(t1).length > 0, 10_000);
      expect(after(t1).length).toBeGreaterThan(0);
      expect(after(t1).every((t) => t.wallets.length === 2)).toBe(true);

      // Back: resubscribed, and fast again.
      replay.ws.refuse = false;
      await until(() => replay.ws.subscriptions === 2, 10_000);
      expect(replay.ws.subscriptions).toBe(2);
      await new Promise((r) => setTimeout(r, 300));
      const t2 = Date.now();
      await newer(1, 73);
      await until(() => after(t2).some((t) => t.wallets.length === 1), 10_000);
      expect(after(t2).find((t) => t.wallets.length === 1)!.wallets).toEqual([world.wallet.wallet]);
    } finally {
      abort.abort();
      await running;
    }
    // The stage closed its socket on the way out.
    for (let i = 0; i < 500 && replay.ws.connections > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(replay.ws.connections).toBe(0);
  }, 60_000);
});
