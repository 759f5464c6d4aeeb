import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLines, type Line } from '../support/follow-lines.js';
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
} from '../support/tron-replay/index.js';

/**
 * follow=true on Tron (issue 24, decisions.md "Following a wallet live": Tron ≤ 5 s) through the
 * app's own Tron source (RPC_URL_TRON at the TronGrid replay of the real captures) and its realtime
 * stage, which wakes each followed wallet every 3 s; the walker's refresh lists the wallet's
 * solidified transactions only (`only_confirmed=true`, infos from `/walletsolidity/`).
 *
 * The wallet is TPoQq65…'s, of the MetaMask snap's Universal Router captures: two sales in its
 * history (e41f064b, c9628c03). Once the history's final line is out, it trades again: each capture
 * issued again at a newer block (append.ts: same calls, logs, internal transactions and amounts; a
 * new id, block and time), two solidified and a third still unconfirmed, which the stage must not
 * deliver. The stream ends after FOLLOW_MAX_SECONDS (20 here: the 3 s poll's first wake, then ample
 * time to list, fetch, decode, store and send on a loaded machine; the latency is the bench's to
 * measure); its liveCursor, resumed once the third is solidified, gives exactly that one.
 */
const WALLET = SALES_WALLET;

/** A line's trades with every amount as text (follow-lines keeps decimals as written; integers come as numbers). */
const tradesOf = (lines: Line[]) =>
  lines.flatMap((l) => (l.trades ?? []).map((t: any) => ({ ...t, amount: String(t.amount), amountSol: t.amountSol === null ? null : String(t.amountSol) })));
/** What a re-issued sale is delivered as (SOLD_1_USDT, SOLD_2_SUN: worked out by hand from the captures in reissued-sales.ts). */
const expectedOf = expectedSale;

let replay: TronReplayServer;
let srv: TestServer;
const captures = loadTronCaptures();
const capture = (prefix: string) => captureOf(prefix, captures);

beforeAll(async () => {
  replay = await startTronReplayServer({ transactions: captures, tokens: loadTronTokens(), v4Pools: TRON_V4_POOLS });
  srv = await startTestServer({ sources: 'default', env: { RPC_URL_TRON: replay.url, FOLLOW_MAX_SECONDS: '20' } });
});
afterAll(async () => {
  await srv?.close();
  await replay?.close();
});

describe('follow=true on Tron', () => {
  it('sends each new solidified trade once, oldest first, never an unconfirmed one, and ends with a liveCursor that resumes with no gap or repeat', async () => {
    // Blocks a little before now (the captures' newest is 09ced888, July 2026), 3 s apart.
    const at = tronBlockAt(newestSlotOf(captures), Date.now() - 3 * TRON_BLOCK_MS);
    const slot = (k: number) => ({ block: at.block + k, ms: at.ms + k * TRON_BLOCK_MS });
    const sold1 = reissueLater(capture('e41f064b'), slot(0));
    const sold2 = reissueLater(capture('c9628c03'), slot(1));
    const sold3 = reissueLater(capture('e41f064b'), slot(2));
    // Only identity and time moved: the calls, logs and internal transfers are the capture's.
    for (const [copy, prefix] of [
      [sold1, 'e41f064b'],
      [sold2, 'c9628c03'],
      [sold3, 'e41f064b'],
    ] as const) {
      const real = capture(prefix);
      expect(copy.record.txID).not.toBe(real.record.txID);
      expect(copy.record.raw_data.contract).toEqual(real.record.raw_data.contract);
      expect(copy.info.log).toEqual(real.info.log);
      expect(copy.info.internal_transactions.map(({ hash: _h, ...it }: any) => it)).toEqual(
        real.info.internal_transactions.map(({ hash: _h, ...it }: any) => it),
      );
    }
    expect(new Set([sold1, sold2, sold3].map((t) => t.record.txID)).size).toBe(3);

    const usage0 = (await (await srv.get('/v1/usage')).json()).trades;
    let mark = -1;
    const lines = await readLines(await srv.get(`/v1/wallets/${WALLET}/history?chain=tron&follow=true`), (l) => {
      if (l.complete === true && mark < 0) {
        mark = replay.requests.length;
        replay.addTransactions([sold1, sold2]);
        replay.addTransactions([sold3], { confirmed: false });
      }
    });
    const final = lines.findIndex((l) => l.complete === true);
    expect(final).toBeGreaterThan(0);
    expect(lines[final].liveCursor).toBeTruthy();
    // The history: the two captured sales, newest first.
    expect(tradesOf(lines.slice(0, final)).map((t) => t.signature)).toEqual([capture('c9628c03').record.txID, capture('e41f064b').record.txID]);

    const live = lines.slice(final + 1);
    expect(live.every((l) => l.live === true)).toBe(true);
    // Oldest first, each once, with the hand-derived fields; the unconfirmed third is not there.
    expect(tradesOf(live)).toEqual([expectedOf(sold1, SOLD_1_USDT), expectedOf(sold2, SOLD_2_SUN)]);
    const end = live.at(-1)!;
    expect(end).toMatchObject({ live: true, end: true });

    // What the stage asked while the stream was live: solidified data only, and nothing of the third.
    const during = replay.requests.slice(mark);
    const listed = during.filter((r) => r.endpoint === 'transactions');
    expect(listed.length).toBeGreaterThan(0);
    for (const r of listed) expect(r.query).toMatchObject({ only_confirmed: 'true', only_from: 'true' });
    const infos = during.filter((r) => r.endpoint === 'info');
    expect(infos.map((r) => r.body?.value).sort()).toEqual([sold1.record.txID, sold2.record.txID].sort());
    for (const r of infos) expect(r.path).toBe('/walletsolidity/gettransactioninfobyid');
    expect(during.some((r) => JSON.stringify(r).includes(sold3.record.txID))).toBe(false);
    expect(replay.stats.notFound).toBe(0);
    // ...though the third was on the chain all along: a list without only_confirmed has it, and /wallet/ knows it.
    const list = async (q: string) =>
      ((await (await fetch(`${replay.url}/v1/accounts/${WALLET}/transactions?only_from=true&limit=5${q}`)).json()).data as any[]).map((r) => r.txID);
    expect((await list(''))[0]).toBe(sold3.record.txID);
    expect(await list('&only_confirmed=true')).not.toContain(sold3.record.txID);
    const info = async (path: string) => (await fetch(`${replay.url}${path}`, { method: 'POST', body: JSON.stringify({ value: sold3.record.txID }) })).json();
    expect((await info('/wallet/gettransactioninfobyid')).id).toBe(sold3.record.txID);
    expect(await info('/walletsolidity/gettransactioninfobyid')).toEqual({});
    // Metered once: two trades of history, two live.
    expect((await (await srv.get('/v1/usage')).json()).trades).toBe(usage0 + 4);

    // The third is solidified; the end line's cursor resumes with exactly it (the client leaves after its line).
    replay.confirm([sold3.record.txID]);
    const resumed = await readLines(
      await srv.get(`/v1/wallets/${WALLET}/history?chain=tron&follow=true&liveCursor=${encodeURIComponent(end.liveCursor!)}`),
      (_l, all) => all.some((x) => x.trades?.length),
    );
    expect(resumed.every((l) => l.live === true)).toBe(true);
    expect(tradesOf(resumed)).toEqual([expectedOf(sold3, SOLD_1_USDT)]);
    expect((await (await srv.get('/v1/usage')).json()).trades).toBe(usage0 + 5);
  }, 60_000);
});
