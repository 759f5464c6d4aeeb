import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedSource, tradesOf } from '../support/scripted-source.js';
import { createKey, revokeKey } from '../../src/lib/server/store/accounts.js';
import { readLines, type Line } from '../support/follow-lines.js';
import { OTHER_KEY, randomWallet, startTestServer } from '../support/test-server.js';

/**
 * follow=true (issue 24, decisions.md "Following a wallet live") through the app's route file, on
 * the scripted source with a realtime stage polling every 100 ms: the wallet gains transactions
 * while the stream is open (`append`), and each new trade arrives once, oldest first, on a live
 * line; the stream ends after FOLLOW_MAX_SECONDS (8 here) with a liveCursor that resumes with no
 * gap and no repeat. The source's history is shared by its wallets, so each test has its own source.
 */
const sigs = (lines: Line[]) => lines.flatMap((l) => (l.trades ?? []).map((t) => `${t.signature}/${t.side}`));
const expectedSigs = (wallet: string, from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => tradesOf(wallet, from + k).map((t) => `${t.signature}/${t.side}`)).flat();

async function serverWith(transactions: number, env: Record<string, string> = {}) {
  const source = createScriptedSource({ transactions, batchSize: 5, realtimePollMs: 100 });
  // 8 s of live part: the 100 ms stage has ample time to bring the appended trades on a loaded machine.
  const srv = await startTestServer({ sources: { sol: source }, env: { FOLLOW_MAX_SECONDS: '8', ...env } });
  return { source, srv };
}

describe('follow=true', () => {
  let s: Awaited<ReturnType<typeof serverWith>>;
  beforeAll(async () => {
    s = await serverWith(12);
  });
  afterAll(() => s?.srv.close());

  it('sends the history, then each new trade once, oldest first, and ends with a liveCursor that resumes with no gap or repeat', async () => {
    const w = randomWallet();
    const usage0 = (await (await s.srv.get('/v1/usage')).json()).trades;
    let appended = false;
    const lines = await readLines(await s.srv.get(`/v1/wallets/${w}/history?follow=true`), (l) => {
      // Once the history's final line is out, the wallet trades three more times (tx 12, 13, 14).
      if (l.complete === true && !appended) {
        appended = true;
        s.source.append(3);
      }
    });
    const final = lines.findIndex((l) => l.complete === true);
    expect(final).toBeGreaterThan(0);
    expect(lines[final].liveCursor).toMatch(/\./);
    // The history part: newest first, tx 11 down to 0.
    expect(sigs(lines.slice(0, final))).toEqual(sigsNewestFirst(w, 12));
    const live = lines.slice(final + 1);
    expect(live.every((l) => l.live === true)).toBe(true);
    // Oldest first, each once.
    expect(sigs(live)).toEqual(expectedSigs(w, 12, 15));
    const end = live.at(-1)!;
    expect(end).toMatchObject({ live: true, end: true });
    // Metered once: 14 trades of history (tx 3 and 10 have two legs) and 3 live.
    expect((await (await s.srv.get('/v1/usage')).json()).trades).toBe(usage0 + 14 + 3);

    // Two more meanwhile; the end line's cursor resumes with exactly those.
    s.source.append(2);
    const resumed = await readLines(await s.srv.get(`/v1/wallets/${w}/history?follow=true&liveCursor=${encodeURIComponent(end.liveCursor!)}`), () => {});
    expect(resumed.every((l) => l.live === true)).toBe(true);
    expect(sigs(resumed)).toEqual(expectedSigs(w, 15, 17));
    expect(resumed.at(-1)).toMatchObject({ end: true });
  }, 30_000);

  it('refuses a forward cursor without follow, a backward one as liveCursor, follow with limit, and a bad follow value', async () => {
    const w = randomWallet();
    const lines = await readLines(await s.srv.get(`/v1/wallets/${w}/history?follow=true`), () => {});
    const live = lines.find((l) => l.liveCursor)!.liveCursor!;
    const back = lines.find((l) => l.cursor)?.cursor;
    for (const [q, status, code] of [
      [`liveCursor=${encodeURIComponent(live)}`, 400, 'invalid_cursor'],
      [`cursor=${encodeURIComponent(live)}`, 400, 'invalid_cursor'],
      ...(back ? [[`follow=true&liveCursor=${encodeURIComponent(back)}`, 400, 'invalid_cursor'] as const] : []),
      ['follow=true&limit=5', 400, 'invalid_parameter'],
      ['follow=yes', 400, 'invalid_parameter'],
    ] as const) {
      const res = await s.srv.get(`/v1/wallets/${w}/history?${q}`);
      expect(res.status, q).toBe(status);
      expect((await res.json()).code, q).toBe(code);
    }
  }, 30_000);
});

describe('a revoked key', () => {
  it("ends the key's follow streams at the next empty line, saying why", async () => {
    const { srv } = await serverWith(3, { FOLLOW_MAX_SECONDS: '60' });
    try {
      const { key, id } = await createKey(srv.server.db, 'carol');
      const lines = await readLines(await srv.get(`/v1/wallets/${randomWallet()}/history?follow=true`, key), async (l) => {
        if (l.complete === true) await revokeKey(srv.server.db, String(id));
      });
      expect(lines.at(-1)).toMatchObject({ live: true, end: true, error: { code: 'unauthorized' } });
      expect((await srv.get('/v1/usage', key)).status).toBe(401);
    } finally {
      await srv.close();
    }
  }, 40_000);
});

describe('follow stream caps', () => {
  it('answers 429 past MAX_FOLLOW_STREAMS_PER_KEY, and history reads are not counted against it', async () => {
    const { srv } = await serverWith(3, { MAX_FOLLOW_STREAMS_PER_KEY: '2', FOLLOW_MAX_SECONDS: '30' });
    try {
      const open = await Promise.all([1, 2].map(() => srv.get(`/v1/wallets/${randomWallet()}/history?follow=true`)));
      for (const r of open) expect(r.status).toBe(200);
      const third = await srv.get(`/v1/wallets/${randomWallet()}/history?follow=true`);
      expect(third.status).toBe(429);
      expect((await third.json()).code).toBe('rate_limited');
      // Another key has its own share; a plain history read is not a follow stream.
      const other = await srv.get(`/v1/wallets/${randomWallet()}/history?follow=true`, OTHER_KEY);
      expect(other.status).toBe(200);
      open.push(other);
      expect((await srv.get(`/v1/wallets/${randomWallet()}/history?limit=1`)).status).toBe(200);
      for (const r of open) await r.body!.cancel();
    } finally {
      await srv.close();
    }
  }, 30_000);
});

function sigsNewestFirst(wallet: string, n: number): string[] {
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) out.push(...tradesOf(wallet, i).map((t) => `${t.signature}/${t.side}`));
  return out;
}
