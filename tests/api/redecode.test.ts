import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeTrade, tradeKey, type SourceTrade } from '../../src/lib/core/trade.js';
import { createScriptedSource } from '../support/scripted-source.js';
import {
  BACKENDS,
  createTestDatabase,
  OTHER_KEY,
  randomWallet,
  readStream,
  splitTrades,
  rawTradesText,
  sleep,
  startTestServer,
  streamAll,
  TEST_KEY,
  type TestServer,
} from '../support/test-server.js';

/**
 * An upgrade from a store written by the previous decoder (issue 23, item 9), through the API: a
 * store populated by version 1 of the scripted source, then a server with version 2 on the same
 * store. The history read after the re-decode is version 2's exact trades, cursors issued before
 * resolve to the same place (or the next trade when theirs changed or vanished), nothing delivered
 * is counted again, and a server killed in the middle of the re-decode loses and duplicates
 * nothing.
 */
const keyOf = (t: SourceTrade) => tradeKey(t.position, t.leg);
/** Version 2's trades strictly older than `key` (what a read from a cursor at `key` returns), as stored text. */
const olderThan = (trades: SourceTrade[], key: string) => trades.filter((t) => keyOf(t) < key).map(serializeTrade);

describe.each(BACKENDS)('a decoder upgrade on %s', (backend) => {
  /** One store kept across the servers started on it: a PGlite directory or a PostgreSQL database. */
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    if (backend === 'postgres') {
      const t = await createTestDatabase();
      env = { DATABASE_URL: t.url, LEASE_SECONDS: '2' };
      cleanup = t.drop;
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'wth-redecode-'));
      env = { DATA_DIR: dir };
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    }
  });
  afterAll(() => cleanup?.());

  const start = (version: number, transactions: number) =>
    startTestServer({ sources: { sol: createScriptedSource({ transactions, batchSize: 100, decoderVersion: version }) }, env });
  const usage = async (srv: TestServer, key: string) => (await (await srv.get('/v1/usage', key)).json()).trades as number;
  async function reDecoded(srv: TestServer, wallet: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows = await srv.server.db.query<{ v: number }>('SELECT decoder_version AS v FROM wallets WHERE address = $1', [wallet]);
      if (rows[0]?.v === 2) return;
      if (Date.now() > deadline) throw new Error('the re-decode did not finish');
      await sleep(50);
    }
  }

  it('serves version 2 exact trades after the re-decode; cursors from before resolve; nothing delivered is counted again', async () => {
    const w = randomWallet();
    const v1 = createScriptedSource({ transactions: 300, decoderVersion: 1 }).expected(w);
    const v2 = createScriptedSource({ transactions: 300, decoderVersion: 2 }).expected(w);
    const keys1 = new Set(v1.map(keyOf));
    const fresh = v2.filter((t) => !keys1.has(keyOf(t))).length;
    expect(fresh).toBeGreaterThan(0);

    // Version 1: alice streams the wallet whole; cursors are taken at trades version 2 keeps,
    // changes, or drops (a whole transaction, or one leg of it); bob reads the newest 50.
    const a = await start(1, 300);
    let cursors: { cursor: string; key: string; what: string }[];
    let bob: { cursor: string; key: string };
    try {
      const all = await streamAll(a, w);
      expect(all.trades).toEqual(v1.map(serializeTrade));
      expect(await usage(a, TEST_KEY)).toBe(v1.length);
      const v2Of = (t: SourceTrade) => v2.filter((u) => u.signature === t.signature);
      const pick = (what: string, test: (t: SourceTrade) => boolean) => ({ what, index: v1.findIndex((t, i) => i > 10 && test(t)) });
      const picks = [
        pick('kept', (t) => v2Of(t).some((u) => serializeTrade(u) === serializeTrade(t))),
        pick('changed', (t) => v2Of(t).some((u) => u.leg === t.leg && serializeTrade(u) !== serializeTrade(t))),
        pick('transaction dropped', (t) => v2Of(t).length === 0),
        pick('leg dropped', (t) => t.leg === 1 && v2Of(t).length === 1),
      ];
      for (const p of picks) expect(p.index, p.what).toBeGreaterThan(0);
      cursors = await Promise.all(
        picks.map(async ({ what, index }) => {
          const page = await (await a.get(`/v1/wallets/${w}/history?limit=${index + 1}`)).json();
          return { what, cursor: page.cursor as string, key: keyOf(v1[index]) };
        }),
      );
      const b = await a.get(`/v1/wallets/${w}/history?limit=50`, OTHER_KEY);
      expect(b.headers.get('x-usage-trades')).toBe('50');
      // Pages and streams say which decoder version the stored history is (for a client's copy).
      expect(b.headers.get('x-decoder-version')).toBe('1');
      const s1 = await a.get(`/v1/wallets/${w}/history`);
      expect(s1.headers.get('x-decoder-version')).toBe('1');
      await s1.body?.cancel();
      bob = { cursor: (await b.json()).cursor, key: keyOf(v1[49]) };
      expect(await usage(a, TEST_KEY)).toBe(v1.length);
    } finally {
      await a.close();
    }

    // Version 2 on the same store: the first read starts the re-decode.
    const srv = await start(2, 300);
    try {
      const u0 = await usage(srv, TEST_KEY);
      expect((await srv.get(`/v1/wallets/${w}/history?limit=1`)).status).toBe(200);
      await reDecoded(srv, w);
      // Cursors issued by version 1's server: the next read starts strictly after the position
      // each names, in the new history (the same trade, or the next one when it changed or went).
      for (const c of cursors) {
        const text = await (await srv.get(`/v1/wallets/${w}/history?limit=25&cursor=${encodeURIComponent(c.cursor)}`)).text();
        expect(splitTrades(rawTradesText(text)), c.what).toEqual(olderThan(v2, c.key).slice(0, 25));
        // And a stream from it to the end: no gap, no duplicate against version 2's history.
        const rest = await readStream(await srv.get(`/v1/wallets/${w}/history?cursor=${encodeURIComponent(c.cursor)}`));
        expect(rest.batches.flatMap((l) => l.trades).length, c.what).toBe(olderThan(v2, c.key).length);
      }
      // Alice had every trade of version 1: all she read since (the cursors' reads above, the
      // whole history now) counts only the keys no trade had, once.
      const again = await streamAll(srv, w);
      expect(again.trades).toEqual(v2.map(serializeTrade));
      const s2 = await srv.get(`/v1/wallets/${w}/history?limit=1`);
      expect(s2.headers.get('x-decoder-version')).toBe('2');
      await s2.body?.cancel();
      expect(again.finals.at(-1)).toMatchObject({ complete: true, tradeCount: v2.length, firstTrade: v2.at(-1)!.blockTime });
      expect(await usage(srv, TEST_KEY)).toBe(u0 + fresh);
      await streamAll(srv, w);
      expect(await usage(srv, TEST_KEY)).toBe(u0 + fresh);
      // Bob resumes from his cursor: everything below it is his first time.
      const resumed = await srv.get(`/v1/wallets/${w}/history?limit=100000&cursor=${encodeURIComponent(bob!.cursor)}`, OTHER_KEY);
      expect(resumed.headers.get('x-usage-trades')).toBe(String(olderThan(v2, bob!.key).length));
      // From the top: of what lies above his cursor, only the keys version 1 did not have count.
      const newAbove = v2.filter((t) => keyOf(t) >= bob!.key && !keys1.has(keyOf(t))).length;
      const top = await srv.get(`/v1/wallets/${w}/history?limit=100000`, OTHER_KEY);
      expect(top.headers.get('x-usage-trades')).toBe(String(newAbove));
      expect(await usage(srv, OTHER_KEY)).toBe(50 + olderThan(v2, bob!.key).length + newAbove);
    } finally {
      await srv.close();
    }
  }, 120_000);
});

