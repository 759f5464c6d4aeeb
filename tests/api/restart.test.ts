import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { createScriptedSource } from '../support/scripted-source.js';
import { randomWallet, readStream, TEST_KEY } from '../support/test-server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'wth-restart-'));
const children: ChildProcess[] = [];

async function startProcess(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/serve-scripted.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, API_KEYS: `alice:${TEST_KEY}`, CURSOR_SECRET: 'restart-secret', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url: JSON.parse(line).url, child };
}

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a restart mid-load', () => {
  it('resumes from the stored state after the process is killed, with nothing lost or repeated', async () => {
    const env = { SCRIPT_TRANSACTIONS: '300', SCRIPT_BATCH: '10', SCRIPT_DELAY_MS: '100', STREAM_MAX_SECONDS: '1' };
    const w = randomWallet();
    const auth = { authorization: `Bearer ${TEST_KEY}` };
    const a = await startProcess(env);
    const first = await readStream(await fetch(`${a.url}/v1/wallets/${w}/history`, { headers: auth }));
    expect(first.final.complete).toBe(false);
    // Let the background load store a few more batches, then kill the process without warning.
    await new Promise((r) => setTimeout(r, 700));
    const statsA = await (await fetch(`${a.url}/test/stats`)).json();
    a.child.kill('SIGKILL');
    await new Promise((r) => a.child.once('exit', r));

    const b = await startProcess({ ...env, SCRIPT_DELAY_MS: '5' });
    // Without any request, the new process resumes the load a stream had asked for, from the stored tail.
    let statsB: any;
    for (let i = 0; i < 100; i++) {
      statsB = await (await fetch(`${b.url}/test/stats`)).json();
      if (statsB.walks > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(statsB.starts[0]).toBeDefined();
    expect(Number(statsB.starts[0])).toBeLessThan(300);
    // Resume the stream from the cursor the first process gave: the rest, exactly once each.
    let cursor = first.final.cursor;
    const all = first.batches.flatMap((x) => x.trades);
    for (let i = 0; i < 20 && cursor; i++) {
      const r = await readStream(await fetch(`${b.url}/v1/wallets/${w}/history?cursor=${encodeURIComponent(cursor)}`, { headers: auth }));
      all.push(...r.batches.flatMap((x) => x.trades));
      cursor = r.final.complete ? null : r.final.cursor;
    }
    const expected = createScriptedSource({ transactions: 300 }).expected(w);
    expect(all.map((t) => `${t.signature}/${t.side}`)).toEqual(expected.map((t) => `${t.signature}/${t.side}`));
    statsB = await (await fetch(`${b.url}/test/stats`)).json();
    // The second process fetched only what the first had not stored (at most the batch in flight again).
    expect(statsA.tradesYielded + statsB.tradesYielded).toBeLessThanOrEqual(expected.length + 15);
    expect(statsB.tradesYielded).toBeLessThan(expected.length);
  }, 60_000);
});
