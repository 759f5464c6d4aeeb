import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryTokenCache, type HistoryBatch } from '../../src/lib/core/chain-source.js';
import { HistoryError } from '../../src/lib/core/errors.js';
import { createTronSource, tronTradePosition } from '../../src/lib/chains/tron/source.js';
import { createHttpJsonClient } from '../../src/lib/rpc/http-json.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  captureOf,
  expectedSale,
  loadTronCaptures,
  loadTronTokens,
  newestSlotOf,
  reissueLater,
  SALES_WALLET,
  SOLD_1_USDT,
  SOLD_2_SUN,
  startTronReplayServer,
  TRON_BLOCK_MS,
  TRON_V4_POOLS,
  tronBlockAt,
  type TronReplayServer,
  type TronReplayTx,
} from '../support/tron-replay/index.js';

/**
 * A transaction TronGrid lists with `only_confirmed=true` while `/walletsolidity/` still answers
 * `{}` for its info: on mainnet the node serving the account lists is a moment ahead of the
 * solidity node (the replay's `listingAhead`). Such a transaction is not delivered and not passed
 * over: the walk delivers what is older than its block and names a head below it, so the next
 * refresh, once it is solidified, delivers it, exactly once. Nothing delivered is retracted, and
 * the older trades of the same refresh are not held back.
 *
 * The wallet is TPoQq65…'s (the MetaMask snap's Universal Router captures): two sales in its
 * history, c9628c03 (newer) and e41f064b. New trades are those captures issued again at newer
 * blocks (append.ts: same calls, logs, internal transactions and amounts; a new id, block, time).
 */
const WALLET = SALES_WALLET;

const captures = loadTronCaptures();
const capture = (prefix: string) => captureOf(prefix, captures);
const E41 = capture('e41f064b');
const C96 = capture('c9628c03');
/** What a re-issued sale is delivered as (SOLD_1_USDT, SOLD_2_SUN: worked out by hand from the captures in reissued-sales.ts). */
const expectedOf = expectedSale;
/** A head marker or batch position: `{block}.{block timestamp ms}` (position.ts). */
const markerOf = (tx: TronReplayTx) => `${tx.record.blockNumber}.${tx.record.block_timestamp}`;

/** Two new sales in consecutive blocks a little before now: `older` solidified, `newer` listed ahead of the solidity node. */
function newSales() {
  const at = tronBlockAt(newestSlotOf(captures), Date.now() - 3 * TRON_BLOCK_MS);
  const older = reissueLater(E41, at);
  const newer = reissueLater(C96, { block: at.block + 1, ms: at.ms + TRON_BLOCK_MS });
  return { older, newer };
}

let replay: TronReplayServer;
beforeEach(async () => {
  replay = await startTronReplayServer({ transactions: captures, tokens: loadTronTokens(), v4Pools: TRON_V4_POOLS });
  replay.config.listingAhead = true;
});
afterEach(() => replay?.close());

