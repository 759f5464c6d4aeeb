import { afterEach, describe, expect, it } from 'vitest';
import { HistoryError, isHistoryError } from '../../src/lib/core/errors.js';
import { createRpcTransport, parseRetryAfter, type RpcTransportOptions } from '../../src/lib/rpc/json-rpc.js';
import { CutShort, JsonArraySplitter } from '../../src/lib/rpc/json-items.js';
import { startSolanaReplayServer, type ReplayServer, type ReplayServerOptions } from '../support/sol-replay/server.js';
import type { ReplayTransaction } from '../support/sol-replay/fixtures.js';
import { createPrng, randomAddress, randomSignature } from '../support/sol-replay/synth.js';

const rng = createPrng(42);
const WALLET = randomAddress(rng);

/** 300 small transactions of one wallet, 3 per slot, oldest first. */
const TXS: ReplayTransaction[] = Array.from({ length: 300 }, (_, i) => {
  const signature = randomSignature(rng);
  const slot = 1000 + Math.floor(i / 3);
  return {
    signature,
    slot,
    blockTime: 1_700_000_000 + i,
    err: i % 50 === 7 ? { InstructionError: [0, { Custom: 1 }] } : null,
    indexInSlot: i % 3,
    accounts: [WALLET],
    text: JSON.stringify({ slot, blockTime: 1_700_000_000 + i, transaction: { signatures: [signature] }, meta: { err: null }, version: 0 }),
    version: 0,
  };
});
const NEWEST_FIRST = [...TXS].reverse();

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(o: ReplayServerOptions = {}): Promise<ReplayServer> {
  server = await startSolanaReplayServer({ transactions: TXS, ...o });
  return server;
}

function transport(url: string, o: Partial<RpcTransportOptions> = {}) {
  // Short delays: faults are retried within milliseconds so the suite stays fast.
  return createRpcTransport({ url, baseDelayMs: 5, maxDelayMs: 50, timeoutMs: 500, ...o });
}

const getTx = (sig: string) => ({ method: 'getTransaction', params: [sig, { encoding: 'json', maxSupportedTransactionVersion: 0 }] });

describe('replay server signature pages', () => {
  it('pages newest first with limit, before and until, err included', async () => {
    const s = await start();
    const t = transport(s.url);
    const p1 = await t.call<any[]>('getSignaturesForAddress', [WALLET, { limit: 100 }]);
    expect(p1.map((x) => x.signature)).toEqual(NEWEST_FIRST.slice(0, 100).map((x) => x.signature));
    const p2 = await t.call<any[]>('getSignaturesForAddress', [WALLET, { limit: 100, before: p1[99].signature }]);
    expect(p2[0].signature).toBe(NEWEST_FIRST[100].signature);
    const bounded = await t.call<any[]>('getSignaturesForAddress', [WALLET, { limit: 1000, until: NEWEST_FIRST[10].signature }]);
    expect(bounded.map((x) => x.signature)).toEqual(NEWEST_FIRST.slice(0, 10).map((x) => x.signature));
    const all = await t.call<any[]>('getSignaturesForAddress', [WALLET, {}]);
    expect(all).toHaveLength(300);
    expect(all.filter((x) => x.err !== null)).toHaveLength(6);
    expect(all.every((x, i) => i === 0 || all[i - 1].slot >= x.slot)).toBe(true);
  });

  it('refuses version-0 transactions without maxSupportedTransactionVersion, as a node does', async () => {
    const s = await start();
    const err = await transport(s.url)
      .call('getTransaction', [TXS[0].signature, { encoding: 'json' }])
      .catch((e) => e);
    expect(isHistoryError(err, 'rpc_error')).toBe(true);
    expect((err as HistoryError).context.rpcCode).toBe(-32015);
  });
});

