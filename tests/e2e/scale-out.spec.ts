import { expect, test } from '@playwright/test';
import type { Trade } from '../../src/lib/core/trade.js';
import { parseStreamLine, quoteAmountLiterals, readLines, readTrade } from '../../src/lib/dashboard/ndjson.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../support/throwaway-postgres.js';
import { apiHistory } from './helpers.js';
import { API_KEY, stackEnv, startAppServer, startStack, type AppServer, type Stack } from './stack.js';

/**
 * Three instances of the built server on one PostgreSQL database (a throwaway server of the
 * test's own), behind one Solana replay RPC that counts what it is asked: they behave as one
 * service. Leases last 5 s here (LEASE_SECONDS; 30 s by default) so the take-over test is short.
 */
const LEASE_SECONDS = 5;
let pg: ThrowawayPostgres;
let stack: Stack;
let others: AppServer[] = [];
let instances: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  pg = await startThrowawayPostgres();
  const opts = { trades: 3_000, latencyMs: 30, seed: 41, env: { DATABASE_URL: pg.url, LEASE_SECONDS: String(LEASE_SECONDS) } };
  stack = await startStack(opts);
  // Started together on a database the first one just migrated: the others find it done.
  others = await Promise.all([0, 1].map(() => startAppServer(stackEnv(stack.rpcUrl, opts))));
  instances = [stack.baseUrl, ...others.map((o) => o.baseUrl)];
});

test.afterAll(async () => {
  for (const o of others) await o.stop().catch(() => {});
  await stack?.stop().catch(() => {});
  await pg?.destroy();
});

const auth = { authorization: `Bearer ${API_KEY}` };

/**
 * How many successful transactions the RPC lists for the wallet (getSignaturesForAddress, paged as
 * the source pages): the source fetches each of these once and skips the failed ones.
 */
async function signatureCount(rpcUrl: string, wallet: string): Promise<number> {
  let n = 0;
  let before: string | undefined;
  for (;;) {
    const r = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSignaturesForAddress', params: [wallet, { limit: 1000, ...(before ? { before } : {}) }] }),
    });
    const page = ((await r.json()) as { result: Array<{ signature: string; err: unknown }> }).result;
    n += page.filter((e) => e.err === null).length;
    if (page.length < 1000) return n;
    before = page.at(-1)!.signature;
  }
}

/** A page's body with its amounts kept exact (the same reading as the stream's lines). */
async function pageBody(r: Response): Promise<{ trades: Trade[]; cursor: string | null }> {
  const body = JSON.parse(quoteAmountLiterals(await r.text())) as { trades: Record<string, unknown>[]; cursor: string | null };
  return { trades: body.trades.map(readTrade), cursor: body.cursor };
}

test('three streams of one wallet on three instances: identical exact trades, every transaction fetched once', async () => {
  test.setTimeout(120_000);
  const before = stack.replay.stats.byMethod.getTransaction ?? 0;
  const [a, b, c] = await Promise.all(instances.map((url) => apiHistory(url, stack.wallet)));
  expect(a.length).toBe(stack.tradeCount);
  expect(b).toEqual(a);
  expect(c).toEqual(a);
  const keys = a.map((t) => `${t.signature}:${t.side}:${t.tokenMint}`);
  expect(new Set(keys).size).toBe(keys.length);
  // One walk among the three: each of the wallet's successful transactions was fetched once in all.
  const fetched = (stack.replay.stats.byMethod.getTransaction ?? 0) - before;
  expect(fetched).toBe(await signatureCount(stack.rpcUrl, stack.wallet));
  expect(fetched).toBeGreaterThanOrEqual(new Set(a.map((t) => t.signature)).size);
});

test('a page walk hopping across instances equals the stream', async () => {
  const stream = await apiHistory(stack.baseUrl, stack.wallet);
  const got: Trade[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const q = new URLSearchParams({ chain: 'sol', limit: '400' });
    if (cursor) q.set('cursor', cursor);
    const r = await fetch(`${instances[i % 3]}/v1/wallets/${stack.wallet}/history?${q}`, { headers: auth });
    expect(r.status).toBe(200);
    const body = await pageBody(r);
    got.push(...body.trades);
    cursor = body.cursor;
    if (!cursor) break;
  }
  expect(got).toEqual(stream);
});