describe('Tron source: a listed transaction the solidity node does not know yet', () => {
  /** A source on the replay whose retries wait milliseconds, not seconds. */
  const source = (pageSize?: number) =>
    createTronSource({
      rpcUrl: replay.url,
      tokens: createMemoryTokenCache(),
      client: createHttpJsonClient({ url: replay.url, baseDelayMs: 2, maxDelayMs: 20, maxRetryAfterMs: 20 }),
      pageSize,
    });
  /** The batches of a walk, and the error it ended on, if any. */
  async function walkUntilError(p: { until?: string; before?: string; pageSize?: number } = {}) {
    const batches: HistoryBatch[] = [];
    try {
      for await (const b of source(p.pageSize).history({ wallet: WALLET, until: p.until, before: p.before })) batches.push(b);
      return { batches, error: null };
    } catch (e) {
      return { batches, error: e as HistoryError };
    }
  }
  async function walk(p: { until?: string } = {}) {
    const { batches, error } = await walkUntilError(p);
    if (error) throw error;
    return batches;
  }
  const view = (batches: HistoryBatch[]) => batches.flatMap((b) => b.trades.map(({ position: _p, leg: _l, ...t }) => t));

  it('a refresh delivers the older solidified trade, not the newer one, and names a head below it; the refresh after confirm delivers it once', async () => {
    const first = await walk();
    expect(view(first)).toEqual([expectedOf(C96, SOLD_2_SUN), expectedOf(E41, SOLD_1_USDT)]);
    // The head is the wallet's newest listed transaction: 09ced888, a USDT transfer it sent
    // (a9059cbb: no info asked for it, no trade).
    const head0 = first[0].head!;
    expect(head0).toBe(markerOf(capture('09ced888')));

    const { older, newer } = newSales();
    replay.addTransactions([older]);
    replay.addTransactions([newer], { confirmed: false });
    // The replay's list is ahead: only_confirmed lists the newer one, /walletsolidity/ does not know it.
    const listed = await (await fetch(`${replay.url}/v1/accounts/${WALLET}/transactions?only_confirmed=true&only_from=true&limit=2`)).json();
    expect(listed.data.map((r: any) => r.txID)).toEqual([newer.record.txID, older.record.txID]);
    const solid = await (
      await fetch(`${replay.url}/walletsolidity/gettransactioninfobyid`, { method: 'POST', body: JSON.stringify({ value: newer.record.txID }) })
    ).json();
    expect(solid).toEqual({});

    // The refresh: the older sale, at its own position; the head is the older sale's block, so the
    // newer block stays above the head for the next refresh. Asked twice: the same answer.
    for (let i = 0; i < 2; i++) {
      const refresh = await walk({ until: head0 });
      expect(view(refresh)).toEqual([expectedOf(older, SOLD_1_USDT)]);
      expect(refresh.flatMap((b) => b.trades.map((t) => t.position))).toEqual([tronTradePosition(older.record.blockNumber, older.record.txID)]);
      expect(refresh[0].head).toBe(markerOf(older));
      expect(refresh.at(-1)!.done).toBe(true);
    }

    replay.confirm([newer.record.txID]);
    const next = await walk({ until: markerOf(older) });
    expect(view(next)).toEqual([expectedOf(newer, SOLD_2_SUN)]);
    expect(next[0].head).toBe(markerOf(newer));
    // And from that head, nothing more.
    expect(view(await walk({ until: markerOf(newer) }))).toEqual([]);
  });

  it('a walk from the newest point holds back the newest block, delivers the rest, and heads below it', async () => {
    const { older, newer } = newSales();
    replay.addTransactions([older]);
    replay.addTransactions([newer], { confirmed: false });
    // One page (the older sale is the newest record below the held-back block: the head), and
    // pages of two (the first page, newer and older, holds its oldest block back for the next
    // run, so the first run delivers nothing and heads at that block: the older sale's again).
    for (const pageSize of [200, 2]) {
      const { batches, error } = await walkUntilError({ pageSize });
      expect(error).toBeNull();
      expect(view(batches)).toEqual([expectedOf(older, SOLD_1_USDT), expectedOf(C96, SOLD_2_SUN), expectedOf(E41, SOLD_1_USDT)]);
      expect(batches[0].head).toBe(markerOf(older));
      if (pageSize === 2) expect(batches[0]).toMatchObject({ trades: [], position: markerOf(older), done: false });
      expect(batches.at(-1)!.done).toBe(true);
    }
  });

  it('one found past the run that named the head (pages of one record) fails the walk, retryable, and a walk resumed from its stored position reads it again', async () => {
    const { newer } = newSales();
    replay.addTransactions([newer], { confirmed: false });
    // Pages of one record: the first page's block is held back (more of it may follow), so the
    // first run names the head (the newer sale's block) with no record; the second run holds it.
    const first = await walkUntilError({ pageSize: 1 });
    expect(first.batches).toHaveLength(1);
    expect(first.batches[0]).toMatchObject({ trades: [], head: markerOf(newer), position: markerOf(newer), done: false });
    expect(first.error).toBeInstanceOf(HistoryError);
    expect(first.error).toMatchObject({ code: 'rpc_malformed_response', retryable: true });
    expect(first.error!.message).toContain(newer.record.txID);
    // The tail walk resumes with the stored position's block: the sale is read again, not passed over.
    const again = await walkUntilError({ before: markerOf(newer), pageSize: 1 });
    expect(again.batches.flatMap((b) => b.trades)).toEqual([]);
    expect(again.error).toMatchObject({ code: 'rpc_malformed_response', retryable: true });
    replay.confirm([newer.record.txID]);
    const resumed = await walkUntilError({ before: markerOf(newer), pageSize: 1 });
    expect(resumed.error).toBeNull();
    expect(view(resumed.batches)).toEqual([expectedOf(newer, SOLD_2_SUN), expectedOf(C96, SOLD_2_SUN), expectedOf(E41, SOLD_1_USDT)]);
  });
});