describe('batching', () => {
  it('sends batch arrays of batchSize and keeps the order of results', async () => {
    const s = await start();
    const t = transport(s.url, { batchSize: 100 });
    const res = await t.callMany<any>(TXS.slice(0, 250).map((x) => getTx(x.signature)));
    expect(res.map((r) => r.transaction.signatures[0])).toEqual(TXS.slice(0, 250).map((x) => x.signature));
    expect(s.stats.httpRequests).toBe(3);
    expect(s.stats.batches).toBe(3);
    expect(s.stats.byMethod.getTransaction).toBe(250);
  });

  it('falls back to single calls when the endpoint refuses batches, and remembers it', async () => {
    const s = await start({ batch: false });
    const t = transport(s.url, { batchSize: 100 });
    const res = await t.callMany<any>(TXS.slice(0, 20).map((x) => getTx(x.signature)));
    expect(res.map((r) => r.transaction.signatures[0])).toEqual(TXS.slice(0, 20).map((x) => x.signature));
    expect(t.batching).toBe(false);
    expect(s.stats.httpRequests).toBe(21); // one refused batch, then 20 single calls
    await t.callMany(TXS.slice(20, 30).map((x) => getTx(x.signature)));
    expect(s.stats.httpRequests).toBe(31);
  });

  it('falls back when a batch is larger than the endpoint accepts (413)', async () => {
    const s = await start({ maxBatchSize: 5 });
    const t = transport(s.url, { batchSize: 10 });
    const res = await t.callMany<any>(TXS.slice(0, 10).map((x) => getTx(x.signature)));
    expect(res).toHaveLength(10);
    expect(t.batching).toBe(false);
  });

  it('with batching off sends one request per call', async () => {
    const s = await start();
    const t = transport(s.url, { batch: false });
    await t.callMany(TXS.slice(0, 12).map((x) => getTx(x.signature)));
    expect(s.stats.httpRequests).toBe(12);
    expect(s.stats.batches).toBe(0);
  });
});

describe('concurrency and rate', () => {
  it('never has more than maxInFlight requests open', async () => {
    const s = await start({ latencyMs: 20 });
    const t = transport(s.url, { batch: false, maxInFlight: 3 });
    const t0 = performance.now();
    await t.callMany(TXS.slice(0, 30).map((x) => getTx(x.signature)));
    expect(s.stats.maxInFlight).toBe(3);
    // 30 requests, 3 at a time, 20 ms each: at least 10 rounds.
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
  });

  it('keeps to requestsPerSecond', async () => {
    const s = await start();
    const t = transport(s.url, { batch: false, requestsPerSecond: 50 });
    const t0 = performance.now();
    await t.callMany(TXS.slice(0, 11).map((x) => getTx(x.signature)));
    // 11 starts at 50/s: the 11th no earlier than 200 ms after the first.
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
  });
});

