import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solanaSigners } from '../../src/lib/chains/sol/decode/decode-transaction.js';
import { isoFromUnixSeconds, serializeTrade, type Trade } from '../../src/lib/core/trade.js';
import { buildReplayWorld, startSolanaReplayServer, testSymbolOf, type ReplayServer, type ReplayWorld } from '../support/sol-replay/index.js';
import { rawTradesText, splitTrades, startTestServer, streamAll, type TestServer } from '../support/test-server.js';

const WSOL = 'So11111111111111111111111111111111111111112';

/**
 * Ground truth for the synthesised wallet from the hand-checked golden files, not from the decoder:
 * each synthesised transaction is a real swap re-assigned to the wallet, so its trades are the
 * golden trades of the signer that traded in the original, with the new signature and time.
 */
function groundTruth(world: ReplayWorld): string[] {
  const fixtures = new Map(world.fixtures.map((f) => [f.signature ?? (f.tx as any).transaction.signatures[0], f]));
  const txs = [...world.wallet.transactions].sort((a, b) => b.slot - a.slot || b.indexInSlot - a.indexInSlot);
  const out: string[] = [];
  for (const t of txs) {
    if (t.err) continue;
    const from = world.wallet.sourceOf.get(t.signature);
    if (!from) continue;
    const golden = JSON.parse(readFileSync(new URL(`../fixtures/solana/${from}.expected.json`, import.meta.url), 'utf8'));
    const signer = solanaSigners(fixtures.get(from)!.tx).find((s) => golden.wallets[s]?.length);
    if (!signer) continue;
    for (const g of golden.wallets[signer] as Trade[]) {
      const trade: Trade = {
        signature: t.signature,
        side: g.side,
        token: g.tokenMint === WSOL ? 'SOL' : testSymbolOf(g.tokenMint),
        tokenMint: g.tokenMint,
        amountSol: g.amountSol,
        amount: g.amount,
        dex: g.dex,
        blockTime: isoFromUnixSeconds(t.blockTime!),
      };
      out.push(serializeTrade(trade));
    }
  }
  return out;
}

describe('Solana through the HTTP endpoint, from the replay RPC', () => {
  let world: ReplayWorld;
  let expected: string[];
  let rpc: ReplayServer;
  beforeAll(async () => {
    world = await buildReplayWorld({ trades: 5_000, seed: 7 });
    expected = groundTruth(world);
    rpc = await startSolanaReplayServer({ transactions: world.transactions, accounts: world.accounts, latencyMs: 2 });
  });
  afterAll(() => rpc.close());

  async function withServer<T>(env: Record<string, string>, fn: (srv: TestServer) => Promise<T>): Promise<T> {
    const srv = await startTestServer({ sources: 'default', env: { RPC_URL_SOL: rpc.url, ...env } });
    try {
      return await fn(srv);
    } finally {
      await srv.close();
    }
  }

  it('has a ground truth of 5,000 trades from the golden files', () => {
    expect(expected.length).toBe(5_000);
  });

  it('streams the wallet complete and exact (chain omitted means sol)', async () => {
    await withServer({}, async (srv) => {
      const { trades, finals } = await streamAll(srv, world.wallet.wallet);
      expect(finals).toHaveLength(1);
      expect(finals[0]).toMatchObject({ complete: true, tradeCount: 5_000, wallet: world.wallet.wallet });
      expect(trades).toEqual(expected);
    });
  }, 120_000);

  it('pages the wallet with limit=100, complete and exact', async () => {
    await withServer({}, async (srv) => {
      const got: string[] = [];
      let cursor = '';
      let last: any;
      for (let i = 0; i < 500; i++) {
        const res = await srv.get(`/v1/wallets/${world.wallet.wallet}/history?chain=sol&limit=100${cursor}`);
        const body = await res.text();
        last = JSON.parse(body);
        const text = rawTradesText(body);
        if (text) got.push(...splitTrades(text));
        if (!last.cursor) break;
        cursor = `&cursor=${encodeURIComponent(last.cursor)}`;
      }
      expect(last).toMatchObject({ complete: true, tradeCount: 5_000, totalPages: 50 });
      expect(got).toEqual(expected);
    });
  }, 120_000);

  it('gives the same result across a stream cut by the budget and resumed, under 10% faults and 429s', async () => {
    // 150 ms a request: even without faults the walk (5 signature pages in sequence, 50 batches
    // over 8 slots) takes over 1 s, so the 1 s budget always cuts it.
    rpc.config.latencyMs = 150;
    rpc.config.faults = { rate: 0.1, kinds: ['5xx', 'timeout', 'truncate', '429', 'reset'], seed: 3, hangMs: 60_000 };
    try {
      await withServer({ STREAM_MAX_SECONDS: '1', RPC_TIMEOUT_MS_SOL: '1500' }, async (srv) => {
        const { trades, finals } = await streamAll(srv, world.wallet.wallet);
        expect(finals.length).toBeGreaterThan(1);
        expect(finals[0].complete).toBe(false);
        expect(trades).toEqual(expected);
      });
      expect(Object.values(rpc.stats.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    } finally {
      rpc.config.latencyMs = 2;
      rpc.config.faults = undefined;
    }
  }, 180_000);
});
