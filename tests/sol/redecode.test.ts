import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryTokenCache, type HistoryBatch } from '../../src/lib/core/chain-source.js';
import type { SourceTrade } from '../../src/lib/core/trade.js';
import { createSolanaSource, tradePosition, type SolanaSourceOptions } from '../../src/lib/chains/sol/source.js';
import { createWorkerPool } from '../../src/lib/server/workers/pool.js';
import {
  buildReplayWorld,
  createPrng,
  DEFAULT_FIXTURE_DIR,
  randomSignature,
  signersOf,
  startSolanaReplayServer,
  testSymbolOf,
  type ReplayServer,
  type ReplayServerOptions,
  type ReplayTransaction,
  type ReplayWorld,
} from '../support/sol-replay/index.js';

/**
 * A re-decode (ChainSource.redecode) of the Solana source, through the replay RPC. What it must
 * give comes from the hand-checked goldens beside the recorded transactions
 * (tests/fixtures/solana/<signature>.expected.json, the ones tests/sol/decode.test.ts checks the
 * decoder against), placed at the positions the transactions were named with.
 */

/** A golden trade: a SourceTrade without the symbol (the replay's test metadata gives it) and the position. */
type GoldenTrade = Omit<SourceTrade, 'token' | 'position'>;

function goldenOf(signature: string): Record<string, GoldenTrade[]> {
  const file = `${DEFAULT_FIXTURE_DIR}${signature}.expected.json`;
  expect(existsSync(file), `golden of ${signature}`).toBe(true);
  return JSON.parse(readFileSync(file, 'utf8')).wallets;
}

/** Newest first by position, legs in order: how a walk yields trades. */
const walkOrder = (a: SourceTrade, b: SourceTrade) => (a.position === b.position ? a.leg - b.leg : a.position < b.position ? 1 : -1);

const placed = (g: GoldenTrade, position: string): SourceTrade => ({ ...g, token: testSymbolOf(g.tokenMint), position });

let world: ReplayWorld;
let WALLET: string;
/** The synthesised wallet's transactions, oldest first. */
let listed: ReplayTransaction[];

beforeAll(async () => {
  // 300 trades: about 270 transactions of the wallet, a few of them failed or not trades.
  world = await buildReplayWorld({ trades: 300, seed: 23 });
  WALLET = world.wallet.wallet;
  listed = world.wallet.transactions;
  // The synthesiser marks failed transactions in the signature list only (a walk never fetches
  // them); a re-decode does fetch them, so they are served as the chain has them: meta.err set.
  for (const t of listed) {
    if (t.err === null || t.text === null) continue;
    const tx = JSON.parse(t.text);
    tx.meta.err = t.err;
    tx.meta.status = { Err: t.err };
    t.text = JSON.stringify(tx);
  }
});

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(o: ReplayServerOptions = {}): Promise<ReplayServer> {
  server = await startSolanaReplayServer({ transactions: world.transactions, accounts: world.accounts, ...o });
  return server;
}

function source(url: string, o: Partial<SolanaSourceOptions> = {}) {
  return createSolanaSource({
    rpcUrl: url,
    tokens: createMemoryTokenCache(),
    transportOptions: { baseDelayMs: 5, maxDelayMs: 50, timeoutMs: 20_000 },
    ...o,
  });
}

async function walk(it: AsyncIterable<HistoryBatch>): Promise<SourceTrade[]> {
  const out: SourceTrade[] = [];
  for await (const b of it) out.push(...b.trades);
  return out;
}

