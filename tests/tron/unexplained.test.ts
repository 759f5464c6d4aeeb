import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTronSource } from '../../src/lib/chains/tron/source.js';
import type { SourceUnexplained } from '../../src/lib/core/activity.js';
import { createMemoryTokenCache } from '../../src/lib/core/chain-source.js';
import type { SourceTrade } from '../../src/lib/core/trade.js';
import { createHttpJsonClient } from '../../src/lib/rpc/http-json.js';
import { buildTronReplayWorld, startTronReplayServer, type TronReplayServer, type TronReplayWorld } from '../support/tron-replay/index.js';
import { hideVenueEvents } from '../support/tron-replay/venue-unseen.js';

/**
 * Unexplained activity through the Tron source (issue 20), on the TronGrid replay. A venue the
 * decoder cannot read is made here by taking the venue's own events out of some of the wallet's
 * swaps (venue-unseen.ts: their TRC-20 Transfers, TRX value and internal transactions stay, as an
 * unknown venue's would): each is then listed with the wallet's balance changes, whose token
 * amounts are what its trades stated; the untouched swaps stay trades, and the wallet's history
 * lists nothing else.
 */
let world: TronReplayWorld;
let server: TronReplayServer;
let stripped: ReturnType<typeof hideVenueEvents>;

beforeAll(async () => {
  world = buildTronReplayWorld({ trades: 120 });
  stripped = hideVenueEvents(world, 3);
  server = await startTronReplayServer(world);
});
afterAll(() => server?.close());

describe('unexplained activity from the Tron source', () => {
  it('swaps whose venue cannot be read are listed with the token amounts their trades stated; the rest stay trades', async () => {
    expect(stripped.size).toBeGreaterThanOrEqual(5);
    const client = createHttpJsonClient({ url: server.url, baseDelayMs: 2, maxDelayMs: 20, maxRetryAfterMs: 20 });
    const src = createTronSource({ rpcUrl: server.url, tokens: createMemoryTokenCache(), client });
    const trades: SourceTrade[] = [];
    const unexplained: SourceUnexplained[] = [];
    for await (const b of src.history({ wallet: world.synth.wallet })) {
      trades.push(...b.trades);
      unexplained.push(...(b.unexplained ?? []));
    }
    expect(trades.filter((t) => stripped.has(t.signature))).toEqual([]);
    expect(trades.length).toBe(world.synth.expected.filter((t) => !stripped.has(t.signature)).length);
    expect(unexplained.map((u) => u.signature).sort()).toEqual([...stripped.keys()].sort());
    for (const u of unexplained) {
      const ts = stripped.get(u.signature)!;
      const tokens = u.changes.filter((c) => c.tokenMint !== null).map((c) => [c.tokenMint, c.amount]);
      expect(tokens.sort(), u.signature).toEqual(ts.map((t) => [t.tokenMint, t.amount]).sort());
      // The TRX given: at least what the venue's figure says the trade cost (the call's value).
      const trx = u.changes.find((c) => c.tokenMint === null);
      expect(trx?.amount?.startsWith('-'), u.signature).toBe(true);
      expect(u.blockTime).toBe(ts[0].blockTime);
      expect(u.programs[0]).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    }
    const positions = unexplained.map((u) => u.position);
    expect(positions).toEqual([...positions].sort().reverse());
  });
});