describe.each(BACKENDS)('a server killed in the middle of a re-decode on %s', (backend) => {
  const children: ChildProcess[] = [];
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    if (backend === 'postgres') {
      const t = await createTestDatabase();
      // The killed server's lease runs out 2 s after its last renewal.
      env = { DATABASE_URL: t.url, LEASE_SECONDS: '2' };
      cleanup = t.drop;
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'wth-redecode-kill-'));
      env = { DATA_DIR: dir };
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    }
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await cleanup?.();
  });

  async function startProcess(extra: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/server/redecode-server.ts'], {
      env: { ...process.env, API_KEYS: `alice:${TEST_KEY}`, CURSOR_SECRET: 'redecode-secret', ...env, ...extra },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    // Its first JSON line (a line before it says the app is being built).
    const line = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (l) => {
        if (!l.startsWith('{')) return;
        lines.close();
        resolve(l);
      });
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    return { url: JSON.parse(line).url, child };
  }
  const kill = async (p: { child: ChildProcess }) => {
    p.child.kill('SIGKILL');
    if (p.child.exitCode === null) await new Promise((r) => p.child.once('exit', r));
  };
  const auth = { authorization: `Bearer ${TEST_KEY}` };
  const json = async (url: string) => (await fetch(url, { headers: auth })).json();

  it('the next server resumes from the stored progress: version 2 exact trades, nothing lost, duplicated or counted twice', async () => {
    const w = randomWallet();
    const n = 1_000;
    const v1 = createScriptedSource({ transactions: n, decoderVersion: 1 }).expected(w);
    const v2 = createScriptedSource({ transactions: n, decoderVersion: 2 }).expected(w);
    const keys1 = new Set(v1.map(keyOf));
    const transactions = new Set(v1.map((t) => t.signature)).size;

    const a = await startProcess({ SCRIPT_TRANSACTIONS: String(n), SCRIPT_VERSION: '1' });
    const first = await readStream(await fetch(`${a.url}/v1/wallets/${w}/history`, { headers: auth }));
    expect(first.final.complete).toBe(true);
    expect(first.batches.flatMap((l) => l.trades).length).toBe(v1.length);
    expect((await json(`${a.url}/v1/usage`)).trades).toBe(v1.length);
    await kill(a);

    // Version 2, 60 ms per batch of 100 trades; its fifth redecode call never answers (a hold), so
    // it is killed without warning with exactly four batches (over 300 transactions) stored.
    const b = await startProcess({ SCRIPT_TRANSACTIONS: String(n), SCRIPT_VERSION: '2', SCRIPT_REDECODE_DELAY_MS: '60', SCRIPT_REDECODE_STALL_AFTER: '4' });
    expect((await fetch(`${b.url}/v1/wallets/${w}/history?limit=1`, { headers: auth })).status).toBe(200);
    let statsB: { redecodedTransactions: number; redecodeCalls: number } = { redecodedTransactions: 0, redecodeCalls: 0 };
    for (let i = 0; i < 3000 && statsB.redecodeCalls < 5; i++) {
      await sleep(20);
      statsB = await json(`${b.url}/test/stats`);
    }
    const mid = await json(`${b.url}/test/wallet?address=${w}`);
    await kill(b);
    expect(statsB.redecodedTransactions).toBeGreaterThanOrEqual(300);
    expect(mid).toMatchObject({ decoder_version: 1, redecode_version: 2 });

    // The next server resumes at start (the stored progress says a re-decode was under way).
    const c = await startProcess({ SCRIPT_TRANSACTIONS: String(n), SCRIPT_VERSION: '2' });
    const deadline = Date.now() + 30_000;
    while ((await json(`${c.url}/test/wallet?address=${w}`)).decoder_version !== 2 && Date.now() < deadline) await sleep(50);
    const statsC = await json(`${c.url}/test/stats`);
    expect(statsC.walks).toBe(0);
    // Each stored transaction decoded again; twice only those of the batch the kill cut off.
    expect(statsB.redecodedTransactions + statsC.redecodedTransactions).toBeGreaterThanOrEqual(transactions);
    expect(statsB.redecodedTransactions + statsC.redecodedTransactions - transactions).toBeLessThanOrEqual(100);
    expect(statsC.redecodedTransactions).toBeLessThan(transactions - 200);

    const again = await readStream(await fetch(`${c.url}/v1/wallets/${w}/history`, { headers: auth }));
    expect(again.final).toMatchObject({ complete: true, tradeCount: v2.length });
    expect(again.raw.slice(0, -1).flatMap((l) => splitTrades(rawTradesText(l)))).toEqual(v2.map(serializeTrade));
    // Alice had everything version 1 stored: only the keys no trade had are counted, once.
    expect((await json(`${c.url}/v1/usage`)).trades).toBe(v1.length + v2.filter((t) => !keys1.has(keyOf(t))).length);
    await kill(c);
  }, 300_000);
});
