import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSolanaTransaction } from '../../src/lib/chains/sol/decode/decode-transaction.js';
import { createSolanaSource, type SolanaDecoder } from '../../src/lib/chains/sol/source.js';
import type { SourceUnexplained } from '../../src/lib/core/activity.js';
import { createMemoryTokenCache } from '../../src/lib/core/chain-source.js';
import type { SourceTrade } from '../../src/lib/core/trade.js';
import { buildReplayWorld, startSolanaReplayServer, type ReplayServer, type ReplayWorld } from '../support/sol-replay/index.js';

/**
 * Unexplained activity through the Solana source (issue 20), on a synthesised wallet of real
 * venue transactions served by the replay RPC. With a venue taken out of the decoder (a decoder
 * that drops its trades), each of its transactions is listed with the wallet's balance changes,
 * whose token amounts are exactly what the full decoder's trades say moved; put back, they are
 * trades again and the list holds only what the full decoder does not read.
 */
let world: ReplayWorld;
let server: ReplayServer;
beforeAll(async () => {
  world = await buildReplayWorld({ trades: 300, seed: 29 });
  server = await startSolanaReplayServer({ transactions: world.transactions, accounts: world.accounts });
});
afterAll(async () => server?.close());

async function walk(decode?: SolanaDecoder): Promise<{ trades: SourceTrade[]; unexplained: SourceUnexplained[] }> {
  const source = createSolanaSource({ rpcUrl: server.url, tokens: createMemoryTokenCache(), batchSize: 25, ...(decode ? { decode } : {}) });
  const trades: SourceTrade[] = [];
  const unexplained: SourceUnexplained[] = [];
  for await (const b of source.history({ wallet: world.wallet.wallet })) {
    trades.push(...b.trades);
    unexplained.push(...(b.unexplained ?? []));
  }
  return { trades, unexplained };
}

describe('unexplained activity from the Solana source', () => {
  it('a venue taken out lists each of its swaps with the exact changes; put back, they are trades and leave the list', async () => {
    const full = await walk();
    // The venue with the most single-venue transactions of this wallet.
    const bySig = new Map<string, SourceTrade[]>();
    for (const t of full.trades) bySig.set(t.signature, [...(bySig.get(t.signature) ?? []), t]);
    const count = new Map<string, number>();
    for (const ts of bySig.values()) if (new Set(ts.map((t) => t.dex)).size === 1) count.set(ts[0].dex, (count.get(ts[0].dex) ?? 0) + 1);
    const [venue, n] = [...count].sort((a, b) => b[1] - a[1])[0];
    expect(n).toBeGreaterThanOrEqual(10);
    const ofVenue = [...bySig].filter(([, ts]) => ts.every((t) => t.dex === venue));

    const without = await walk((tx, w) => decodeSolanaTransaction(tx, w).filter((t) => t.dex !== venue));
    // Its transactions are no longer trades...
    expect(without.trades.filter((t) => t.dex === venue)).toEqual([]);
    expect(without.trades.length).toBe(full.trades.filter((t) => !ofVenue.some(([s]) => s === t.signature)).length);
    // ...and each is listed, newest first, with the token amounts its trades stated (signed by
    // side), SOL apart (its change holds the fee share and rent the trade's figure leaves out).
    const listed = new Map(without.unexplained.map((u) => [u.signature, u]));
    for (const [signature, ts] of ofVenue) {
      const u = listed.get(signature);
      expect(u, signature).toBeDefined();
      const tokens = u!.changes.filter((c) => c.tokenMint !== null);
      expect(tokens.map((c) => [c.tokenMint, c.amount]).sort(), signature).toEqual(
        ts.map((t) => [t.tokenMint, t.side === 'sell' ? `-${t.amount}` : t.amount]).sort(),
      );
      expect(u!.blockTime).toBe(ts[0].blockTime);
      expect(u!.position).toBe(ts[0].position);
      expect(u!.programs.length).toBeGreaterThan(0);
    }
    const positions = without.unexplained.map((u) => u.position);
    expect(positions).toEqual([...positions].sort().reverse());
    // Put back: none of them is listed.
    for (const u of full.unexplained) expect(ofVenue.some(([s]) => s === u.signature)).toBe(false);
    expect(without.unexplained.length).toBe(full.unexplained.length + ofVenue.length);
  });
});
