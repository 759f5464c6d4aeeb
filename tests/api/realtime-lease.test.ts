import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainSource, RealtimeParameters } from '../../src/lib/core/chain-source.js';
import { readLines, type Line } from '../support/follow-lines.js';
import { createScriptedSource, tradesOf } from '../support/scripted-source.js';
import { createTestDatabase, randomWallet, startTestServer, type TestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

/**
 * One realtime stage per chain across instances (issue 24): two walking instances and an API
 * instance on one PostgreSQL database, followers on all three. Exactly one instance runs the Solana
 * stage, over every instance's followed wallets; when it goes, the other walking instance takes
 * the stage over and the followers still get their trades. The stages are counted where they run:
 * each walking instance's source wraps the scripted 150 ms stage with a counter of its own.
 */
/** Long enough that a take-over within the test comes from the hand-back's announcement, not from expiry. */
const LEASE_SECONDS = 30;
let db: { url: string; drop(): Promise<void> };
const source = createScriptedSource({ transactions: 4, batchSize: 4, realtimePollMs: 150 });
/** Stages running now and every wallet list they polled, per instance. */
const stats = { a: { running: 0, seen: new Set<string>() }, b: { running: 0, seen: new Set<string>() } };

function counted(name: 'a' | 'b'): ChainSource {
  const inner = source.realtime!;
  return Object.assign(Object.create(source) as ChainSource, {
    async realtime(p: RealtimeParameters) {
      stats[name].running++;
      try {
        await inner({
          ...p,
          wallets: () => {
            const list = p.wallets();
            for (const w of list) stats[name].seen.add(w);
            return list;
          },
        });
      } finally {
        stats[name].running--;
      }
    },
  });
}

let a: TestServer;
let b: TestServer;
let api: TestServer;
const env = (role: string) => ({ DATABASE_URL: db.url, ROLE: role, LEASE_SECONDS: String(LEASE_SECONDS), FOLLOW_MAX_SECONDS: '40' });

beforeAll(async () => {
  db = await createTestDatabase();
  a = await startTestServer({ sources: { sol: counted('a') }, env: env('all') });
  b = await startTestServer({ sources: { sol: counted('b') }, env: env('all') });
  api = await startTestServer({ sources: { sol: createScriptedSource({ transactions: 0 }) }, env: env('api') });
}, 60_000);
/** Servers the test closed itself (the stage's holder going away). */
const closed = new Set<TestServer>();
afterAll(async () => {
  for (const s of [api, b, a]) if (s && !closed.has(s)) await s.close();
  await db?.drop();
});

/** The instances' `wth_realtime_stages` gauges for sol. */
async function stagesOf(...servers: TestServer[]): Promise<number[]> {
  return Promise.all(
    servers.map(async (s) => {
      const text = await (await s.get('/metrics', null)).text();
      return text.includes('wth_realtime_stages{chain="sol"} 1') ? 1 : 0;
    }),
  );
}

/** A follow stream read in the background: its lines so far, and a way to stop reading. */
function follow(server: TestServer, wallet: string) {
  const lines: Line[] = [];
  let stop = false;
  const done = server
    .get(`/v1/wallets/${wallet}/history?follow=true`)
    .then((res) => readLines(res, (l) => (lines.push(l), stop)))
    .catch(() => lines);
  return {
    lines,
    complete: () => lines.some((l) => l.complete === true),
    liveSigs: () => lines.filter((l) => l.live).flatMap((l) => (l.trades ?? []).map((t) => t.signature)),
    async end() {
      stop = true;
      await done;
    },
  };
}

describe('one realtime stage per chain across instances', () => {
  it('runs the chain’s stage on one instance for every instance’s followers, and hands it over when that instance goes', async () => {
    const [wa, wb, wc] = [randomWallet(), randomWallet(), randomWallet()];
    const fa = follow(a, wa);
    const fb = follow(b, wb);
    const fc = follow(api, wc);
    await until('the three histories', () => fa.complete() && fb.complete() && fc.complete(), 30_000);
    await until('one stage polling all three wallets', () => {
      const seen = stats.a.running ? stats.a.seen : stats.b.seen;
      return [wa, wb, wc].every((w) => seen.has(w));
    });
    // One stage among them: the gauges agree with where the stage runs.
    expect(stats.a.running + stats.b.running).toBe(1);
    const [ga, gb, gapi] = await stagesOf(a, b, api);
    expect([ga, gb, gapi]).toEqual([stats.a.running, stats.b.running, 0]);

    // Each follower gets its wallet's new trade (tx 4), whichever instance it is on.
    source.append(1);
    await until('tx 4 on every stream', () => [fa, fb, fc].every((f) => f.liveSigs().length >= 1));
    expect(fa.liveSigs()).toEqual([tradesOf(wa, 4)[0].signature]);
    expect(fb.liveSigs()).toEqual([tradesOf(wb, 4)[0].signature]);
    expect(fc.liveSigs()).toEqual([tradesOf(wc, 4)[0].signature]);

    // The holder goes (A if it has the stage; else B, after moving B's follower over to A).
    const holderIsA = stats.a.running === 1;
    const survivor = holderIsA ? b : a;
    const survivorStats = holderIsA ? stats.b : stats.a;
    let moved: ReturnType<typeof follow> | null = null;
    if (!holderIsA) {
      await fb.end();
      moved = follow(a, wb);
      await until('the moved follower’s history', () => moved!.complete(), 30_000);
    }
    survivorStats.seen.clear();
    const holder = holderIsA ? a : b;
    closed.add(holder);
    await holder.close();
    // Handed back on close and announced: taken within a beat, not a lease later.
    await until('the stage on the other instance', () => survivorStats.running === 1, 15_000);
    expect(stats.a.running + stats.b.running).toBe(1);
    const left = holderIsA ? [fb, fc] : [moved!, fc];
    const leftWallets = holderIsA ? [wb, wc] : [wb, wc];
    await until('the survivor polling the remaining wallets', () => leftWallets.every((w) => survivorStats.seen.has(w)));
    expect(await stagesOf(survivor, api)).toEqual([1, 0]);

    source.append(1);
    await until('tx 5 on the remaining streams', () => left.every((f) => f.liveSigs().includes(tradesOf(leftWallets[left.indexOf(f)], 5)[0].signature)));

    // Nobody follows: the stage stops and the gauge says so.
    await Promise.all([fa, fb, fc, ...(moved ? [moved] : [])].map((f) => f.end()));
    await until('no stage once nobody follows', async () => survivorStats.running === 0 && (await stagesOf(survivor)).every((g) => g === 0), 20_000);
  }, 90_000);
});