describe('retries', () => {
  it('honours Retry-After on 429', async () => {
    const s = await start({ rateLimit: { requests: 1, perMs: 1000, retryAfterSeconds: 1 } });
    const t = transport(s.url);
    await t.call('getSlot', []);
    const t0 = performance.now();
    expect(await t.call('getSlot', [])).toBe(1099);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(950);
    expect(s.stats.rateLimited).toBe(1);
    expect(t.stats.retries).toBe(1);
  });

  it.each(['5xx', 'timeout', 'truncate', '429', 'reset'] as const)('recovers from %s', async (kind) => {
    let left = 2;
    const s = await start({ failWhen: () => (left-- > 0 ? kind : null), faults: { rate: 0, hangMs: 2000 } });
    const t = transport(s.url, { timeoutMs: 200 });
    const res = await t.callMany<any>(TXS.slice(0, 5).map((x) => getTx(x.signature)));
    expect(res.map((r) => r.transaction.signatures[0])).toEqual(TXS.slice(0, 5).map((x) => x.signature));
    expect(s.stats.faults[kind]).toBe(2);
    expect(t.stats.retries).toBe(2);
  });

  it('gives identical results under 10% injected faults', async () => {
    const s = await start({ faults: { rate: 0.1, seed: 3, hangMs: 1000 } });
    const t = transport(s.url, { batchSize: 10, timeoutMs: 150 });
    const res = await t.callMany<any>(TXS.map((x) => getTx(x.signature)));
    expect(res.map((r) => r.transaction.signatures[0])).toEqual(TXS.map((x) => x.signature));
    expect(Object.values(s.stats.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it.each([
    ['5xx', 'rpc_http_error'],
    ['timeout', 'rpc_timeout'],
    ['truncate', 'rpc_malformed_response'],
    ['429', 'rpc_rate_limited'],
  ] as const)('a persistent %s ends in HistoryError %s, URL redacted, cause kept', async (kind, code) => {
    const s = await start({ failWhen: () => kind, faults: { rate: 0, hangMs: 1000 } });
    const url = `${s.url}?api-key=SECRETKEY123`;
    const t = transport(url, { maxRetries: 2, timeoutMs: 100 });
    const err = (await t.call('getSlot', []).catch((e: unknown) => e)) as HistoryError;
    expect(err).toBeInstanceOf(HistoryError);
    expect(err.code).toBe(code);
    expect(err.retryable).toBe(true);
    expect(err.message).not.toContain('SECRETKEY123');
    expect(JSON.stringify(err.context)).not.toContain('SECRETKEY123');
    expect(err.context.attempts).toBe(3);
    expect(s.stats.httpRequests).toBe(3);
    if (kind === 'timeout' || kind === 'truncate') expect(err.cause).toBeDefined();
    if (kind === '5xx') expect([500, 502, 503]).toContain(err.context.status);
  });

  it('re-sends only the items of a batch that got a transient error', async () => {
    const failing = new Set([TXS[1].signature, TXS[3].signature]);
    const s = await start({
      itemError: (c) => (failing.delete(c.params[0]) ? { code: -32005, message: 'Node is behind by 12 slots' } : null),
    });
    const t = transport(s.url);
    const res = await t.callMany<any>(TXS.slice(0, 5).map((x) => getTx(x.signature)));
    expect(res.map((r) => r.transaction.signatures[0])).toEqual(TXS.slice(0, 5).map((x) => x.signature));
    expect(s.stats.byMethod.getTransaction).toBe(7);
    expect(s.stats.httpRequests).toBe(2);
  });

  it('hands a transient item error back at once with retryItemErrors false, in a batch and sent alone', async () => {
    const refusing = { code: -32005, message: 'query returned more than 10000 results' };
    const calls = TXS.slice(0, 3).map((x) => getTx(x.signature));
    for (const batchSize of [100, 1]) {
      const s = await start({ itemError: (c) => (c.params[0] === TXS[1].signature ? refusing : null) });
      const t = transport(s.url, { batchSize });
      const out = await t.callManySettled(calls, { retryItemErrors: false });
      expect(out.map((o) => o.ok)).toEqual([true, false, true]);
      expect(out[1]).toMatchObject({ ok: false, error: { code: -32005 } });
      // Each call asked once: the refusal is the caller's to read, not the retry policy's.
      expect(s.stats.byMethod.getTransaction).toBe(3);
      await s.close();
      server = undefined;
    }
  });

  it('does not retry a JSON-RPC error that is not transient', async () => {
    const s = await start();
    const t = transport(s.url);
    const err = (await t.call('noSuchMethod', []).catch((e: unknown) => e)) as HistoryError;
    expect(isHistoryError(err, 'rpc_error')).toBe(true);
    expect(err.retryable).toBe(false);
    expect(s.stats.httpRequests).toBe(1);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6);
  });
});

describe('abort', () => {
  it('rejects promptly with the abort reason, in flight or queued', async () => {
    const s = await start({ latencyMs: 2000 });
    const t = transport(s.url, { batch: false, maxInFlight: 1, timeoutMs: 10_000 });
    const ctl = new AbortController();
    const p = t.callMany(
      TXS.slice(0, 3).map((x) => getTx(x.signature)),
      { signal: ctl.signal },
    );
    setTimeout(() => ctl.abort(), 50);
    const t0 = performance.now();
    const err = await p.catch((e) => e);
    expect(err.name).toBe('AbortError');
    expect(performance.now() - t0).toBeLessThan(500);
  });
});

/** Feeds `text` to a splitter in chunks of the given byte sizes (cycled); returns the items' values. */
function split(text: string, sizes: number[]): { items: unknown[]; whole: string | null; parses: number } {
  const bytes = new TextEncoder().encode(text);
  const items: unknown[] = [];
  let parses = 0;
  const sp = new JsonArraySplitter({
    parse: (t) => {
      parses++;
      return JSON.parse(t);
    },
    item: (v) => items.push(v),
  });
  for (let o = 0, k = 0; o < bytes.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length]);
    sp.push(bytes.subarray(o, o + n));
    o += n;
  }
  const whole = sp.end();
  return { items, whole, parses };
}

describe('batch answers read item by item', () => {
  const item = (id: number, result: unknown) => ({ jsonrpc: '2.0', result, id });
  // Strings that look like structure or like the item marker, escapes, nesting, non-ASCII.
  const tricky = [
    item(1, { logs: ['Program log: {"jsonrpc":"2.0", x}', 'a \\" ]}, [{', '\u00e9 é 漢字 🚀'], inner: [{ a: [1, { b: '}' }] }, {}] }),
    item(2, null),
    item(3, { nested: { jsonrpc: '2.0', deep: [{ jsonrpc: 'x' }] } }),
    { jsonrpc: '2.0', error: { code: -32005, message: 'behind, "really"' }, id: 4 },
    item(5, 12345678901234),
  ];
  const compact = JSON.stringify(tricky);
  const pretty = JSON.stringify(tricky, null, 2);

  it.each([
    ['compact, one chunk', compact, [1 << 20]],
    ['compact, byte by byte', compact, [1]],
    ['compact, odd chunks', compact, [3, 7, 1, 13, 2]],
    ['pretty printed, odd chunks', pretty, [5, 1, 17]],
    ['whitespace around', ` \n [ ${compact.slice(1, -1)} ] \n`, [4, 9]],
  ])('gives exactly JSON.parse of the whole: %s', (_, text, sizes) => {
    const r = split(text, sizes);
    expect(r.whole).toBeNull();
    expect(r.items).toEqual(JSON.parse(text));
  });

  it('reads every chunking of a real-sized answer the same', () => {
    const txs = TXS.slice(0, 40).map((t, i) => ({ jsonrpc: '2.0', result: JSON.parse(t.text!), id: i + 1 }));
    const text = JSON.stringify(txs);
    for (const sizes of [[1], [2, 3], [64], [1000, 1], [text.length]]) expect(split(text, sizes).items).toEqual(txs);
  });

  it('an empty array has no items; a body that is not an array comes back whole', () => {
    expect(split('[]', [1])).toMatchObject({ items: [], whole: null });
    expect(split(' [ ] ', [2])).toMatchObject({ items: [], whole: null });
    const err = '{"jsonrpc":"2.0","error":{"code":-32600,"message":"no batches"},"id":null}';
    expect(split(err, [7]).whole).toBe(err);
  });

  it('reads items one by one, and arrays it cannot split by their first key whole, with the same values', () => {
    const txs = TXS.slice(0, 10).map((t, i) => ({ jsonrpc: '2.0', result: JSON.parse(t.text!), id: i + 1 }));
    expect(split(JSON.stringify(txs), [100]).parses).toBe(10);
    for (const text of [
      '[1,2,"3",{"a":[4]},null]',
      '[{},{"a":1}]',
      // Items whose first keys differ: pieces holding several items are read as arrays of them.
      '[{"jsonrpc":"2.0","id":1,"result":1},{"id":2,"jsonrpc":"2.0","result":{"jsonrpc":"2.0","x":[]}},{"jsonrpc":"2.0","id":3,"result":3}]',
      // A nested object after a comma that starts like an item.
      '[{"jsonrpc":"2.0","result":[{"a":1},{"jsonrpc":"x","b":[{"jsonrpc":"y"}]}],"id":1},{"jsonrpc":"2.0","result":2,"id":2}]',
    ]) {
      for (const sizes of [[1], [3, 5], [1000]]) expect(split(text, sizes).items).toEqual(JSON.parse(text));
    }
  });

  it('a cut or broken body is CutShort', () => {
    expect(() => split(compact.slice(0, compact.length / 2), [10])).toThrow(CutShort);
    expect(() => split(compact.slice(0, -1), [10])).toThrow(CutShort);
    expect(() => split(`${compact} x`, [10])).toThrow(CutShort);
    expect(() => split('[{"jsonrpc":"2.0","id":1} x {"jsonrpc":"2.0","id":2}]', [4])).toThrow(CutShort);
    expect(() => split('[1,2', [1])).toThrow(CutShort);
  });

  it('maps each result as it is read, also from a server that writes its items in two ways', async () => {
    const s = await start();
    const t = transport(s.url);
    const seen: number[] = [];
    const res = await t.callMany<any, string>(
      TXS.slice(0, 30).map((x) => getTx(x.signature)),
      {
        map: (r, i) => {
          seen.push(i);
          return r.transaction.signatures[0];
        },
      },
    );
    expect(res).toEqual(TXS.slice(0, 30).map((x) => x.signature));
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(30).keys()]);
    expect(t.stats.parseMs).toBeGreaterThan(0);

    // A server that writes its batch answers oddly (keys in two orders): same results, no retry.
    const odd = await startSolanaReplayServer({ transactions: TXS });
    const realFetch = globalThis.fetch;
    const oddFetch = (async (url: any, init: any) => {
      const r = await realFetch(url, init);
      const text = await r.text();
      const body = text.startsWith('[') ? JSON.stringify(JSON.parse(text).map((x: any, i: number) => (i % 2 ? { id: x.id, ...x } : x))) : text;
      return new Response(body, { status: r.status, headers: r.headers });
    }) as typeof fetch;
    try {
      const t2 = transport(odd.url, { fetch: oddFetch });
      const calls = TXS.slice(0, 30).map((x) => getTx(x.signature));
      const res2 = await t2.callMany<any, string>(calls, { map: (r) => r.transaction.signatures[0] });
      expect(res2).toEqual(TXS.slice(0, 30).map((x) => x.signature));
      expect(t2.stats.retries).toBe(0);
    } finally {
      await odd.close();
    }
  });

  it('an error thrown by map ends the call with that error, without retries', async () => {
    const s = await start();
    const t = transport(s.url);
    const boom = new HistoryError('internal', 'decoder bug', { retryable: false });
    const err = await t
      .callMany(
        TXS.slice(0, 30).map((x) => getTx(x.signature)),
        {
          map: (_r, i) => {
            if (i === 3) throw boom;
            return i;
          },
        },
      )
      .catch((e) => e);
    expect(err).toBe(boom);
    expect(s.stats.httpRequests).toBe(1);
  });
});
