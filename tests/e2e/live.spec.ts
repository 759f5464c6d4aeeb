import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { API_KEY, startStack, type Stack } from './stack.js';
import { ndjsonLines } from '../support/ndjson-lines.js';

/**
 * Live (issue 24) on the built server over the Solana replay, which gains transactions while the
 * server runs (`addNewerTrades`): a follow stream gets each new trade once, and a client that
 * loses its stream to a kill -9 resumes from its last liveCursor with nothing lost or repeated;
 * webhook deliveries pending when the server is killed all reach the receiver after the restart,
 * with no gap in seq. The Solana stage is the 10 s safety poll (the replay has no WebSocket), so
 * each wait here is up to about 12 s.
 */
let stack: Stack;
let rx: WebhookReceiver;
const auth = { authorization: `Bearer ${API_KEY}` };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  rx = await startWebhookReceiver();
  stack = await startStack({
    trades: 120,
    env: { WEBHOOK_SECRET_KEY: 'e2e-webhook-key-0123456789abcdef', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', FOLLOW_MAX_SECONDS: '300' },
  });
});

test.afterAll(async () => {
  await stack?.stop().catch(() => {});
  await rx?.close().catch(() => {});
});

interface Line {
  trades?: { signature: string; side: string; tokenMint: string }[];
  complete?: boolean;
  live?: boolean;
  liveCursor?: string;
}

/** Reads a stream's lines until `enough` says so or the connection ends; returns them. */
async function readUntil(res: Response, enough: (lines: Line[]) => boolean): Promise<Line[]> {
  const lines: Line[] = [];
  try {
    for await (const raw of ndjsonLines(res)) {
      lines.push(JSON.parse(raw.replace(/:(-?\d+\.\d+)/g, ':"$1"')));
      if (enough(lines)) break;
    }
  } catch {
    // The server died under the stream: the lines read whole are what the client has.
  }
  return lines;
}
/** Live trades, each as transaction, side and token (a swap's two legs share a signature). */
const liveSigs = (lines: Line[]) => lines.filter((l) => l.live).flatMap((l) => (l.trades ?? []).map((t) => `${t.signature}/${t.side}/${t.tokenMint}`));

test('a follow stream gets each new trade once; after a kill -9 the last liveCursor resumes with nothing lost or repeated', async () => {
  test.setTimeout(120_000);
  const url = `${stack.baseUrl}/v1/wallets/${stack.wallet}/history?follow=true`;
  const res = await fetch(url, { headers: auth });
  expect(res.status).toBe(200);
  let added = false;
  const lines = await readUntil(res, (ls) => {
    if (!added && ls.some((l) => l.complete === true)) {
      added = true;
      void stack.addNewerTrades(3, 301);
    }
    return liveSigs(ls).length >= 3;
  });
  const final = lines.find((l) => l.complete === true)!;
  expect(final.liveCursor).toBeTruthy();
  const first = liveSigs(lines);
  expect(first).toHaveLength(3);
  expect(new Set(first).size).toBe(3);
  const cursor = lines.filter((l) => l.liveCursor).at(-1)!.liveCursor!;

  // A stream open when the server dies; two trades made while it is down.
  const open = fetch(url.replace('follow=true', `follow=true&liveCursor=${encodeURIComponent(cursor)}`), { headers: auth });
  const during = readUntil(await open, () => false);
  await stack.app.kill();
  await during;
  await stack.addNewerTrades(2, 302);
  await stack.app.restart();
  const resumed = await readUntil(
    await fetch(url.replace('follow=true', `follow=true&liveCursor=${encodeURIComponent(cursor)}`), { headers: auth }),
    (ls) => liveSigs(ls).length >= 2,
  );
  const second = liveSigs(resumed);
  expect(second).toHaveLength(2);
  expect(second.some((s) => first.includes(s))).toBe(false);
});

test('webhook deliveries pending when the server is killed reach the receiver after the restart, seq without a gap', async () => {
  test.setTimeout(120_000);
  rx.received.length = 0;
  rx.respond = () => 503;
  const created = await fetch(`${stack.baseUrl}/v1/webhooks`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ url: rx.url, wallets: [{ chain: 'sol', address: stack.wallet }] }),
  });
  expect(created.status).toBe(201);
  const hook = await created.json();
  const now = () => Math.floor(Date.now() / 1000);
  await stack.addNewerTrades(4, 303, now());
  // The receiver refuses: the deliveries stay pending, attempted again and again.
  await expect.poll(() => rx.received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  await stack.app.kill();
  await stack.addNewerTrades(2, 304, now() + 60);
  rx.respond = () => 204;
  await stack.app.restart();
  const delivered = () => rx.received.map((r) => JSON.parse(r.body.replace(/:(-?\d+\.\d+)/g, ':"$1"')));
  // Every attempt after the restart succeeds: wait for six trades announced.
  await expect
    .poll(
      () =>
        new Set(
          delivered().flatMap((b) => b.trades.map((t: { signature: string; side: string; tokenMint: string }) => `${t.signature}/${t.side}/${t.tokenMint}`)),
        ).size,
      {
        timeout: 60_000,
      },
    )
    .toBeGreaterThanOrEqual(6);
  const verifier = new Webhook(hook.secret);
  for (const r of rx.received) expect(() => verifier.verify(r.body, r.headers)).not.toThrow();
  const seqs = [...new Set(delivered().map((b) => b.seq as number))].sort((a, b) => a - b);
  expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  const status = async () => (await fetch(`${stack.baseUrl}/v1/webhooks/${hook.id}`, { headers: auth })).json();
  await expect.poll(async () => (await status()).pending, { timeout: 10_000 }).toBe(0);
  expect(await status()).toMatchObject({ status: 'active' });
});
