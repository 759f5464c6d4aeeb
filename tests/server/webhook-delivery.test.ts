import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainRegistry } from '../../src/lib/chains/registry.js';
import { createCursorCodec } from '../../src/lib/server/api/cursor.js';
import type { Database } from '../../src/lib/server/store/database.js';
import { createKey, revokeKey } from '../../src/lib/server/store/accounts.js';
import { storeBatch } from '../../src/lib/server/store/trades.js';
import { getOrCreateWallet } from '../../src/lib/server/store/wallets.js';
import { claimDeliveries, createWebhook } from '../../src/lib/server/store/webhooks.js';
import { isRefusedAddress } from '../../src/lib/server/webhooks/address-policy.js';
import { deliver } from '../../src/lib/server/webhooks/deliver.js';
import { retryPlan, startWebhookDispatcher } from '../../src/lib/server/webhooks/dispatcher.js';
import { createSecretSealer, newWebhookSecret } from '../../src/lib/server/webhooks/secrets.js';
import { tradesOf } from '../support/scripted-source.js';
import { storeForSuite } from '../support/suite-store.js';
import { randomWallet } from '../support/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Webhook delivery below the API (issue 24): one attempt's SSRF rules, the retry plan, and the
 * outbox sent by three senders on one PostgreSQL database (each delivery by one of them, in seq
 * order per webhook), including a sender that dies holding a claim.
 */
let rx: WebhookReceiver;
beforeAll(async () => {
  rx = await startWebhookReceiver();
});
afterAll(() => rx?.close());

const open = { allowHttp: true, allowPrivate: true, timeoutMs: 1_000 };
const secret = newWebhookSecret();

describe('one attempt', () => {
  it('signs with the Standard Webhooks scheme and succeeds on 2xx only; a redirect is not followed', async () => {
    rx.received.length = 0;
    rx.respond = () => 200;
    expect(await deliver({ url: rx.url, id: 'msg_1', body: '{"a":1}', secrets: [secret] }, open)).toEqual({ ok: true, status: 200 });
    const r = rx.received[0];
    expect(new Webhook(secret).verify(r.body, r.headers)).toEqual({ a: 1 });
    expect(r.headers['webhook-id']).toBe('msg_1');
    rx.respond = () => 302;
    expect(await deliver({ url: rx.url, id: 'msg_2', body: '{}', secrets: [secret] }, open)).toEqual({
      ok: false,
      error: 'answered 302 (redirects are not followed)',
    });
    // The redirect's target was never asked.
    expect(rx.received.map((x) => x.headers['webhook-id'])).toEqual(['msg_1', 'msg_2']);
    rx.respond = () => 500;
    expect(await deliver({ url: rx.url, id: 'msg_3', body: '{}', secrets: [secret] }, open)).toEqual({ ok: false, error: 'answered 500' });
  });

  it('gives up on a receiver that never answers, at the timeout', async () => {
    rx.respond = () => 'hang';
    const t0 = Date.now();
    expect(await deliver({ url: rx.url, id: 'msg_4', body: '{}', secrets: [secret] }, { ...open, timeoutMs: 300 })).toEqual({
      ok: false,
      error: 'no answer within 0.3 s',
    });
    // Given up at its 0.3 s, not left hanging (well under the 10 s a loaded machine could add).
    expect(Date.now() - t0).toBeLessThan(10_000);
    rx.respond = () => 204;
  });

  it('refuses a name that resolves to a private address at the attempt (DNS rebinding), and connects to the address it checked', async () => {
    const port = new URL(rx.url).port;
    const url = `http://hooks.example:${port}/hook`;
    // At registration the name was public; now it answers a private address: refused, nothing sent.
    let answers = [['93.184.215.14'], ['10.0.0.7']];
    const lookup = async () => answers.shift() ?? ['127.0.0.1'];
    rx.received.length = 0;
    expect(await deliver({ url, id: 'm', body: '{}', secrets: [secret] }, { allowHttp: true, allowPrivate: false, lookup: async () => ['10.0.0.7'] })).toEqual({
      ok: false,
      error: 'hooks.example resolves to a refused address range',
    });
    expect(rx.received).toEqual([]);
    // Allowed private: the one lookup's address is the one connected to (the receiver on 127.0.0.1), with the URL's Host.
    answers = [['127.0.0.1']];
    expect(await deliver({ url, id: 'm2', body: '{}', secrets: [secret] }, { allowHttp: true, allowPrivate: true, lookup })).toMatchObject({ ok: true });
    expect(rx.received[0].headers.host).toBe(`hooks.example:${port}`);
    expect(await deliver({ url: 'http://x.example/', id: 'm', body: '{}', secrets: [secret] }, { allowHttp: false, allowPrivate: true, lookup })).toEqual({
      ok: false,
      error: 'url must be https',
    });
  });

  it('knows the refused ranges', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.1.1',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.1.1',
      '224.0.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      'ff02::1',
      'nonsense',
    ]) {
      expect(isRefusedAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '93.184.215.14', '2606:4700::1111', '172.32.0.1', '100.128.0.1']) expect(isRefusedAddress(ip), ip).toBe(false);
  });

  it('retries from 1 s, doubling, capped at a minute in the first hour and 15 min after; failing after 24 h', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryPlan(n, 0).delayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    expect(retryPlan(12, 2 * 3_600_000)).toEqual({ delayMs: 900_000, failing: false });
    expect(retryPlan(40, 24 * 3_600_000).failing).toBe(true);
  });
});

