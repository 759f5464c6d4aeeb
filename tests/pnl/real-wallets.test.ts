import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChainReplay, type ChainReplay } from '../evm/mainnet/chain-replay.js';
import { mainnetChains } from '../evm/mainnet/fixtures.js';
import { csvRecords } from '../support/csv-parse.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * PnL and exports of real wallets (issue 25): the mainnet EVM replays of eth and base through the
 * built server, the wallets' trades being the hand-derived golden ones (tests/evm/mainnet/golden-*.ts).
 * Figures worked by hand from those trades:
 *  - base 0xa01f6d…: bought 2812320.686082273676574334 TYBG for 0.009832891503659921 ETH (0xcd776ba4),
 *    sold 2043495.674885273676574334 for 0.170323280824739264 (0x1dadb993). One lot, so both methods
 *    take cost 0.009832891503659921 × 2043495.674885273676574334 / 2812320.686082273676574334
 *    = 0.00714480086100585426204729942417341311… → 0.007144800861005854262047299424173413 (36 places,
 *    half-even); realized 0.170323280824739264 − that = 0.163178479963733409737952700575826587;
 *    open 768825.011197 at 0.002688090642654066737952700575826587.
 *  - eth 0xb8553d…: two USDC buys, 49.673249 for 0.04069537 and 118.668875 for 0.099257: open
 *    168.342124 at 0.13995237, nothing realized.
 *  - eth 0x3ba6eb…: sells with nothing bought in the history (cvxCRV and ZCHF swapped token to
 *    token, CVX for 0.0081706173415831 ETH): all uncovered, their proceeds apart, realized 0; the
 *    CRV and YB the swaps bought are open at an unknown native cost.
 * No real wallet here buys twice before a sell, so the methods agree on each; tests/pnl/pnl-engine.test.ts
 * has the cases where they differ.
 */
let eth: ChainReplay;
let base: ChainReplay;
let srv: TestServer;
beforeAll(async () => {
  const chains = mainnetChains();
  [eth, base] = await Promise.all(['eth', 'base'].map((slug) => startChainReplay(chains.find((c) => c.slug === slug)!)));
  srv = await startTestServer({
    sources: 'default',
    env: { RPC_URL_ETH: eth.node.url, RPC_URL_BASE: base.node.url, RPC_LOGS_RANGE_ETH: '1000000000', RPC_LOGS_RANGE_BASE: '1000000000' },
  });
}, 120_000);
afterAll(async () => {
  await srv?.close();
  await Promise.all([eth?.node.close(), base?.node.close()]);
});

/** Counts stay numbers; every other number literal (an amount) is read as the exact text written. */
const COUNTS = new Set([
  'tradeCount',
  'trades',
  'buys',
  'sells',
  'skipped',
  'unpricedSells',
  'unpricedSellsUsd',
  'closedPositions',
  'winningPositions',
  'meanHoldingSeconds',
  'winRate',
]);
const parse = (text: string) =>
  JSON.parse(text.replace(/"([a-zA-Z]+)":(-?\d+(\.\d+)?)([,}\]])/g, (all, key, num, _f, end) => (COUNTS.has(key) ? all : `"${key}":"${num}"${end}`)));
async function pnl(chain: string, wallet: string, method: string) {
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    const res = await srv.get(`/v1/wallets/${wallet}/pnl?chain=${chain}&method=${method}`);
    expect(res.status).toBe(200);
    const body = parse(await res.text());
    if (body.complete === true) return body;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${chain} ${wallet} never completed`);
}
const byMint = (body: { tokens: { tokenMint: string }[] }) => Object.fromEntries(body.tokens.map((t) => [t.tokenMint.toLowerCase(), t]));

describe('PnL of real wallets, worked by hand', () => {
  it('base: a buy and a partial sell of TYBG, both methods', async () => {
    for (const method of ['average', 'fifo']) {
      const body = await pnl('base', '0xa01f6d0985389a8e106d3158a9441ac21eac8d8c', method);
      expect(body).toMatchObject({ tradeCount: 2, realized: '0.163178479963733409737952700575826587', closedPositions: 0, winRate: null });
      expect(body.tokens).toHaveLength(1);
      expect(body.tokens[0]).toMatchObject({
        token: 'TYBG',
        bought: '2812320.686082273676574334',
        sold: '2043495.674885273676574334',
        spent: '0.009832891503659921',
        received: '0.170323280824739264',
        open: '768825.011197',
        openCost: '0.002688090642654066737952700575826587',
        realized: '0.163178479963733409737952700575826587',
        uncovered: '0',
      });
    }
  });

  it('eth: two USDC buys open at their summed cost; sells with no buy are uncovered, never profit', async () => {
    for (const method of ['average', 'fifo']) {
      const usdc = await pnl('eth', '0xb8553d9ee35dd23bb96fbd679e651b929821969b', method);
      expect(usdc).toMatchObject({ tradeCount: 2, realized: '0' });
      expect(usdc.tokens[0]).toMatchObject({ token: 'USDC', buys: 2, open: '168.342124', openCost: '0.13995237', realized: '0' });

      const seller = await pnl('eth', '0x3ba6eb0e4327b96ade6d4f3b578724208a590cef', method);
      expect(seller).toMatchObject({ tradeCount: 5, realized: '0', uncoveredProceeds: '0.0081706173415831', closedPositions: 0 });
      const t = byMint(seller);
      expect(t['0x4e3fbd56cd56c3e72c1403e103b45db9da5b9d2b']).toMatchObject({
        token: 'CVX',
        uncovered: '5.737841669946443235',
        uncoveredProceeds: '0.0081706173415831',
      });
      expect(t['0x62b9c7356a2dc64a1969e19c23e4f579f9810aa7']).toMatchObject({ token: 'cvxCRV', uncovered: '19.157411925828275084', unpricedSells: 0 });
      expect(t['0xd533a949740bb3306d119cc777fa900ba034cd52']).toMatchObject({ token: 'CRV', open: '18.47349725628421943', openCost: null });
    }
  });

  it('exports the same wallets: the swaps as one row each, oldest first, exact', async () => {
    await pnl('eth', '0x3ba6eb0e4327b96ade6d4f3b578724208a590cef', 'average');
    const res = await srv.get(`/v1/wallets/0x3ba6eb0e4327b96ade6d4f3b578724208a590cef/export?chain=eth&format=cointracker`);
    expect(res.status).toBe(200);
    const { records } = csvRecords(await res.text());
    expect(records.map((r) => [r['Sent Quantity'], r['Sent Currency'], r['Received Quantity'], r['Received Currency']])).toEqual([
      ['19.157411925828275084', 'cvxCRV', '18.47349725628421943', 'CRV'],
      ['5.737841669946443235', 'CVX', '0.0081706173415831', 'ETH'],
      ['100', 'ZCHF', '1048.060900433824474469', 'YB'],
    ]);
  });
});