describe('Solana re-decode', () => {
  it('states decoder version 1 (Moonit log events, Jupiter v1-v3 routes: wallets stored at 0 are decoded again)', () => {
    expect(source('http://127.0.0.1:1').decoderVersion).toBe(1);
  });

  it('gives recorded transactions their hand-checked trades, at the positions named, for each signer', async () => {
    const s = await start();
    // Every served fixture by the signers its golden names; one redecode per signer that trades.
    const served = world.fixtures;
    const bySigner = new Map<string, { signature: string; trades: GoldenTrade[] }[]>();
    for (const f of served) {
      const golden = goldenOf(f.signature);
      expect(Object.keys(golden).sort()).toEqual([...signersOf(f.tx)].sort());
      for (const [w, trades] of Object.entries(golden)) bySigner.set(w, [...(bySigner.get(w) ?? []), { signature: f.signature, trades }]);
    }
    const traders = [...bySigner].filter(([, txs]) => txs.some((t) => t.trades.length > 0));
    expect(traders.length).toBeGreaterThanOrEqual(40);
    const src = source(s.url, { batchSize: 4 });
    let named = 0;
    let batches = 0;
    let legs = 0;
    for (const [wallet, txs] of traders) {
      // Positions no walk would give these transactions (their slots are elsewhere): a re-decode
      // keeps the one named. And one transaction the wallet did not sign: nothing from it.
      const foreign = served.find((f) => !signersOf(f.tx).includes(wallet))!;
      const transactions = [
        ...txs.map((t, i) => ({ signature: t.signature, position: tradePosition(7_000 + i, 12_345) })),
        { signature: foreign.signature, position: tradePosition(6_999, 1) },
      ];
      const want = txs.flatMap((t, i) => t.trades.map((g) => placed(g, transactions[i].position))).sort(walkOrder);
      const { trades: got, unexplained } = await src.redecode!({ wallet, transactions });
      expect(got, `wallet ${wallet}`).toEqual(want);
      expect(unexplained, `wallet ${wallet}`).toEqual([]);
      named += transactions.length;
      batches += Math.ceil(transactions.length / 4);
      legs += got.length;
    }
    expect(legs).toBeGreaterThanOrEqual(50);
    // Each named transaction asked for once, in batches of at most batchSize.
    expect(s.stats.byMethod.getTransaction).toBe(named);
    expect(src.stats.transactionBatches).toBe(batches);
    expect(s.stats.byMethod.getSignaturesForAddress ?? 0).toBe(0);
  });

  it("re-decodes a set of a wallet's transactions to exactly the walk's trades of them, one getTransaction batch per batchSize", async () => {
    const s = await start();
    const src = source(s.url, { batchSize: 50 });
    const walked = await walk(src.history({ wallet: WALLET }));
    expect(walked).toHaveLength(300);
    const positionOf = new Map(walked.map((t) => [t.signature, t.position]));

    // Every other transaction with trades, plus failed and non-trade transactions of the wallet
    // (at made-up positions: they give nothing whatever their position).
    const traded = [...positionOf.keys()].filter((_, i) => i % 2 === 0);
    const failed = listed.filter((t) => t.err !== null);
    const nonTrades = listed.filter((t) => t.err === null && !positionOf.has(t.signature));
    expect(failed.length).toBeGreaterThan(0);
    expect(nonTrades.length).toBeGreaterThan(0);
    const transactions = [
      ...traded.map((signature) => ({ signature, position: positionOf.get(signature)! })),
      ...[...failed, ...nonTrades].map((t) => ({ signature: t.signature, position: tradePosition(t.slot, 1) })),
    ].reverse(); // the store names them oldest first; the order named does not matter
    const want = walked.filter((t) => traded.includes(t.signature));

    s.resetStats();
    const { trades: got } = await src.redecode!({ wallet: WALLET, transactions });
    expect(got).toEqual(want);
    // The walk resolved every symbol into the shared cache: getTransaction batches only.
    const n = transactions.length;
    expect(n).toBeGreaterThan(100);
    expect(s.stats.byMethod).toEqual({ getTransaction: n });
    expect(s.stats.batches).toBe(Math.ceil(n / 50));
    expect(s.stats.httpRequests).toBe(Math.ceil(n / 50));

    // And the goldens agree: each trade is its template fixture's hand-checked trade for the
    // signer the synthesiser replaced by the wallet, at the re-decoded transaction's time.
    for (const signature of traded) {
      const fixture = world.fixtures.find((f) => f.signature === world.wallet.sourceOf.get(signature))!;
      const golden = goldenOf(fixture.signature);
      const trader = signersOf(fixture.tx).find((w) => golden[w]?.length)!;
      const mine = got.filter((t) => t.signature === signature);
      const blockTime = new Date(listed.find((t) => t.signature === signature)!.blockTime! * 1000).toISOString().replace('.000Z', 'Z');
      expect(mine).toEqual(golden[trader].map((g) => placed({ ...g, signature, blockTime }, positionOf.get(signature)!)));
    }
  });

  it('decodes in the offload as a walk does, with the same trades', async () => {
    const s = await start();
    const pool = createWorkerPool({ size: 1 });
    try {
      const plain = source(s.url, { batchSize: 25 });
      const walked = await walk(plain.history({ wallet: WALLET }));
      const bySignature = [...new Map(walked.map((t) => [t.signature, t.position]))].slice(40, 120);
      const transactions = bySignature.map(([signature, position]) => ({ signature, position }));
      const offloaded = source(s.url, { batchSize: 25, offload: pool });
      const { trades: got } = await offloaded.redecode!({ wallet: WALLET, transactions });
      expect(got).toEqual(walked.filter((t) => transactions.some((x) => x.signature === t.signature)));
      expect(pool.stats.tasks).toBe(Math.ceil(transactions.length / 25));
      expect(pool.stats).toMatchObject({ inline: 0, workerFailures: 0 });
    } finally {
      await pool.close();
    }
  });

  it('asks again for a transaction the node answers null for once (not there yet)', async () => {
    const s = await start();
    const target = [...listed].reverse().find((t, i) => i > 10 && t.err === null && t.text !== null)!;
    const saved = target.text;
    let nulls = 0;
    s.config.failWhen = (calls) => {
      if (target.text !== null && nulls === 0 && calls.some((c) => c.params[0] === target.signature)) {
        target.text = null;
        nulls++;
        setTimeout(() => (target.text = saved), 0);
      }
      return null;
    };
    try {
      const src = source(s.url);
      const { trades: got } = await src.redecode!({
        wallet: WALLET,
        transactions: [{ signature: target.signature, position: tradePosition(target.slot, 99_999) }],
      });
      expect(nulls).toBe(1);
      expect(s.stats.byMethod.getTransaction).toBe(2);
      expect(got.every((t) => t.signature === target.signature && t.position === tradePosition(target.slot, 99_999))).toBe(true);
    } finally {
      target.text = saved;
    }
  });

  it('fails, retryable, when a named transaction cannot be fetched, rather than returning the others without it', async () => {
    const s = await start();
    const missing = randomSignature(createPrng(99));
    const some = listed.filter((t) => t.err === null).slice(0, 30);
    const transactions = [
      ...some.map((t) => ({ signature: t.signature, position: tradePosition(t.slot, 99_999) })),
      { signature: missing, position: tradePosition(1, 1) },
    ];
    const err = await source(s.url, { batchSize: 10 }).redecode!({ wallet: WALLET, transactions }).catch((e) => e);
    expect(err).toMatchObject({ code: 'rpc_error', retryable: true });
    expect(String(err.context.signature)).toBe(missing);
  });

  it('refuses a foreign wallet or position before any request, and names nothing for nothing', async () => {
    const s = await start();
    const src = source(s.url);
    const one = listed.find((t) => t.err === null)!;
    await expect(src.redecode!({ wallet: '0xabc', transactions: [{ signature: one.signature, position: tradePosition(one.slot, 1) }] })).rejects.toMatchObject({
      code: 'invalid_address',
    });
    await expect(
      src.redecode!({ wallet: WALLET, transactions: [{ signature: one.signature, position: `sol1:${one.slot}:1:${one.signature}` }] }),
    ).rejects.toMatchObject({
      code: 'invalid_position',
    });
    await expect(
      src.redecode!({
        wallet: WALLET,
        transactions: [
          { signature: one.signature, position: tradePosition(one.slot, 1) },
          { signature: one.signature, position: tradePosition(one.slot, 2) },
        ],
      }),
    ).rejects.toMatchObject({ code: 'invalid_position' });
    expect(await src.redecode!({ wallet: WALLET, transactions: [] })).toEqual({ trades: [], unexplained: [] });
    expect(s.stats.httpRequests).toBe(0);
  });

  it('stops on abort with the abort reason', async () => {
    const s = await start({ latencyMs: 200 });
    const ctl = new AbortController();
    const transactions = listed.slice(0, 20).map((t) => ({ signature: t.signature, position: tradePosition(t.slot, 99_999) }));
    const pending = source(s.url, { batchSize: 5 }).redecode!({ wallet: WALLET, transactions, signal: ctl.signal });
    setTimeout(() => ctl.abort(new Error('stop')), 50);
    await expect(pending).rejects.toThrow('stop');
  });
});