describe('the outbox on PostgreSQL, three senders', () => {
  const store = storeForSuite('postgres');
  let db: Database;
  beforeAll(() => {
    db = store();
  });

  it('sends each delivery once, in seq order per webhook, and resends one whose sender died holding it', async () => {
    rx.received.length = 0;
    rx.respond = () => 204;
    const sealer = createSecretSealer('k');
    const chains = createChainRegistry({ rpcUrls: {} });
    const cursors = createCursorCodec('s');
    // An account with a live key (an account whose keys are all revoked has its webhooks paused).
    const key = await createKey(db, 'hooks');
    const account = (await db.query<{ id: number }>(`SELECT id FROM accounts WHERE name = 'hooks'`))[0].id;
    // Two webhooks on two wallets; 12 batches each, stored now: 24 deliveries.
    const wallets = [randomWallet(), randomWallet()];
    const states = await Promise.all(wallets.map((w) => getOrCreateWallet(db, 'sol', w)));
    for (const [i, s] of states.entries()) {
      await createWebhook(db, {
        id: `wh_t${i}_${Date.now()}`,
        accountId: account,
        url: rx.url,
        secretEnc: sealer.seal(secret),
        wallets: [{ id: s.id, chain: 'sol', address: wallets[i] }],
        max: 20,
      });
    }
    const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    for (let b = 0; b < 12; b++) {
      for (const [i, s] of states.entries())
        await storeBatch(
          db,
          s,
          tradesOf(wallets[i], b).map((t) => ({ ...t, blockTime: now() })),
        );
    }
    // A sender that claims the first delivery of one webhook and dies (never settles it).
    const dead = await claimDeliveries(db, 1, 1_500);
    expect(dead).toHaveLength(1);
    const senders = [0, 1, 2].map(() =>
      startWebhookDispatcher({ db, chains, cursors, sealer, delivery: { allowHttp: true, allowPrivate: true }, pollMs: 100, batch: 4 }),
    );
    try {
      for (const end = Date.now() + 20_000; rx.received.length < 24 && Date.now() < end;) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      await Promise.all(senders.map((s) => s.close()));
    }
    const ids = rx.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(24);
    expect(ids).toHaveLength(24);
    // Per webhook, seq 1..12 in order, the dead sender's delivery first (after its claim ran out).
    for (const [i, w] of wallets.entries()) {
      const seqs = rx.received
        .map((r) => JSON.parse(r.body.replace(/:(-?\d+\.\d+)/g, ':"$1"')))
        .filter((b) => b.wallet === w)
        .map((b) => b.seq);
      expect(seqs, `webhook ${i}`).toEqual(Array.from({ length: 12 }, (_, k) => k + 1));
    }
    expect(ids).toContain(`msg_${dead[0].webhookId}_1`);

    // The account's only key revoked: its webhooks pause, the deliveries stay pending.
    await revokeKey(db, String(key.id));
    await storeBatch(
      db,
      states[0],
      tradesOf(wallets[0], 20).map((t) => ({ ...t, blockTime: now() })),
    );
    expect(await claimDeliveries(db, 10, 1_000)).toEqual([]);
    expect(Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE delivered_at IS NULL'))[0].n)).toBe(1);
    await createKey(db, 'hooks');
    expect(await claimDeliveries(db, 10, 1_000)).toHaveLength(1);
  }, 60_000);
});