describe('Tron wallet on the server: a listed transaction not solidified yet', () => {
  let srv: TestServer;
  afterEach(() => srv?.close());

  /** A page of the whole history, read from the top (HEAD_STALE_SECONDS=0: every such read refreshes the head first). */
  async function page() {
    const res = await srv.get(`/v1/wallets/${WALLET}/history?chain=tron&limit=50`);
    expect(res.status).toBe(200);
    const body = await res.json();
    return {
      ...body,
      trades: (body.trades as any[]).map((t) => ({ ...t, amount: String(t.amount), amountSol: t.amountSol === null ? null : String(t.amountSol) })),
    };
  }
  const usage = async () => (await (await srv.get('/v1/usage')).json()).trades as number;

  it('a head refresh stores and serves the older solidified trade, not the newer one, and the refresh after confirm adds it once', async () => {
    srv = await startTestServer({ sources: 'default', env: { RPC_URL_TRON: replay.url, HEAD_STALE_SECONDS: '0' } });
    const h0 = await page();
    expect(h0).toMatchObject({ complete: true, tradeCount: 2 });
    expect(h0.trades).toEqual([expectedOf(C96, SOLD_2_SUN), expectedOf(E41, SOLD_1_USDT)]);

    const { older, newer } = newSales();
    replay.addTransactions([older]);
    replay.addTransactions([newer], { confirmed: false });
    const h1 = await page();
    expect(h1).toMatchObject({ complete: true, tradeCount: 3 });
    expect(h1.trades).toEqual([expectedOf(older, SOLD_1_USDT), expectedOf(C96, SOLD_2_SUN), expectedOf(E41, SOLD_1_USDT)]);
    // Not solidified yet, and read again: still the same three.
    expect((await page()).trades).toEqual(h1.trades);

    replay.confirm([newer.record.txID]);
    const h2 = await page();
    expect(h2).toMatchObject({ complete: true, tradeCount: 4 });
    expect(h2.trades).toEqual([expectedOf(newer, SOLD_2_SUN), expectedOf(older, SOLD_1_USDT), expectedOf(C96, SOLD_2_SUN), expectedOf(E41, SOLD_1_USDT)]);
    // Each trade metered once, however many times it was read.
    expect(await usage()).toBe(4);
    expect(replay.stats.notFound).toBe(0);
  }, 30_000);

  it('a cold wallet whose newest listed transaction is not solidified loads the rest of its history, then that one once it is', async () => {
    srv = await startTestServer({ sources: 'default', env: { RPC_URL_TRON: replay.url, HEAD_STALE_SECONDS: '0' } });
    const { newer } = newSales();
    replay.addTransactions([newer], { confirmed: false });
    const h0 = await page();
    expect(h0).toMatchObject({ complete: true, tradeCount: 2 });
    expect(h0.trades).toEqual([expectedOf(C96, SOLD_2_SUN), expectedOf(E41, SOLD_1_USDT)]);

    replay.confirm([newer.record.txID]);
    const h1 = await page();
    expect(h1).toMatchObject({ complete: true, tradeCount: 3 });
    expect(h1.trades).toEqual([expectedOf(newer, SOLD_2_SUN), expectedOf(C96, SOLD_2_SUN), expectedOf(E41, SOLD_1_USDT)]);
    expect(await usage()).toBe(3);
  }, 30_000);
});
