import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, type ChainFamily } from '../../src/lib/chains/families.js';
import { createChainRegistry } from '../../src/lib/chains/registry.js';
import { HistoryError, isRequestFault } from '../../src/lib/core/errors.js';
import { createCursorCodec } from '../../src/lib/server/api/cursor.js';
import { parseHistoryRequest, type HistoryContext } from '../../src/lib/server/api/history.js';
import { parseLimit } from '../../src/lib/server/api/parse-limit.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createScriptedSource } from '../support/scripted-source.js';

/**
 * Property-based fuzzing of everything that reads a request (fast-check, fixed seed, 100,000+
 * generated cases in all): the cursor decoder, every family's address validator, the limit parser
 * and the whole query parsing of the history route. Whatever comes in, the answer is a value or a
 * HistoryError with a request-fault code (a 4xx problem): never another exception, never a 5xx.
 * A sample goes through the app's route files over HTTP as well, hostile and valid requests mixed,
 * so fuzzed cursors and addresses also reach the handlers behind validation.
 */
const SEED = 20261124;
const VALID = {
  solana: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  evm: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  tron: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
};
const chains = createChainRegistry();
const cursors = createCursorCodec('fuzz-secret');
const ctx = { chains, cursors } as unknown as HistoryContext;

/** Strings near the valid ones (a character changed, dropped, added; case flipped) and arbitrary text. */
const nearly = (valid: string) =>
  fc.oneof(
    fc.tuple(fc.nat(valid.length - 1), fc.constantFrom(...'0OIl1aZz9x-_ %/'.split(''))).map(([i, c]) => valid.slice(0, i) + c + valid.slice(i + 1)),
    fc.nat(valid.length - 1).map((i) => valid.slice(0, i) + valid.slice(i + 1)),
    fc.string({ maxLength: 3 }).map((s) => valid + s),
    fc.constant(valid.toUpperCase()),
    fc.constant(valid.toLowerCase()),
  );
const anyText = fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: 'grapheme', maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 60 }));
const address = fc.oneof(anyText, nearly(VALID.solana), nearly(VALID.evm), nearly(VALID.tron), fc.constantFrom(...Object.values(VALID)));

/** Runs `f`; a HistoryError must carry a request-fault code, anything else fails the property. */
function requestFaultOrValue(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (e instanceof HistoryError && isRequestFault(e.code)) return true;
    throw e;
  }
}

