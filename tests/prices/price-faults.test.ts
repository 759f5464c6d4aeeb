import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startAnvil, type AnvilNode } from '../support/anvil/anvil.js';
import { deployFeed } from '../support/anvil/chainlink/deploy-feed.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { createScriptedSource } from '../support/scripted-source.js';
import { mul6 } from '../support/usd-check.js';
import { randomWallet, sleep, startTestServer, streamAll, type TestServer } from '../support/test-server.js';

/**
 * A price RPC that fails never breaks history (issue 22): with the feed's RPC down, slow or
 * answering garbage, a stream with include=usd still delivers every trade, with null prices and
 * `pricesComplete: false`, and once the RPC is well again a later read fills the prices in.
 *
 * The feed is on anvil behind a proxy of this test that passes requests on, drops them, holds
 * them, or answers nonsense. The scripted wallet's trades are a minute apart from T0; the feed has
 * a round every hour from an hour before T0, answer 100 + k USD, so trade i is priced at
 * 100 + floor(i / 60) + 1 (i × 60 s past T0, rounds at T0 − 3,600 + k × 3,600).
 */
const T0 = 1_700_000_000;
const H = 3600;
const TRANSACTIONS = 150;

let proxy: FaultProxy;
let anvil: AnvilNode;
let feed: string;
const source = createScriptedSource({ transactions: TRANSACTIONS, batchSize: 50 });

beforeAll(async () => {
  anvil = await startAnvil();
  const rounds = Array.from({ length: 8 }, (_, k) => ({ answer: BigInt(100 + k) * 100_000_000n, time: T0 - H + k * H }));
  feed = (await deployFeed(anvil.url, { description: 'SOL / USD', rounds })).proxy;

  proxy = await startFaultProxy(anvil.url);
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await anvil?.stop();
});

const priceOf = (blockTime: string) => String(100 + Math.floor((Date.parse(blockTime) / 1000 - T0) / H) + 1);
const usdOf = (text: string) => JSON.parse(text.replace(/"(amountSol|amount|nativeUsd|valueUsd)":([0-9.]+)/g, '"$1":"$2"'));

async function readUsd(srv: TestServer, wallet: string) {
  const { trades, finals } = await streamAll(srv, wallet, 'include=usd');
  return { trades: trades.map(usdOf), final: finals.at(-1) };
}

describe.each(['down', 'slow', 'garbage-json', 'garbage-result'] as const)('the price RPC %s', (fault) => {
  it('history goes out whole with null prices and pricesComplete false; a later read fills them in', async () => {
    // A server of its own: no round of the feed read yet, in its memory or its store.
    const srv = await startTestServer({
      sources: { sol: source },
      env: { PRICE_FEED_SOL: `bsc:${feed}:${H}`, RPC_URL_BSC: proxy.url, PRICE_WAIT_MS: '300', RPC_TIMEOUT_MS_BSC: '2000' },
    });
    onTestFinished(() => srv.close());
    const w = randomWallet();
    proxy.mode = fault;
    const first = await readUsd(srv, w);
    expect(first.final).toMatchObject({ complete: true, tradeCount: source.expected(w).length, pricesComplete: false });
    expect(first.trades.length).toBe(source.expected(w).length);
    for (const t of first.trades) {
      expect(t.nativeUsd).toBeNull();
      expect(t.valueUsd).toBeNull();
    }
    proxy.mode = 'pass';
    // The feed's bounds are read again after a failure, the rounds at once: the next reads price.
    // A request begun while the RPC was down finishes its retries first (backoff up to ~13 s in
    // all): reads go on until the prices are in, with a bound far past that for a loaded machine.
    let again = await readUsd(srv, w);
    for (const until = Date.now() + 60_000; !again.final.pricesComplete && Date.now() < until;) {
      await sleep(250);
      again = await readUsd(srv, w);
    }
    expect(again.final).toMatchObject({ complete: true, pricesComplete: true });
    for (const t of again.trades) {
      expect(t.nativeUsd, t.blockTime).toBe(priceOf(t.blockTime));
      // Token-to-token legs here trade no stablecoin: no value.
      expect(t.valueUsd).toBe(t.amountSol === null ? null : mul6(t.amountSol, priceOf(t.blockTime)));
    }
  }, 120_000);
});
