import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRecords } from '../support/csv-parse.js';
import { createScriptedSource } from '../support/scripted-source.js';
import { OTHER_KEY, randomWallet, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * GET /v1/wallets/{address}/export and /pnl?include=lots (issue 25) through the app's route files,
 * on the scripted source: 30 transactions, tx i at 1,700,000,000 + 60 i s (2023-11-14 22:13:20Z
 * for tx 0); tx 3, 10, 17, 24 swap i.5 AAA for i+1 BBB (two legs, no native amount); the others
 * trade 1000+i.000000000000000001 TKN for i × 1,000,000,007 wei-like units (18 decimals), a sell
 * when i % 3 = 0. So 34 trades, 30 rows. The store is read 4 rows at a time, so reads cut swaps.
 */
let srv: TestServer;
const source = createScriptedSource({ transactions: 30, batchSize: 5, delayMs: 150 });
beforeAll(async () => {
  srv = await startTestServer({ sources: { sol: source }, readRows: 4 });
});
afterAll(() => srv?.close());

const usage = async (key?: string) => (await (await srv.get('/v1/usage', key)).json()).trades as number;
/** Waits for the whole history through the PnL answer (not metered). */
async function loaded(w: string): Promise<void> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const body = await (await srv.get(`/v1/wallets/${w}/pnl`)).text();
    if (body.includes('"complete":true')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('history never completed');
}

describe('GET /v1/wallets/{address}/export', () => {
  it('answers 409 history_incomplete with Retry-After while the history loads, then the whole file, metered once', async () => {
    const w = randomWallet();
    const early = await srv.get(`/v1/wallets/${w}/export?format=koinly`);
    expect(early.status).toBe(409);
    expect(early.headers.get('retry-after')).toBe('10');
    expect((await early.json()).code).toBe('history_incomplete');
    await loaded(w);

    const before = await usage();
    const res = await srv.get(`/v1/wallets/${w}/export?format=koinly`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${w}-sol-koinly.csv"`);
    const { records } = csvRecords(await res.text());
    expect(records).toHaveLength(30);
    const sig = (i: number) => `sig${w.slice(0, 6)}x${i}`;
    expect(records.map((r) => r.TxHash)).toEqual(Array.from({ length: 30 }, (_, i) => sig(i)));
    expect(records[0]).toMatchObject({
      Date: '2023-11-14 22:13:20 UTC',
      'Sent Amount': '1000.000000000000000001',
      'Sent Currency': 'TKN',
      'Received Amount': '0',
      'Received Currency': 'SOL',
    });
    // Swaps cut by the 4-row reads are still one row each.
    expect(records[3]).toMatchObject({ 'Sent Amount': '3.5', 'Sent Currency': 'AAA', 'Received Amount': '4', 'Received Currency': 'BBB' });
    expect(records[10]).toMatchObject({ 'Sent Amount': '10.5', 'Received Amount': '11' });
    expect(records[29]).toMatchObject({
      Date: '2023-11-14 22:42:20 UTC',
      'Sent Amount': '0.000000029000000203',
      'Sent Currency': 'SOL',
      'Received Amount': '1029.000000000000000001',
      'Received Currency': 'TKN',
    });
    expect(records[29].Description).toContain('MintT');
    expect(await usage()).toBe(before + 34);
    // Delivered again: counted once per account.
    expect((await srv.get(`/v1/wallets/${w}/export?format=cointracking`)).status).toBe(200);
    expect(await usage()).toBe(before + 34);
  });

  it('from and to: a date takes in its whole day, a time is exclusive as `to`; only what is written is metered', async () => {
    const w = randomWallet();
    await loaded(w);
    const rows = async (q: string, key?: string) => {
      const res = await srv.get(`/v1/wallets/${w}/export?format=csv&${q}`, key);
      expect(res.status, q).toBe(200);
      return csvRecords(await res.text()).records;
    };
    const bob = await usage(OTHER_KEY);
    const two = await rows('from=2023-11-14T22:14:20Z&to=2023-11-14T22:16:20Z', OTHER_KEY);
    expect(two.map((r) => [r.type, r.sent_amount, r.received_amount])).toEqual([
      ['buy', '0.000000001000000007', '1001.000000000000000001'],
      ['buy', '0.000000002000000014', '1002.000000000000000001'],
    ]);
    expect(await usage(OTHER_KEY)).toBe(bob + 2);
    expect(await rows('to=2023-11-13', OTHER_KEY)).toHaveLength(0);
    expect(await usage(OTHER_KEY)).toBe(bob + 2);
    expect(await rows('from=2023-11-14&to=2023-11-14', OTHER_KEY)).toHaveLength(30);
    expect(await usage(OTHER_KEY)).toBe(bob + 34);
    // An offset is honoured: 23:30+01:00 is 22:30Z, so tx 17 (22:30:20Z) onward.
    const late = await rows('from=2023-11-14T23:30:00%2B01:00', OTHER_KEY);
    expect(late).toHaveLength(13);
    expect(late[0]).toMatchObject({ type: 'swap', sent_amount: '17.5', received_amount: '18' });
  });

  it('refuses bad input with a clear 400, as history does', async () => {
    const w = randomWallet();
    for (const [q, code] of [
      ['format=xls', 'invalid_parameter'],
      ['from=2024-02-30', 'invalid_parameter'],
      ['to=yesterday', 'invalid_parameter'],
      ['from=2024-01-01T00:00:00', 'invalid_parameter'],
      ['from=2024-03-01&to=2024-02-01', 'invalid_parameter'],
      ['chain=nope', 'unknown_chain'],
    ]) {
      const res = await srv.get(`/v1/wallets/${w}/export?${q}`);
      expect(res.status, q).toBe(400);
      const body = await res.json();
      expect(body.code, q).toBe(code);
      expect(body.detail, q).toBeTruthy();
    }
    expect((await srv.get(`/v1/wallets/not-an-address/export`)).status).toBe(400);
    expect((await srv.get(`/v1/wallets/${w}/export`, null)).status).toBe(401);
  });
});

describe('GET /v1/wallets/{address}/pnl?include=lots', () => {
  it('lists the trades behind each figure and meters them as delivered, once', async () => {
    const w = randomWallet();
    await loaded(w);
    const before = await usage(OTHER_KEY);
    const res = await srv.get(`/v1/wallets/${w}/pnl?method=fifo&include=lots`, OTHER_KEY);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-usage-trades')).toBe('34');
    const body = JSON.parse((await res.text()).replace(/"([a-zA-Z]+)":(-?\d+(\.\d+)?)([,}\]])/g, '"$1":"$2"$4'));
    const tkn = body.tokens.find((t: { tokenMint: string }) => t.tokenMint === 'MintT');
    // tx 0 sells 1000.000000000000000001 with nothing bought: all uncovered, no take.
    expect(tkn.lots[0]).toMatchObject({
      signature: `sig${w.slice(0, 6)}x0`,
      side: 'sell',
      amount: '1000.000000000000000001',
      uncovered: '1000.000000000000000001',
      takes: [],
    });
    // tx 6 (a sell of 1006.000000000000000001, proceeds 0.000000006000000042) takes from the
    // lots of tx 1 (1001.000000000000000001 at 0.000000001000000007) and tx 2 (5.000000000000000000 of 1002.000000000000000001).
    const six = tkn.lots.find((e: { signature: string }) => e.signature === `sig${w.slice(0, 6)}x6`);
    expect(six.takes.map((x: { lot: string; amount: string }) => [x.lot, x.amount])).toEqual([
      [`sig${w.slice(0, 6)}x1`, '1001.000000000000000001'],
      [`sig${w.slice(0, 6)}x2`, '5'],
    ]);
    expect(await usage(OTHER_KEY)).toBe(before + 34);
    const again = await srv.get(`/v1/wallets/${w}/pnl?include=lots`, OTHER_KEY);
    expect(again.headers.get('x-usage-trades')).toBe('0');
    expect((await srv.get(`/v1/wallets/${w}/pnl?include=usd`)).status).toBe(400);
  });
});
