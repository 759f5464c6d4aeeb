import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { FAMILIES, type ChainFamily } from '../../src/lib/chains/families.js';
import { createChainRegistry } from '../../src/lib/chains/registry.js';
import { HistoryError, isRequestFault } from '../../src/lib/core/errors.js';
import { createCursorCodec } from '../../src/lib/server/api/cursor.js';
import { decodeAddressSegment } from '../../src/lib/server/api/get-history.js';
import { parseHistoryRequest, type HistoryContext } from '../../src/lib/server/api/history.js';
import { parseLimit } from '../../src/lib/server/api/parse-limit.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createScriptedSource } from '../support/scripted-source.js';

/**
 * Property-based fuzzing of everything that reads a request (fast-check, fixed seed, 100,000+
 * generated cases in all): the cursor decoder, every family's address validator, the limit parser,
 * the path segment decoder and the whole query parsing of the history route. Whatever comes in,
 * the answer is a value or a HistoryError with a request-fault code (a 4xx problem): never
 * another exception, never a 5xx. A sample goes through the real HTTP route as well.
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

  it('the limit parser and the path segment decoder (10,000 each)', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, fc.stringMatching(/^[0-9]{1,25}$/)), (s) => requestFaultOrValue(() => parseLimit(s))),
      { seed: SEED, numRuns: 10_000 },
    );
    fc.assert(
      fc.property(fc.oneof(anyText, fc.stringMatching(/^(%[0-9A-Fa-f]{0,2}|[A-Za-z0-9])*$/)), (s) => requestFaultOrValue(() => decodeAddressSegment(s))),
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
      const s = createScriptedSource({ transactions: 0, batchSize: 10 });
      srv = await startTestServer({ sources: Object.fromEntries(['sol', 'eth', 'base', 'bsc', 'monad', 'robinhood', 'tron'].map((c) => [c, s])) });
    });
    afterAll(() => srv?.close());

    it('answers hostile paths and queries with a 4xx problem that has a code, never a 5xx (500)', async () => {
      const printable = fc.string({ unit: fc.constantFrom(..."abcXYZ019%._~-+&=?/#:;@!$'()*, ".split('')), maxLength: 80 });
      await fc.assert(
        fc.asyncProperty(printable, printable, async (seg, qs) => {
          const res = await srv.get(`/v1/wallets/${seg}/history?${qs}&limit=zz`);
          if (res.status >= 500) return false;
          if (res.status >= 400) {
            const body = await res.json().catch(() => null);
            return res.headers.get('content-type') === 'application/problem+json' && typeof body?.code === 'string';
          }
          await res.body?.cancel();
          return true;
        }),
        { seed: SEED, numRuns: 500 },
      );
    });
  });
});
