import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ChainSource, HistoryBatch, RealtimeParameters } from '../../src/lib/core/chain-source.js';
import { serializeTrade, type SourceTrade, type Trade } from '../../src/lib/core/trade.js';
import { DashboardDb, stripRow, tradesNewestFirst, walletId } from '../../src/lib/dashboard/db.js';
import { followOnce, LiveFollower, storeLive } from '../../src/lib/dashboard/live.js';
import { reverseByTransaction } from '../../src/lib/dashboard/pnl.js';
import { arrivedOnTop, liveText } from '../../src/lib/dashboard/live-view.js';
import { WalletLoader } from '../../src/lib/dashboard/loader.js';
import { parseFollowLine, parseStreamLine } from '../../src/lib/dashboard/ndjson.js';
import { apiLoader, fakeApi, freshDbEachTest, makeTrades } from './fake-api.js';

let db: DashboardDb;
freshDbEachTest('live', (d) => (db = d));
const ID = walletId('sol', 'W');
const REQ = { chain: 'sol', address: 'W', mode: 'api' as const };

/** A trade newer than every one of makeTrades(n) (minute `k` after them). */
function newer(k: number, leg = 0): Trade {
  return {
    signature: `new${k}`,
    side: leg ? 'sell' : 'buy',
    token: 'NEW',
    tokenMint: `newmint${leg}`,
    amountSol: `0.${k}00000000000000000001`,
    amount: '12345678901234567890.5',
    dex: 'pumpfun',
    blockTime: new Date(Date.UTC(2026, 0, 1) + k * 60_000).toISOString().replace('.000Z', 'Z'),
  };
}

const lineOf = (o: Record<string, unknown>, trades: Trade[] = []) =>
  JSON.stringify({ trades: '@T', ...o }).replace('"@T"', `[${trades.map(serializeTrade).join(',')}]`) + '\n';

/** A follow server: each request gets a stream the test writes lines to and closes. */
function followServer() {
  const calls: string[] = [];
  const streams: Array<{ push(s: string): void; close(): void }> = [];
  const waiting: Array<() => void> = [];
  const f: typeof fetch = async (input, init) => {
    calls.push(String(input));
    let ctl!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c) });
    init?.signal?.addEventListener('abort', () => ctl.error(new DOMException('aborted', 'AbortError')));
    const enc = new TextEncoder();
    streams.push({ push: (s) => ctl.enqueue(enc.encode(s)), close: () => ctl.close() });
    waiting.splice(0).forEach((w) => w());
    return new Response(body, { headers: { 'content-type': 'application/x-ndjson' } });
  };
  /** Resolves with the n-th stream (1-based) once it is opened. */
  const stream = async (n: number) => {
    while (streams.length < n) await new Promise<void>((r) => waiting.push(r));
    return streams[n - 1];
  };
  return { fetch: f, calls, stream };
}

