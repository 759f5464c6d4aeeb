import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedSource } from '../support/scripted-source.js';
import { randomWallet, readStream, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * GET /v1/wallets/{address}/pnl (issue 25) through the app's route file, on the scripted source.
 * Its wallet of 4 transactions, worked by hand (tests/support/scripted-source.ts `tradesOf`):
 *  - tx 0: sell 1000.000000000000000001 TKN for 0 native (nothing held: all uncovered);
 *  - tx 1: buy 1001.000000000000000001 TKN for 0.000000001000000007;
 *  - tx 2: buy 1002.000000000000000001 TKN for 0.000000002000000014;
 *  - tx 3: sell 3.5 AAA and buy 4 BBB, token to token (no native amount).
 * So TKN: 2003.000000000000000002 open at cost 0.000000003000000021, 1000.000000000000000001
 * uncovered, nothing realized; AAA: 3.5 uncovered with unknown proceeds (0 counted); BBB: 4 open
 * at an unknown cost. No feed here: USD figures are unknown (0 counted, cost null).
 */
let srv: TestServer;
const source = createScriptedSource({ transactions: 4, batchSize: 2 });
beforeAll(async () => {
  srv = await startTestServer({ sources: { sol: source } });
});
afterAll(() => srv?.close());

const parse = (text: string) => JSON.parse(text.replace(/"([a-zA-Z]+)":(-?\d+\.\d+)/g, '"$1":"$2"'));

describe('GET /v1/wallets/{address}/pnl', () => {
  it('gives the hand-worked figures once the history is loaded, not metered, both methods alike here', async () => {
    const w = randomWallet();
    await readStream(await srv.get(`/v1/wallets/${w}/history`));
    const usage = (await (await srv.get('/v1/usage')).json()).trades;
    for (const method of ['average', 'fifo']) {
      const res = await srv.get(`/v1/wallets/${w}/pnl?method=${method}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-usage-trades')).toBe('0');
      const body = parse(await res.text());
      expect(body).toMatchObject({ wallet: w, chain: 'sol', complete: true, tradeCount: 5, method, realized: 0, closedPositions: 0, winRate: null });
      const byMint = Object.fromEntries(body.tokens.map((t: any) => [t.tokenMint, t]));
      expect(byMint.MintT).toMatchObject({
        buys: 2,
        sells: 1,
        bought: '2003.000000000000000002',
        sold: '1000.000000000000000001',
        open: '2003.000000000000000002',
        openCost: '0.000000003000000021',
        uncovered: '1000.000000000000000001',
        uncoveredProceeds: 0,
        realized: 0,
      });
      expect(byMint.MintA).toMatchObject({ sells: 1, uncovered: '3.5', open: 0, unpricedSells: 0 });
      expect(byMint.MintB).toMatchObject({ buys: 1, open: 4, openCost: null, openCostUsd: null });
    }
    expect((await (await srv.get('/v1/usage')).json()).trades).toBe(usage);
  });

  it('refuses what history refuses, and an unknown method', async () => {
    const w = randomWallet();
    for (const [path, code] of [
      [`/v1/wallets/${w}/pnl?method=lifo`, 'invalid_parameter'],
      [`/v1/wallets/not-an-address/pnl`, 'invalid_address'],
      [`/v1/wallets/${w}/pnl?chain=nope`, 'unknown_chain'],
    ]) {
      const res = await srv.get(path);
      expect(res.status, path).toBe(400);
      expect((await res.json()).code, path).toBe(code);
    }
    expect((await srv.get(`/v1/wallets/${w}/pnl`, null)).status).toBe(401);
  });
});
