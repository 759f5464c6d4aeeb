import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DashboardDb, tradesNewestFirst, walletId } from '../../src/lib/dashboard/db.js';
import { createDirectPrices } from '../../src/lib/dashboard/direct-prices.js';
import { WalletLoader } from '../../src/lib/dashboard/loader.js';
import { BUILT_IN_FEEDS } from '../../src/lib/prices/feeds.js';
import { startAnvil, type AnvilNode } from '../support/anvil/anvil.js';
import { deployFeed } from '../support/anvil/chainlink/deploy-feed.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { createScriptedSource } from '../support/scripted-source.js';
import { randomWallet, startTestServer, TEST_KEY, type TestServer } from '../support/test-server.js';
import { mul6 } from '../support/usd-check.js';

/**
 * The dashboard's USD figures (issue 22). API mode: every read asks the real server for
 * include=usd and stores the two figures with each trade; a wallet stored while the price RPC was
 * down is re-read for them at the start of a later load, then not again. Direct mode: the worker's
 * pricing reads the ETH/USD feed at the table's own proxy address (placed on anvil with that code)
 * over the wallet's RPC.
 *
 * The feed: a round an hour from an hour before T0, answer 100 + k USD; the scripted wallet's
 * trade i is at T0 + 60 i s, so its price is 100 + floor(i / 60) + 1.
 */
const T0 = 1_700_000_000;
const H = 3600;
const priceOf = (blockTime: string) => String(100 + Math.floor((Date.parse(blockTime) / 1000 - T0) / H) + 1);

let anvil: AnvilNode;
let proxy: FaultProxy;
let srv: TestServer;
let db: DashboardDb;
let seq = 0;
const source = createScriptedSource({ transactions: 120, batchSize: 40 });

/** A feed proxy (at `at`, when given) over an aggregator with the hourly series. */
const hourly = (at?: string) =>
  deployFeed(anvil.url, { at, rounds: Array.from({ length: 6 }, (_, k) => ({ answer: BigInt(100 + k) * 100_000_000n, time: T0 - H + k * H })) }).then(
    (f) => f.proxy,
  );

beforeAll(async () => {
  anvil = await startAnvil();
  const feed = await hourly();
  proxy = await startFaultProxy(anvil.url);
  // 1.5 s: past what pricing takes once the feed answers, even on a loaded machine; short enough for the reads while it is down.
  srv = await startTestServer({ sources: { sol: source }, env: { PRICE_FEED_SOL: `bsc:${feed}:${H}`, RPC_URL_BSC: proxy.url, PRICE_WAIT_MS: '1500' } });
}, 120_000);
afterAll(async () => {
  await srv?.close();
  await proxy?.close();
  await anvil?.stop();
});
beforeEach(async () => {
  db = new DashboardDb(`usd-${++seq}`);
  await db.open();
});
afterEach(() => db.close());

describe('API mode', () => {
  it('stores each trade with its USD figures; a wallet stored while the price RPC was down is re-read for them once', async () => {
    let now = 1_000_000;
    const loader = new WalletLoader({ db, api: () => ({ baseUrl: srv.url, apiKey: TEST_KEY }), retryDelayMs: 5, now: () => now });
    const w = randomWallet();
    const id = walletId('sol', w);
    const req = { chain: 'sol', address: w, mode: 'api' as const };

    proxy.mode = 'down';
    const first = await loader.load(req);
    expect(first).toMatchObject({ status: 'complete', tradeCount: source.expected(w).length, pricesComplete: false });
    expect((await tradesNewestFirst(db, id)).every((t) => t.nativeUsd === null && t.valueUsd === null)).toBe(true);

    proxy.mode = 'pass';
    // The server's pricing retries behind the reads (its backoff, up to ~13 s in all): once its
    // prices are in, the next load re-reads. Bounded far past that for a loaded machine.
    for (const until = Date.now() + 60_000; Date.now() < until;) {
      const text = await (await srv.get(`/v1/wallets/${w}/history?include=usd&limit=1000`)).text();
      if (text.includes('"pricesComplete":true')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    now += 1000;
    const second = await loader.load({ ...req, refresh: true });
    expect(second).toMatchObject({ status: 'complete', tradeCount: source.expected(w).length, pricesComplete: true, pricesRereadAt: now });
    const rows = await tradesNewestFirst(db, id);
    expect(rows.length).toBe(source.expected(w).length);
    for (const t of rows) {
      expect(t.nativeUsd, t.blockTime).toBe(priceOf(t.blockTime));
      expect(t.valueUsd).toBe(t.amountSol === null ? null : mul6(t.amountSol, priceOf(t.blockTime)));
    }

    // Complete now: the next load reads no more than a refresh.
    now += 1000;
    const third = await loader.load({ ...req, refresh: true });
    expect(third.pricesRereadAt).toBe(second.pricesRereadAt);
  }, 120_000);
});

describe('direct mode', () => {
  it('prices a batch from the ETH/USD feed at the table’s address, over the wallet’s own RPC', async () => {
    await hourly(BUILT_IN_FEEDS.ETH.proxy);
    const prices = createDirectPrices({ nativeSymbolOf: (chain) => (chain === 'eth' ? 'ETH' : undefined) });
    const trades = source.expected(randomWallet()).slice(0, 40);
    const got = await prices({ chain: 'eth', address: '0x', mode: 'rpc', rpcUrl: anvil.url }, trades);
    expect(got).not.toBeNull();
    got!.forEach((u, i) => {
      const t = trades[i];
      const price = priceOf(t.blockTime);
      expect(u).toEqual({
        nativeUsd: price,
        valueUsd: t.amountSol === null ? null : mul6(t.amountSol, price),
        // The hourly round in force: an hour before T0 plus the hours begun since.
        priceTime: T0 - H + (Number(price) - 100) * H,
      });
    });
    // A chain whose coin has no feed on it: figures null, not a failure; a dead RPC: null (stored without).
    const none = await prices({ chain: 'sol', address: 'x', mode: 'rpc', rpcUrl: anvil.url }, trades.slice(0, 2));
    expect(none!.map((u) => u.nativeUsd)).toEqual([null, null]);
    proxy.mode = 'down';
    try {
      const fast = createDirectPrices({ nativeSymbolOf: () => 'ETH', timeoutMs: 1000 });
      expect(await fast({ chain: 'eth', address: '0x', mode: 'rpc', rpcUrl: proxy.url }, trades.slice(0, 2))).toBeNull();
    } finally {
      proxy.mode = 'pass';
    }
  }, 60_000);
});