async function until(check: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The wallet's history loaded complete through the loader, as Live finds it. */
async function loaded(history: Trade[]): Promise<void> {
  const api = fakeApi(history, { batch: 10 });
  const row = await apiLoader(db, api).load(REQ);
  expect(row.status).toBe('complete');
}

const signatures = async () => (await tradesNewestFirst(db, ID)).map((r) => r.signature);

describe('follow stream lines', () => {
  it('parses live lines with exact amounts, the end line and the final line’s liveCursor; history lines as before', () => {
    const live = parseFollowLine(lineOf({ liveCursor: 'L1', live: true }, [newer(1)]));
    expect(live).toMatchObject({ kind: 'live', liveCursor: 'L1', end: false });
    expect(live.kind === 'live' && live.trades[0].amount).toBe('12345678901234567890.5');
    expect(live.kind === 'live' && live.trades[0].amountSol).toBe('0.100000000000000000001');
    expect(parseFollowLine('{"live":true,"end":true,"liveCursor":"L2"}')).toEqual({ kind: 'live', trades: [], liveCursor: 'L2', end: true });
    expect(parseFollowLine('{"complete":true,"tradeCount":3,"wallet":"W","firstTrade":null,"liveCursor":"L0"}')).toMatchObject({
      kind: 'final',
      liveCursor: 'L0',
    });
    expect(parseFollowLine(lineOf({ cursor: 'c:1' }, [newer(2)]))).toMatchObject({ kind: 'batch', cursor: 'c:1' });
    // The plain history reader still refuses a live line: it never reads a follow stream.
    expect(() => parseStreamLine('{"trades":[],"liveCursor":"L","live":true}')).toThrow(SyntaxError);
    expect(() => parseFollowLine('{"trades":[],"live":true}')).toThrow(SyntaxError);
  });

  it('turns a live line (oldest transaction first) newest first, each transaction’s legs kept in their order', () => {
    const a = newer(1);
    const [b0, b1] = [newer(2, 0), newer(2, 1)];
    const c = newer(3);
    expect(reverseByTransaction([a, b0, b1, c]).map((t) => `${t.signature}/${t.tokenMint}`)).toEqual([
      'new3/newmint0',
      'new2/newmint0',
      'new2/newmint1',
      'new1/newmint0',
    ]);
  });
});

describe('storing live trades', () => {
  it('stores each line above every stored trade with its cursor, in one write; the next line above it', async () => {
    await loaded(makeTrades(25));
    await storeLive(db, ID, reverseByTransaction([newer(1), newer(2)]), 'L1', 1000);
    await storeLive(db, ID, [], 'L1b', 2000);
    const r = await storeLive(db, ID, [newer(3)], 'L2', 3000);
    expect(r).toMatchObject({ tradeCount: 28, liveCursor: 'L2', liveCheckedAt: 3000, liveState: 'live' });
    const sigs = await signatures();
    expect(sigs.slice(0, 4)).toEqual(['new3', 'new2', 'new1', 'sig25']);
    expect(sigs).toHaveLength(28);
    // The cursor survives a reload: it is in the stored load row.
    expect((await db.loads.get(ID))?.liveCursor).toBe('L2');
  });
});

describe('following in API mode', () => {
  it('catches up from the top (no cursor stored): only what is above the stored head is added, then live lines, once each', async () => {
    await loaded(makeTrades(25));
    const server = followServer();
    const deps = { db, api: () => ({ baseUrl: 'http://x', apiKey: 'k1', fetch: server.fetch }), now: () => 5000 };
    const done = followOnce(deps, ID, REQ, new AbortController().signal, () => {});
    const s = await server.stream(1);
    expect(server.calls[0]).toContain('follow=true');
    expect(server.calls[0]).not.toContain('liveCursor');
    // The history from the top: two trades arrived since the load, then the stored ones.
    const history = [newer(2), newer(1), ...makeTrades(25)];
    s.push(lineOf({ cursor: 'c:10' }, history.slice(0, 10)));
    s.push(lineOf({ cursor: 'c:20' }, history.slice(10, 20)));
    s.push(lineOf({ cursor: 'c:27' }, history.slice(20)));
    s.push('{"complete":true,"tradeCount":27,"wallet":"W","firstTrade":null,"liveCursor":"L0"}\n');
    s.push(lineOf({ liveCursor: 'L1', live: true }, [newer(3), newer(4)]));
    s.push(lineOf({ liveCursor: 'L1', live: true }));
    s.push('{"live":true,"end":true,"liveCursor":"L2"}\n');
    expect(await done).toBe('end');
    const sigs = await signatures();
    expect(sigs.slice(0, 5)).toEqual(['new4', 'new3', 'new2', 'new1', 'sig25']);
    expect(sigs).toHaveLength(29);
    expect(new Set(sigs).size).toBe(29);
    expect(await db.loads.get(ID)).toMatchObject({ liveCursor: 'L2', tradeCount: 29 });
    expect((await tradesNewestFirst(db, ID)).slice(0, 1).map(stripRow)).toEqual([newer(4)]);
  });

  it('reopens from the stored cursor after a drop, the end line and going offline: nothing lost, nothing repeated', async () => {
    await loaded(makeTrades(5));
    await db.loads.update(ID, { liveCursor: 'L0' });
    const server = followServer();
    let online = true;
    const loader = new WalletLoader({ db, api: () => ({ baseUrl: 'http://x', apiKey: 'k1', fetch: server.fetch }) });
    const follower = new LiveFollower({
      db,
      api: () => ({ baseUrl: 'http://x', apiKey: 'k1', fetch: server.fetch }),
      now: Date.now,
      loader,
      online: () => online,
    });
    follower.start(ID, REQ);
    // Resumed from the cursor: no history part.
    const s1 = await server.stream(1);
    expect(new URL(server.calls[0]).searchParams.get('liveCursor')).toBe('L0');
    s1.push(lineOf({ liveCursor: 'L1', live: true }, [newer(1)]));
    await until(async () => (await db.loads.get(ID))?.liveCursor === 'L1');
    // Dropped without its end line: reopened (after the first 1 s wait) from L1.
    s1.close();
    const s2 = await server.stream(2);
    expect(new URL(server.calls[1]).searchParams.get('liveCursor')).toBe('L1');
    s2.push(lineOf({ liveCursor: 'L2', live: true }, [newer(2)]));
    s2.push('{"live":true,"end":true,"liveCursor":"L3"}\n');
    // The end line: reopened at once from its cursor.
    const s3 = await server.stream(3);
    expect(new URL(server.calls[2]).searchParams.get('liveCursor')).toBe('L3');
    // Offline: the stream is dropped and the state says so; back online it resumes from L3.
    online = false;
    follower.offline();
    await until(async () => (await db.loads.get(ID))?.liveState === 'offline');
    online = true;
    follower.wake();
    const s4 = await server.stream(4);
    expect(new URL(server.calls[3]).searchParams.get('liveCursor')).toBe('L3');
    s4.push(lineOf({ liveCursor: 'L4', live: true }, [newer(3)]));
    await until(async () => (await db.loads.get(ID))?.liveCursor === 'L4');
    expect(await signatures()).toEqual(['new3', 'new2', 'new1', 'sig5', 'sig4', 'sig3', 'sig2', 'sig1']);
    expect((await db.loads.get(ID))?.liveState).toBe('live');
    void s3;
    await follower.stop(ID);
    expect(await db.loads.get(ID)).toMatchObject({ liveState: null, liveCheckedAt: null, liveCursor: 'L4' });
  });

  it('a refused cursor (the server’s secret changed) is dropped and the stream catches up from the top', async () => {
    await loaded(makeTrades(3));
    await db.loads.update(ID, { liveCursor: 'stale' });
    const server = followServer();
    const refusing: typeof fetch = async (input, init) =>
      String(input).includes('liveCursor=stale')
        ? Response.json({ code: 'invalid_cursor', title: 'bad' }, { status: 400, headers: { 'content-type': 'application/problem+json' } })
        : server.fetch(input, init);
    const api = () => ({ baseUrl: 'http://x', apiKey: 'k1', fetch: refusing });
    const follower = new LiveFollower({ db, api, now: Date.now, loader: new WalletLoader({ db, api }), online: () => true });
    follower.start(ID, REQ);
    await server.stream(1);
    expect(server.calls[0]).not.toContain('liveCursor');
    await follower.stop(ID);
  });

  it('a refusal (the key revoked) is not retried: Live turns off and the load row says why', async () => {
    await loaded(makeTrades(3));
    await db.wallets.put({ id: ID, chain: 'sol', address: 'W', mode: 'api', addedAt: 0, openedAt: 0, live: true });
    let calls = 0;
    const refusing: typeof fetch = async () => {
      calls++;
      return Response.json(
        { code: 'unauthorized', title: 'The API key was revoked.' },
        { status: 401, headers: { 'content-type': 'application/problem+json' } },
      );
    };
    const api = () => ({ baseUrl: 'http://x', apiKey: 'k1', fetch: refusing });
    const follower = new LiveFollower({ db, api, now: Date.now, loader: new WalletLoader({ db, api }), online: () => true });
    follower.start(ID, REQ);
    await until(() => !follower.isFollowing(ID));
    expect(calls).toBe(1);
    expect(await db.loads.get(ID)).toMatchObject({ liveState: null, errorCode: 'unauthorized', status: 'complete' });
    expect((await db.wallets.get(ID))?.live).toBe(false);
  });
});

describe('following in direct mode', () => {
  const pad = (n: number) => String(n).padStart(12, '0');
  const st = (position: number): SourceTrade => ({
    signature: `s${position}`,
    side: 'buy',
    token: 'T',
    tokenMint: 'm',
    amountSol: '1',
    amount: '2',
    dex: 'pumpfun',
    blockTime: '2025-01-01T00:00:00Z',
    position: pad(position),
    leg: 0,
  });
  /** A chain of positions (newest first) behind a source whose realtime stage the test drives. */
  function source(chain: number[], stage: { p: RealtimeParameters | null }): ChainSource {
    return {
      chain: 'sol',
      async *history(p) {
        const list = chain.filter((x) => (!p.before || pad(x) < p.before) && (!p.until || pad(x) > p.until));
        const b: HistoryBatch = { trades: list.map(st), position: pad(list[list.length - 1] ?? 0), head: pad(chain[0]), done: true };
        yield b;
      },
      async realtime(p) {
        stage.p = p;
        await new Promise((r) => p.signal.addEventListener('abort', r));
      },
    };
  }

  it('runs the source’s realtime stage for the wallet; a notice reads above the stored head and the new trades land on top', async () => {
    const chain = [50, 40, 30];
    const stage: { p: RealtimeParameters | null } = { p: null };
    const req = { chain: 'sol', address: 'W', mode: 'rpc' as const, rpcUrl: 'http://rpc' };
    const deps = { db, api: () => ({ baseUrl: 'http://x', apiKey: 'k1' }), now: Date.now, source: async () => source(chain, stage) };
    const loader = new WalletLoader(deps);
    expect((await loader.load(req)).tradeCount).toBe(3);
    const follower = new LiveFollower({ ...deps, loader, online: () => true });
    follower.start(ID, req);
    await until(() => stage.p !== null);
    expect(stage.p!.wallets()).toEqual(['W']);
    await until(async () => (await db.loads.get(ID))?.liveState === 'live');
    chain.unshift(70, 60);
    stage.p!.onActivity(['W']);
    await until(async () => (await db.loads.get(ID))?.tradeCount === 5);
    expect(await signatures()).toEqual(['s70', 's60', 's50', 's40', 's30']);
    expect((await db.loads.get(ID))?.liveCheckedAt).toBeGreaterThan(0);
    await follower.stop(ID);
    // Turned off: the stage is stopped.
    expect(stage.p!.signal.aborted).toBe(true);
  });
});

describe('the live indicator', () => {
  it('says connecting, the time of the last check, and offline that will resume', () => {
    const t = new Date(2026, 0, 1, 9, 5, 7).getTime();
    expect(liveText(false, 'live', t)).toBe('');
    expect(liveText(true, 'connecting', null)).toBe('connecting');
    expect(liveText(true, 'live', t)).toBe('last checked 09:05:07');
    expect(liveText(true, 'offline', t)).toBe('offline, will resume · last checked 09:05:07');
  });

  it('highlights only the rows that came in above the ones shown before', () => {
    const [a, b, c, d] = [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }];
    expect([...arrivedOnTop([b, c], [a, b, c])]).toEqual([a]);
    // Grown at the bottom (the walk), or read anew: nothing is new on top.
    expect(arrivedOnTop([a, b], [a, b, c]).size).toBe(0);
    expect(arrivedOnTop([a, b], [c, d]).size).toBe(0);
    expect(arrivedOnTop([], [a]).size).toBe(0);
  });
});