describe('fuzzing the request boundary', () => {
  it('address validators: null or a stable stored form, never an exception (3 families x 12,000)', () => {
    for (const family of Object.keys(FAMILIES) as ChainFamily[]) {
      fc.assert(
        fc.property(address, (s) => {
          const v = FAMILIES[family].parseAddress(s);
          if (v === null) return true;
          // What is shown validates again to the same stored form.
          return FAMILIES[family].parseAddress(v.shown)?.stored === v.stored;
        }),
        { seed: SEED, numRuns: 12_000 },
      );
    }
  });

  it('the cursor decoder: a payload for what it issued, invalid_cursor for everything else (30,000)', () => {
    const issued = cursors.encode({ chain: 'sol', wallet: VALID.solana, key: '000000000123.00001:9999', signature: 'abc' });
    fc.assert(
      fc.property(fc.oneof(anyText, nearly(issued), fc.base64String({ maxLength: 200 })), (s) => {
        try {
          const p = cursors.decode(s, { chain: 'sol', wallet: VALID.solana });
          return s === issued && p.signature === 'abc';
        } catch (e) {
          return e instanceof HistoryError && e.code === 'invalid_cursor';
        }
      }),
      { seed: SEED, numRuns: 30_000 },
    );
  });

  it('the limit parser (10,000)', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, fc.stringMatching(/^[0-9]{1,25}$/)), (s) => requestFaultOrValue(() => parseLimit(s))),
      { seed: SEED, numRuns: 10_000 },
    );
  });

  it('the history route’s query parsing, whole (25,000)', () => {
    const query = fc.record(
      {
        chain: fc.oneof(fc.constantFrom('sol', 'eth', 'base', 'tron', 'bsc', 'nochain', '', 'SOL'), anyText),
        limit: fc.oneof(fc.constantFrom('1', '7', '1000', '0', '-1', '1e3', '99999999999999999999'), anyText),
        cursor: fc.oneof(fc.base64String({ maxLength: 120 }), anyText),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(address, query, (a, q) => {
        const u = new URL('http://x/v1/wallets/a/history');
        for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v as string);
        return requestFaultOrValue(() => parseHistoryRequest(ctx, a, u));
      }),
      { seed: SEED, numRuns: 25_000 },
    );
  });

  describe('through the HTTP route (a sample)', () => {
    let srv: TestServer;
    beforeAll(async () => {
      const s = createScriptedSource({ transactions: 40, batchSize: 10 });
      srv = await startTestServer({
        sources: Object.fromEntries(['sol', 'eth', 'base', 'bsc', 'monad', 'robinhood', 'tron'].map((c) => [c, s])),
        env: { STREAM_MAX_SECONDS: '10' },
      });
    });
    afterAll(() => srv?.close());

    /** A 2xx read whole (a page, or a stream ending in its final line) or a 4xx problem with a code. */
    async function wellAnswered(res: Response, paged: boolean): Promise<boolean> {
      if (res.status >= 500) return false;
      if (res.status >= 400) {
        const body = await res.json().catch(() => null);
        return res.headers.get('content-type') === 'application/problem+json' && typeof body?.code === 'string';
      }
      const text = await res.text();
      if (paged) return Array.isArray(JSON.parse(text).trades);
      const last = JSON.parse(text.trimEnd().split('\n').at(-1)!);
      return typeof last.complete === 'boolean' && typeof last.tradeCount === 'number';
    }

    it('answers hostile paths and queries with a 4xx problem that has a code, never a 5xx (400)', async () => {
      const printable = fc.string({ unit: fc.constantFrom(..."abcXYZ019%._~-+&=?/#:;@!$'()*, ".split('')), maxLength: 80 });
      await fc.assert(
        fc.asyncProperty(printable, printable, async (seg, qs) => wellAnswered(await srv.get(`/v1/wallets/${seg}/history?${qs}`), /limit=/.test(qs))),
        { seed: SEED, numRuns: 400 },
      );
    });

    it('valid requests with fuzzed cursors, limits and near-valid addresses reach the handlers: a read or a 4xx, never a 5xx (300)', async () => {
      // Cursors this server issued, to fuzz near: a page of each family's valid wallet (a page may
      // come back empty while the wallet's first batch is stored: ask again).
      const issued: Record<string, string> = {};
      for (const [chain, wallet] of [
        ['sol', VALID.solana],
        ['eth', VALID.evm],
        ['tron', VALID.tron],
      ] as const) {
        for (let i = 0; i < 40 && !issued[chain]; i++) {
          const page = await (await srv.get(`/v1/wallets/${wallet}/history?chain=${chain}&limit=3`)).json();
          if (page.trades.length && page.cursor) issued[chain] = page.cursor;
          else await new Promise((r) => setTimeout(r, 50));
        }
      }
      expect(Object.keys(issued)).toHaveLength(3);
      const target = fc.oneof(
        { arbitrary: fc.constantFrom<[string, string]>(['sol', VALID.solana], ['eth', VALID.evm], ['base', VALID.evm], ['tron', VALID.tron]), weight: 3 },
        fc.tuple(fc.constantFrom('sol', 'eth', 'tron'), address),
      );
      // Mostly the wallet's own cursor or none (reads), else one near it or any text (invalid_cursor).
      const request = target.chain(([chain, wallet]) =>
        fc.record({
          chain: fc.constant(chain),
          wallet: fc.constant(wallet),
          limit: fc.oneof(fc.constant(undefined), fc.integer({ min: 1, max: 60 }).map(String), fc.constantFrom('0', '1e3', '9007199254740992', 'x')),
          cursor: fc.oneof(
            { arbitrary: fc.constant(undefined), weight: 3 },
            { arbitrary: fc.constant(issued[chain] ?? issued.eth), weight: 3 },
            nearly(issued[chain] ?? issued.eth),
            fc.base64String({ maxLength: 120 }),
          ),
        }),
      );
      let reads = 0;
      await fc.assert(
        fc.asyncProperty(request, async ({ chain, wallet, limit, cursor }) => {
          const q = new URLSearchParams({ chain });
          if (limit !== undefined) q.set('limit', limit);
          if (cursor !== undefined) q.set('cursor', cursor);
          const res = await srv.get(`/v1/wallets/${encodeURIComponent(wallet)}/history?${q}`);
          if (res.status === 200) reads++;
          return wellAnswered(res, limit !== undefined);
        }),
        { seed: SEED, numRuns: 300 },
      );
      // The sample reached the handlers behind validation, not only the refusals in front of them.
      expect(reads).toBeGreaterThan(100);
    });
  });
});
