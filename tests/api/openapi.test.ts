import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedSource } from '../support/scripted-source.js';
import { randomWallet, readStream, startTestServer, type TestServer } from '../support/test-server.js';

describe('real responses validate against /v1/openapi.json', () => {
  let srv: TestServer;
  let doc: any;
  let validator: (name: string, value: unknown) => void;
  beforeAll(async () => {
    srv = await startTestServer({
      sources: { sol: createScriptedSource({ transactions: 40, batchSize: 10, unexplainedEvery: 6 }) },
      env: {
        STREAM_MAX_SECONDS: '1',
        FOLLOW_MAX_SECONDS: '1',
        WEBHOOK_SECRET_KEY: 'openapi-test-key',
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
    });
    const res = await srv.get('/v1/openapi.json', null);
    expect(res.status).toBe(200);
    doc = await res.json();
    const ajv = new (Ajv2020 as any)({ strict: false, allErrors: true });
    (addFormats as any)(ajv);
    // Each component schema, addressable by name, with the document's own $refs resolving.
    ajv.addSchema({ $id: 'doc', components: doc.components });
    validator = (name, value) => {
      const ok = ajv.validate({ $ref: `doc#/components/schemas/${name}` }, value);
      expect(ok, `${name}: ${ajv.errorsText()}\n${JSON.stringify(value).slice(0, 300)}`).toBe(true);
    };
  });
  afterAll(() => srv.close());

  it('is OpenAPI 3.1 and lists every operation', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/v1/chains',
      '/v1/openapi.json',
      '/v1/usage',
      '/v1/wallets/{address}/export',
      '/v1/wallets/{address}/history',
      '/v1/wallets/{address}/pnl',
      '/v1/wallets/{address}/unexplained',
      '/v1/webhooks',
      '/v1/webhooks/{id}',
      '/v1/webhooks/{id}/enable',
      '/v1/webhooks/{id}/rotate',
    ]);
    const chainParam = doc.paths['/v1/wallets/{address}/history'].get.parameters.find((p: any) => p.name === 'chain');
    expect(chainParam.schema.enum).toEqual(expect.arrayContaining(['sol', 'eth', 'base', 'bsc', 'monad', 'robinhood', 'tron']));
  });

  it('stream lines, pages, problems, usage and chains all match their schemas', async () => {
    const w = randomWallet();
    const { batches, final } = await readStream(await srv.get(`/v1/wallets/${w}/history`));
    for (const b of batches) validator('StreamBatch', b);
    validator('StreamFinal', final);
    // An incomplete page and, once loaded, a complete last page.
    const p1 = await (await srv.get(`/v1/wallets/${randomWallet()}/history?limit=5`)).json();
    validator('Page', p1);
    let page: any;
    let cursor = '';
    for (let i = 0; i < 100; i++) {
      page = await (await srv.get(`/v1/wallets/${w}/history?limit=1000${cursor}`)).json();
      validator('Page', page);
      if (!page.cursor) break;
      cursor = `&cursor=${encodeURIComponent(page.cursor)}`;
    }
    expect(page.complete).toBe(true);
    expect(page.totalPages).toBe(1);
    // The unexplained list of the loaded wallet (40 transactions, every sixth from 1: 7 of them), in pages of 3.
    const listed: unknown[] = [];
    cursor = '';
    for (let i = 0; i < 10; i++) {
      const u = await (await srv.get(`/v1/wallets/${w}/unexplained?limit=3${cursor}`)).json();
      validator('UnexplainedPage', u);
      listed.push(...u.unexplained);
      if (!u.cursor) break;
      cursor = `&cursor=${encodeURIComponent(u.cursor)}`;
    }
    expect(listed.length).toBe(7);
    validator('Problem', await (await srv.get(`/v1/wallets/${w}/unexplained?cursor=${encodeURIComponent(page.cursor ?? 'x.y')}`)).json());
    validator('Problem', await (await srv.get(`/v1/wallets/nope/history`)).json());
    validator('Problem', await (await srv.get(`/v1/wallets/${w}/history`, null)).json());
    validator('Problem', await (await srv.get(`/v1/wallets/${w}/history?limit=0`)).json());
    validator('Problem', await (await srv.get(`/v1/wallets/${w}/history?include=eur`)).json());
    // include=usd: ten fields a trade, pricesComplete on the final line and the page (no feed here: null prices).
    const usd = await readStream(await srv.get(`/v1/wallets/${w}/history?include=usd`));
    for (const b of usd.batches) validator('StreamBatch', b);
    validator('StreamFinal', usd.final);
    expect(usd.final.pricesComplete).toBe(true);
    expect(Object.keys(usd.batches.find((b) => b.trades.length)!.trades[0])).toHaveLength(10);
    const usdPage = await (await srv.get(`/v1/wallets/${w}/history?include=usd&limit=7`)).json();
    validator('Page', usdPage);
    expect(usdPage.trades[0]).toMatchObject({ nativeUsd: null });
    validator('Pnl', await (await srv.get(`/v1/wallets/${w}/pnl`)).json());
    validator('Pnl', await (await srv.get(`/v1/wallets/${w}/pnl?method=fifo`)).json());
    validator('Problem', await (await srv.get(`/v1/wallets/${w}/pnl?method=lifo`)).json());
    for (const method of ['average', 'fifo']) {
      const lots = await (await srv.get(`/v1/wallets/${w}/pnl?method=${method}&include=lots`)).json();
      validator('Pnl', lots);
      expect(lots.tokens.some((t: any) => t.lots.some((e: any) => e.side === 'sell' && e.takes.length > 0))).toBe(true);
    }
    validator('Problem', await (await srv.get(`/v1/wallets/${w}/export?format=xls`)).json());
    const incomplete = await srv.get(`/v1/wallets/${randomWallet()}/export`);
    expect(incomplete.status).toBe(409);
    validator('Problem', await incomplete.json());
    validator('Usage', await (await srv.get('/v1/usage')).json());
    // follow=true: the final line with its liveCursor, then (nothing new here) the end line after FOLLOW_MAX_SECONDS.
    const followed = (await (await srv.get(`/v1/wallets/${w}/history?follow=true`)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    validator(
      'StreamFinal',
      followed.find((l) => 'complete' in l),
    );
    expect(followed.find((l) => 'complete' in l).liveCursor).toBeTruthy();
    validator('LiveEnd', followed.at(-1));
    for (const l of followed.filter((x) => x.live && !x.end)) validator('LiveLine', l);
    // Webhooks: created (with its secret once), listed, read.
    const made = await srv.get('/v1/webhooks', undefined, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', wallets: [{ chain: 'sol', address: w }] }),
    });
    expect(made.status).toBe(201);
    const hook = await made.json();
    validator('WebhookWithSecret', hook);
    validator('WebhookList', await (await srv.get('/v1/webhooks')).json());
    validator('Webhook', await (await srv.get(`/v1/webhooks/${hook.id}`)).json());
    validator('Problem', await (await srv.get('/v1/webhooks/wh_none')).json());
    const chains = await (await srv.get('/v1/chains', null)).json();
    validator('Chains', chains);
    expect(chains.chains.map((c: any) => c.slug)).toEqual(expect.arrayContaining(['sol', 'eth', 'base', 'bsc', 'monad', 'robinhood', 'tron']));
    for (const c of chains.chains) expect(c.explorerUrl).toContain('{signature}');
  });

  it('marks schema violations (the validator is not a rubber stamp)', () => {
    expect(() => validator('Trade', { signature: 's', side: 'hold' })).toThrow();
    expect(() => validator('StreamFinal', { complete: true })).toThrow();
    expect(() => validator('UnexplainedChange', { token: 'X', tokenMint: null, amount: '-1' })).toThrow();
  });
});
