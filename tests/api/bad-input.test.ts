import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedSource } from '../support/scripted-source.js';
import { randomWallet, readStream, startTestServer, TEST_KEY, type TestServer } from '../support/test-server.js';

const vectors = JSON.parse(readFileSync(new URL('../fixtures/address-vectors.json', import.meta.url), 'utf8'));
const FAMILY_CHAIN: Record<string, string> = { solana: 'sol', evm: 'eth', tron: 'tron' };

describe('bad input gets its status and code, and nothing is stored or counted', () => {
  let srv: TestServer;
  const calls = { walks: 0 };
  beforeAll(async () => {
    // Every chain gets a source that records any walk: a rejected request must start none.
    const source = (chain: string) => ({
      chain,
      history: (p: any) => {
        calls.walks++;
        return createScriptedSource({ transactions: 3 }).history(p);
      },
    });
    srv = await startTestServer({ sources: Object.fromEntries(['sol', 'eth', 'base', 'bsc', 'monad', 'robinhood', 'tron'].map((c) => [c, source(c)])) });
  });
  afterAll(() => srv.close());

  async function expectProblem(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = await res.json();
    expect(body).toMatchObject({ status, code });
    expect(typeof body.detail).toBe('string');
    return body;
  }
  async function nothingChanged<T>(fn: () => Promise<T>): Promise<T> {
    const before = await srv.server.db.query<{ w: number; t: number; u: number }>(
      'SELECT (SELECT count(*)::int FROM wallets) AS w, (SELECT count(*)::int FROM trades) AS t, (SELECT coalesce(sum(usage_trades),0)::int FROM accounts) AS u',
    );
    const walks = calls.walks;
    const out = await fn();
    const after = await srv.server.db.query(
      'SELECT (SELECT count(*)::int FROM wallets) AS w, (SELECT count(*)::int FROM trades) AS t, (SELECT coalesce(sum(usage_trades),0)::int FROM accounts) AS u',
    );
    expect(after).toEqual(before);
    expect(calls.walks).toBe(walks);
    return out;
  }

  for (const [family, chain] of Object.entries(FAMILY_CHAIN)) {
    const valid: string[] = Array.isArray(vectors[family].valid) ? vectors[family].valid : Object.keys(vectors[family].valid);
    const invalid: string[] = Object.keys(vectors[family].invalid);
    it(`rejects every invalid ${family} vector on ${chain} with 400 invalid_address`, async () => {
      await nothingChanged(async () => {
        for (const a of invalid)
          await expectProblem(
            await srv.get(`/v1/wallets/${encodeURIComponent(a)}/history?chain=${chain}&limit=1`),
            a === '' ? 404 : 400,
            a === '' ? 'not_found' : 'invalid_address',
          );
      });
    });
    it(`rejects every valid ${family} vector on the other families' chains`, async () => {
      await nothingChanged(async () => {
        for (const other of Object.values(FAMILY_CHAIN).filter((c) => c !== chain)) {
          for (const a of valid)
            await expectProblem(await srv.get(`/v1/wallets/${encodeURIComponent(a)}/history?chain=${other}&limit=1`), 400, 'invalid_address');
        }
      });
    });
    it(`accepts every valid ${family} vector on ${chain}`, async () => {
      for (const a of valid) {
        const res = await srv.get(`/v1/wallets/${encodeURIComponent(a)}/history?chain=${chain}&limit=1`);
        expect(res.status, a).toBe(200);
        const page = await res.json();
        // Echoed as given, except EVM, which is echoed in EIP-55 form.
        if (family !== 'evm') expect(page.wallet).toBe(a);
        else expect(page.wallet.toLowerCase()).toBe(a.toLowerCase());
      }
    });
  }

  it('rejects an unknown chain, naming the chains served', async () => {
    await nothingChanged(async () => {
      for (const c of ['solana', 'ETH', '', 'devnet2']) {
        const body = await expectProblem(await srv.get(`/v1/wallets/${randomWallet()}/history?chain=${c}`), 400, 'unknown_chain');
        expect(body.detail).toContain('sol');
      }
    });
  });

  it.each(['0', '-1', '1.5', '1e3', '+5', 'abc', '', '0x10', ' 5', '00'])('rejects limit=%j with 400 invalid_limit', async (limit) => {
    await nothingChanged(async () =>
      expectProblem(await srv.get(`/v1/wallets/${randomWallet()}/history?limit=${encodeURIComponent(limit)}`), 400, 'invalid_limit'),
    );
  });

  it('accepts a limit of 10^30 written in digits as unbounded', async () => {
    const res = await srv.get(`/v1/wallets/${randomWallet()}/history?limit=1${'0'.repeat(30)}`);
    expect(res.status).toBe(200);
    const page = await res.json();
    expect(page.pageSize).toBe(9007199254740991);
    expect(page.complete).toBe(true);
    expect(page.trades.length).toBe(page.tradeCount);
    expect(page.totalPages).toBe(1);
  });

  it('rejects cursors that are garbage, truncated, edited, or from another wallet or chain', async () => {
    const w = randomWallet();
    const { batches } = await readStream(await srv.get(`/v1/wallets/${w}/history`));
    const good = batches[0].cursor;
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    // Every other character in the MAC's last place: base64url's spare bits must not let one through.
    const lastEdits = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_']
      .filter((c) => c !== good.at(-1))
      .map((c) => good.slice(0, -1) + c);
    const bad = [
      ...lastEdits,
      'garbage',
      '',
      '....',
      good.slice(0, -3),
      good.slice(0, good.length / 2),
      flip(good, 5),
      flip(good, good.length - 2),
      good + 'x',
    ];
    await nothingChanged(async () => {
      for (const c of bad) {
        await expectProblem(await srv.get(`/v1/wallets/${w}/history?cursor=${encodeURIComponent(c)}`), 400, 'invalid_cursor');
        await expectProblem(await srv.get(`/v1/wallets/${w}/history?limit=5&cursor=${encodeURIComponent(c)}`), 400, 'invalid_cursor');
      }
      // A good cursor on another wallet, and on another chain of the same family.
      await expectProblem(await srv.get(`/v1/wallets/${randomWallet()}/history?cursor=${encodeURIComponent(good)}`), 400, 'invalid_cursor');
    });
    const evm = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
    const { batches: eb } = await readStream(await srv.get(`/v1/wallets/${evm}/history?chain=eth`));
    await nothingChanged(async () => {
      await expectProblem(await srv.get(`/v1/wallets/${evm}/history?chain=base&cursor=${encodeURIComponent(eb[0].cursor)}`), 400, 'invalid_cursor');
    });
    // The good cursor itself still works.
    expect((await srv.get(`/v1/wallets/${w}/history?cursor=${encodeURIComponent(good)}`)).status).toBe(200);
  });

  it('rejects a missing, malformed, unknown or revoked key with 401 and WWW-Authenticate', async () => {
    const w = randomWallet();
    await nothingChanged(async () => {
      for (const header of [null, 'Basic abc', 'Bearer', 'Bearer  two spaces', `bearer${TEST_KEY}`, 'Bearer wth_unknown_key_0000000000000']) {
        const res = await srv.get(`/v1/wallets/${w}/history`, null, header ? { headers: { authorization: header } } : {});
        await expectProblem(res, 401, 'unauthorized');
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
      expect((await srv.get('/v1/usage', null)).status).toBe(401);
    });
    const { createKey, revokeKey } = await import('../../src/lib/server/store/accounts.js');
    const { key, id } = await createKey(srv.server.db, 'carol');
    expect((await srv.get(`/v1/wallets/${w}/history?limit=1`, key)).status).toBe(200);
    expect(await revokeKey(srv.server.db, String(id))).toBe(1);
    await nothingChanged(async () => expectProblem(await srv.get(`/v1/wallets/${w}/history?limit=1`, key), 401, 'unauthorized'));
  });

  it('answers other methods on the route with 405 and Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD']) {
      const res = await srv.get(`/v1/wallets/${randomWallet()}/history`, TEST_KEY, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
    }
  });

  it('answers a path address that is not valid percent-encoding with 400 invalid_address', async () => {
    await nothingChanged(async () => expectProblem(await srv.get('/v1/wallets/%ZZ/history?limit=1'), 400, 'invalid_address'));
  });

  it('answers an unknown /v1 path with a 404 problem', async () => {
    await expectProblem(await srv.get('/v1/nothing-here'), 404, 'not_found');
  });
});