test('the lease holder SIGKILLed mid-load: another instance takes the wallet over and finishes it, no gap, no duplicate', async () => {
  test.setTimeout(120_000);
  const { wallet, tradeCount } = await stack.addWallet(2_000, 43);
  // The third signature page waits until the holder is dead: it dies mid-walk, holding its lease,
  // whatever the machine's speed.
  let pages = 0;
  stack.replay.config.holdWhen = (calls) =>
    calls.some((c) => c.method === 'getSignaturesForAddress' && c.params[0] === wallet && c.params[1]?.before) && ++pages > 1;
  // The holder: the instance whose stream starts the walk.
  const holder = others[1];
  const res = await fetch(`${holder.baseUrl}/v1/wallets/${wallet}/history?chain=sol`, { headers: auth });
  const received: Trade[] = [];
  let cursor: string | null = null;
  for await (const raw of readLines(res.body!)) {
    const l = parseStreamLine(raw);
    if (l.kind === 'batch') {
      received.push(...l.trades);
      cursor = l.cursor;
    }
    if (received.length >= 200) break;
  }
  expect(received.length).toBeLessThan(tradeCount);
  // The walk has reached the held page: the holder is alive, mid-walk, with its lease.
  await expect.poll(() => stack.replay.heldCount, { timeout: 30_000 }).toBeGreaterThan(0);
  await holder.kill();
  const killedAt = Date.now();
  stack.replay.config.holdWhen = undefined;
  stack.replay.releaseHeld();
  // The client resumes on another instance from the last cursor it read whole, to the end.
  received.push(...(await apiHistory(stack.baseUrl, wallet, 'sol', cursor)));
  const finishedMs = Date.now() - killedAt;
  // Within the lease (the dead holder's lease runs out) plus the rest of the walk.
  expect(finishedMs).toBeLessThan((LEASE_SECONDS + 30) * 1000);
  const keys = received.map((t) => `${t.signature}:${t.side}:${t.tokenMint}`);
  expect(new Set(keys).size).toBe(keys.length);
  expect(received.length).toBe(tradeCount);
  // The same trades another instance serves from the store, in the same order.
  expect(received).toEqual(await apiHistory(others[0].baseUrl, wallet));
  // The take-over shows in the surviving instance's metrics.
  const metrics = (await Promise.all([stack.baseUrl, others[0].baseUrl].map(async (u) => (await fetch(`${u}/metrics`)).text()))).join('\n');
  expect(metrics).toMatch(/^wth_leases_taken_over_total [1-9]/m);
  await holder.restart();
});

test('ROLE=api never walks: its streams and pages are served by a ROLE=worker instance through the database', async () => {
  test.setTimeout(120_000);
  // Only the api and the worker from here on: the instances of the tests above stop.
  for (const a of [stack.app, ...others]) await a.signal('SIGTERM');
  const env = stackEnv(stack.rpcUrl, { env: { DATABASE_URL: pg.url, LEASE_SECONDS: String(LEASE_SECONDS) } });
  const api = await startAppServer({ ...env, ROLE: 'api' });
  const worker = await startAppServer({ ...env, ROLE: 'worker' });
  try {
    expect(api.logs.join('')).toContain('Role: api');
    // The worker answers its health and metrics only.
    expect((await fetch(`${worker.baseUrl}/healthz`)).status).toBe(200);
    const refused = await fetch(`${worker.baseUrl}/v1/chains`);
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { code: string }).code).toBe('not_found');

    const { wallet, tradeCount } = await stack.addWallet(1_500, 47);
    const streamed = await apiHistory(api.baseUrl, wallet);
    expect(streamed.length).toBe(tradeCount);
    // A page of a wallet nobody asked for before: the api records the need, the worker fills it.
    const fresh = await stack.addWallet(600, 53);
    const page = await fetch(`${api.baseUrl}/v1/wallets/${fresh.wallet}/history?chain=sol&limit=100`, { headers: auth });
    expect(page.status).toBe(200);
    expect((await pageBody(page)).trades.length).toBe(100);

    const apiMetrics = await (await fetch(`${api.baseUrl}/metrics`)).text();
    const workerMetrics = await (await fetch(`${worker.baseUrl}/metrics`)).text();
    const rpc = (m: string) => Number(/^wth_rpc_requests_total\{chain="sol"\} (\d+)$/m.exec(m)?.[1] ?? 0);
    expect(rpc(apiMetrics)).toBe(0);
    expect(rpc(workerMetrics)).toBeGreaterThan(0);
    expect(Number(/^wth_trades_stored_total (\d+)$/m.exec(apiMetrics)?.[1] ?? 0)).toBe(0);
  } finally {
    await api.stop();
    await worker.stop();
  }
});
