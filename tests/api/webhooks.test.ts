import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedSource, tradesOf, type ScriptedSource } from '../support/scripted-source.js';
import { OTHER_KEY, randomWallet, startTestServer, TEST_KEY, type TestServer } from '../support/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Webhooks (issue 24, decisions.md "Following a wallet live") through the app's route files, on
 * the scripted source with a 100 ms realtime stage and a local receiver (http and a private
 * address allowed here, WEBHOOK_ALLOW_HTTP / WEBHOOK_ALLOW_PRIVATE). The wallet's first 5
 * transactions are from 2023, before the webhook; those appended later are timed when first read,
 * so after it: only they are announced.
 */
const times = new Map<number, string>();
const timeOf = (i: number) => {
  if (i < 5) return new Date(Date.UTC(2023, 0, 1) + i * 60_000).toISOString().replace('.000Z', 'Z');
  if (!times.has(i)) times.set(i, new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'));
  return times.get(i)!;
};
let source: ScriptedSource;
let srv: TestServer;
let rx: WebhookReceiver;
beforeAll(async () => {
  source = createScriptedSource({ transactions: 5, batchSize: 5, realtimePollMs: 100, blockTimeOf: timeOf });
  rx = await startWebhookReceiver();
  srv = await startTestServer({
    sources: { sol: source },
    env: { WEBHOOK_SECRET_KEY: 'test-webhook-key-0123456789', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', MAX_WEBHOOKS_PER_ACCOUNT: '3' },
  });
}, 60_000);
afterAll(async () => {
  await srv?.close();
  await rx?.close();
});

const post = (path: string, body: unknown, key: string = TEST_KEY) =>
  srv.get(path, key, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
async function until<T>(what: () => T | undefined | false, ms = 20_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    const v = what();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}
const bodyOf = (b: string) => JSON.parse(b.replace(/:(-?\d+\.\d+)/g, ':"$1"'));

describe('webhooks', () => {
  it('announces only trades after the webhook, signed, with gapless seq, retried through an outage, metered once', async () => {
    const w = randomWallet();
    rx.received.length = 0;
    const created = await post('/v1/webhooks', { url: rx.url, wallets: [{ chain: 'sol', address: w }] });
    expect(created.status).toBe(201);
    const hook = await created.json();
    expect(hook).toMatchObject({ url: rx.url, status: 'active', wallets: [{ chain: 'sol', address: w }], pending: 0 });
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.id).toMatch(/^wh_/);
    // The history (5 transactions of 2023) is loaded for the webhook and never announced.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(rx.received).toEqual([]);

    const usage0 = (await (await srv.get('/v1/usage')).json()).trades;
    // The receiver is down for its first two attempts: each is retried (1 s, then 2 s later).
    let refusals = 2;
    rx.respond = () => (refusals-- > 0 ? 503 : 204);
    source.append(1);
    await until(() => rx.received.some((r) => r.headers['webhook-id'] && refusals < 0));
    source.append(2);
    const delivered = await until(() => {
      const ok = rx.received.slice(2);
      const trades = ok.flatMap((r) => bodyOf(r.body).trades);
      return trades.length >= 3 ? ok : false;
    });
    // Every attempt is signed with the secret given at creation; retries keep the webhook-id.
    const verifier = new Webhook(hook.secret);
    for (const r of rx.received) expect(() => verifier.verify(r.body, r.headers)).not.toThrow();
    expect(rx.received[0].headers['webhook-id']).toBe(rx.received[1].headers['webhook-id']);
    expect(rx.received[1].headers['webhook-id']).toBe(rx.received[2].headers['webhook-id']);
    expect(rx.received[2].at - rx.received[1].at).toBeGreaterThanOrEqual(1_500);
    const bodies = delivered.map((r) => bodyOf(r.body));
    expect(bodies.map((b) => b.seq)).toEqual(bodies.map((_, i) => i + 1));
    expect(bodies.flatMap((b) => b.trades.map((t: { signature: string }) => t.signature))).toEqual([5, 6, 7].map((i) => tradesOf(w, i)[0].signature));
    expect(bodies[0]).toMatchObject({ chain: 'sol', wallet: w });
    // The cursor reads the history from the delivery's newest trade down.
    const back = await (await srv.get(`/v1/wallets/${w}/history?limit=2&cursor=${encodeURIComponent(bodies[0].cursor)}`)).json();
    expect(back.trades.map((t: { signature: string }) => t.signature)).toEqual([tradesOf(w, 5)[0].signature, tradesOf(w, 4)[0].signature]);
    // Metered once per account: the 3 delivered trades, and tx 4, which only the page above delivered.
    expect((await (await srv.get('/v1/usage')).json()).trades).toBe(usage0 + 3 + 1);
    const status = await (await srv.get(`/v1/webhooks/${hook.id}`)).json();
    expect(status).toMatchObject({ pending: 0, status: 'active', lastError: 'answered 503' });
  }, 60_000);

  it('rotates: both secrets sign for a while; lists, deletes, and refuses what decisions.md refuses', async () => {
    const w = randomWallet();
    rx.respond = () => 204;
    const hook = await (await post('/v1/webhooks', { url: rx.url, wallets: [{ chain: 'sol', address: w }] })).json();
    const rotated = await (await post(`/v1/webhooks/${hook.id}/rotate`, {})).json();
    expect(rotated.secret).not.toBe(hook.secret);
    rx.received.length = 0;
    source.append(1);
    const r = await until(() => rx.received.find((x) => bodyOf(x.body).wallet === w));
    expect(() => new Webhook(hook.secret).verify(r.body, r.headers)).not.toThrow();
    expect(() => new Webhook(rotated.secret).verify(r.body, r.headers)).not.toThrow();
    expect(r.headers['webhook-signature'].split(' ')).toHaveLength(2);

    const list = await (await srv.get('/v1/webhooks')).json();
    expect(list.webhooks.map((x: { id: string }) => x.id)).toContain(hook.id);
    expect(JSON.stringify(list)).not.toContain('whsec_');
    // Another account sees none of them.
    expect((await srv.get(`/v1/webhooks/${hook.id}`, OTHER_KEY)).status).toBe(404);
    expect((await srv.get(`/v1/webhooks/${hook.id}`, TEST_KEY, { method: 'DELETE' })).status).toBe(204);
    expect((await srv.get(`/v1/webhooks/${hook.id}`)).status).toBe(404);

    for (const [body, code] of [
      [{ url: 'ftp://example.com/x', wallets: [{ chain: 'sol', address: w }] }, 'invalid_parameter'],
      [{ url: 'not a url', wallets: [{ chain: 'sol', address: w }] }, 'invalid_parameter'],
      [{ url: rx.url, wallets: [] }, 'invalid_parameter'],
      [{ url: rx.url, wallets: [{ chain: 'nope', address: w }] }, 'unknown_chain'],
      [{ url: rx.url, wallets: [{ chain: 'sol', address: 'x' }] }, 'invalid_address'],
      [{ url: rx.url, wallets: Array.from({ length: 1_001 }, () => ({ chain: 'sol', address: w })) }, 'invalid_parameter'],
    ] as const) {
      const res = await post('/v1/webhooks', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect((await res.json()).code).toBe(code);
    }
    const notJson = await srv.get('/v1/webhooks', TEST_KEY, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect((await notJson.json()).code).toBe('invalid_request');
    // MAX_WEBHOOKS_PER_ACCOUNT is 3 here (the first test made one): two more, then refused.
    for (let i = 0; i < 2; i++) expect((await post('/v1/webhooks', { url: rx.url, wallets: [{ chain: 'sol', address: randomWallet() }] })).status).toBe(201);
    expect((await post('/v1/webhooks', { url: rx.url, wallets: [{ chain: 'sol', address: randomWallet() }] })).status).toBe(429);
  }, 60_000);
});

describe('webhooks without their settings', () => {
  it('refuses to create one without WEBHOOK_SECRET_KEY (501), and a private or plain-http URL by default (400)', async () => {
    const plain = await startTestServer({ sources: { sol: createScriptedSource({ transactions: 1 }) } });
    const strict = await startTestServer({ sources: { sol: createScriptedSource({ transactions: 1 }) }, env: { WEBHOOK_SECRET_KEY: 'k'.repeat(32) } });
    try {
      const body = (url: string) => ({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url, wallets: [{ chain: 'sol', address: randomWallet() }] }),
      });
      const none = await plain.get('/v1/webhooks', TEST_KEY, body('https://example.com/hook'));
      expect(none.status).toBe(501);
      expect((await none.json()).code).toBe('not_configured');
      for (const url of [
        'http://example.com/hook',
        'https://127.0.0.1/hook',
        'https://10.1.2.3/hook',
        'https://[::1]/hook',
        'https://169.254.169.254/latest',
        'https://100.64.0.1/x',
        'https://[::ffff:127.0.0.1]/x',
        'https://localhost/hook',
      ]) {
        const res = await strict.get('/v1/webhooks', TEST_KEY, body(url));
        expect(res.status, url).toBe(400);
        expect((await res.json()).code, url).toBe('invalid_parameter');
      }
    } finally {
      await plain.close();
      await strict.close();
    }
  }, 60_000);
});
