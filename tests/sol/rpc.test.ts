import { afterEach, describe, expect, it } from 'vitest';
import { HistoryError, isHistoryError } from '../../src/lib/core/errors.js';
import { createRpcTransport, parseRetryAfter, type RpcTransportOptions } from '../../src/lib/chains/sol/rpc/transport.js';
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
    const err = await transport(s.url).call('getTransaction', [TXS[0].signature, { encoding: 'json' }]).catch((e) => e);
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
    const p = t.callMany(TXS.slice(0, 3).map((x) => getTx(x.signature)), { signal: ctl.signal });
    setTimeout(() => ctl.abort(), 50);
    const t0 = performance.now();
    const err = await p.catch((e) => e);
    expect(err.name).toBe('AbortError');
    expect(performance.now() - t0).toBeLessThan(500);
  });
});
