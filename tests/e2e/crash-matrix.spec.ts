import { expect, test } from '@playwright/test';
import type { Trade } from '../../src/lib/core/trade.js';
import { parseStreamLine } from '../../src/lib/dashboard/ndjson.js';
import { createPrng } from '../support/sol-replay/synth.js';
import { apiHistory } from './helpers.js';
import { API_KEY, startAppServer, startStack, type AppServer, type Stack } from './stack.js';
import { ndjsonLines } from '../support/ndjson-lines.js';

/**
 * The crash matrix: the built server on its embedded store, SIGKILLed at twenty points of one
 * wallet's load drawn from a fixed seed (while it fetches, writes a batch, meters a line or
 * writes to the socket: no handler runs), and started again on the same data each time. A client
 * that resumes from the last cursor it read whole must end with exactly the trades a server that
 * never crashed serves, in order, none twice, and the account's usage must be what it received.
 */
const SEED = 20261124;
const KILLS = 20;

let stack: Stack;
let reference: AppServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // 3,000 trades behind 100 ms per RPC answer, read 10 transactions per request and 2 requests at
  // a time (about 200 trades/s, a 15 s walk: at the defaults the whole walk took under a second
  // and every kill after the third found it finished). Kills are placed by progress, not by the
  // clock (timed kills landed after the walk on an idle CI machine, before the first page on a
  // slow one): each round reads 0-120 trades, then the server dies 0-300 ms later.
  stack = await startStack({ trades: 3_000, latencyMs: 100, seed: 31, env: { RPC_BATCH_SIZE_SOL: '10', RPC_MAX_IN_FLIGHT_SOL: '2' } });
  reference = await startAppServer({ RPC_URL_SOL: stack.rpcUrl, CURSOR_SECRET: 'e2e-crash-reference-0123456789abcdef', DECODE_THREADS: '1' });
});

test.afterAll(async () => {
  await reference?.stop().catch(() => {});
  await stack?.stop().catch(() => {});
});

interface Read {
  trades: Trade[];
  cursor: string | null;
  complete: boolean;
}

/** Where a round kills the server: once `afterTrades` were read in the round, `delayMs` later. */
interface KillPoint {
  afterTrades: number;
  delayMs: number;
}

/**
 * One history request from `cursor`: every whole line is taken (a batch's trades and cursor), a
 * line cut by the crash is not. With `kill`, the server is SIGKILLed at that point (or when the
 * stream ends first); the read then ends with the connection.
 */
async function readOnce(stack: Stack, cursor: string | null, kill?: KillPoint): Promise<Read & { killed: Promise<void> | null }> {
  const q = new URLSearchParams({ chain: 'sol' });
  if (cursor) q.set('cursor', cursor);
  const out: Read = { trades: [], cursor, complete: false };
  let killed: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = () => {
    if (kill && !timer) timer = setTimeout(() => (killed = stack.app.kill()), kill.delayMs);
  };
  if (kill?.afterTrades === 0) arm();
  try {
    const res = await fetch(`${stack.baseUrl}/v1/wallets/${stack.wallet}/history?${q}`, { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(res.status).toBe(200);
    for await (const raw of ndjsonLines(res)) {
      if (!raw.trim()) continue;
      const line = parseStreamLine(raw);
      if (line.kind === 'batch') {
        out.trades.push(...line.trades);
        out.cursor = line.cursor;
        if (kill && out.trades.length >= kill.afterTrades) arm();
      } else if (line.complete) out.complete = true;
      else if (line.cursor) out.cursor = line.cursor;
    }
  } catch (e) {
    // The connection died with the server (reset or refused): what was read whole is kept.
    if (!kill) throw e;
  }
  // A stream that ended before its kill point: the kill comes now (every round restarts).
  if (kill && !timer) killed = stack.app.kill();
  else if (timer && !killed) {
    clearTimeout(timer);
    killed = stack.app.kill();
  }
  return { ...out, killed };
}

test('SIGKILL at twenty points of a load: the resumed stream equals a clean run, usage equals what was received', async () => {
  test.setTimeout(300_000);
  const expectedP = apiHistory(reference.baseUrl, stack.wallet);
  const rng = createPrng(SEED);
  const received: Trade[] = [];
  let cursor: string | null = null;
  let complete = false;
  const log: string[] = [];
  for (let k = 0; k < KILLS; k++) {
    // 0-120 trades into the round, then 0-300 ms: during a fetch, a batch's write, metering or a
    // line's write.
    const point: KillPoint = { afterTrades: Math.floor(rng() * 121), delayMs: Math.floor(rng() * 301) };
    const r = await readOnce(stack, cursor, point);
    received.push(...r.trades);
    cursor = r.cursor;
    complete ||= r.complete;
    await r.killed;
    log.push(
      `kill ${k + 1}: after ${point.afterTrades} trades + ${point.delayMs} ms, ${r.trades.length} trades read, ${received.length} in all${r.complete ? ', stream complete' : ''}`,
    );
    await stack.app.restart();
  }
  console.log(`crash matrix, seed ${SEED}:\n  ${log.join('\n  ')}`);
  while (!complete) {
    const r = await readOnce(stack, cursor);
    received.push(...r.trades);
    cursor = r.cursor;
    complete = r.complete;
  }

  const expected = await expectedP;
  expect(expected.length).toBeGreaterThan(2_000);
  // The kills landed while the walk was still going (the load outlasts the kill windows).
  expect(log.filter((l) => l.includes('stream complete')).length).toBeLessThanOrEqual(3);
  expect(received.length).toBe(expected.length);
  expect(received).toEqual(expected);
  const usage = (await (await fetch(`${stack.baseUrl}/v1/usage`, { headers: { authorization: `Bearer ${API_KEY}` } })).json()) as { trades: number };
  expect(usage.trades).toBe(expected.length);
});
