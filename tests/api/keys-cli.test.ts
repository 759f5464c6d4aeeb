import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/lib/server/store/database.js';
import { migrate } from '../../src/lib/server/store/migrations.js';
import { findAccountByKey } from '../../src/lib/server/store/accounts.js';
import { createTestDatabase, randomWallet, startTestServer } from '../support/test-server.js';
import { createScriptedSource } from '../support/scripted-source.js';

const dir = mkdtempSync(join(tmpdir(), 'wth-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', ...args], { env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' }, encoding: 'utf8' });

describe('the keys command-line tool', () => {
  it('creates (printing the key once), lists and revokes keys, and rejects bad usage', () => {
    const created = run('create', 'alice');
    expect(created.status).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^wth_[A-Za-z0-9_-]{43}$/);
    const listed = run('list');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain('alice');
    expect(listed.stdout).toContain(key.slice(0, 8));
    // The full key is never shown again.
    expect(listed.stdout).not.toContain(key);
    const id = listed.stdout.split('\n')[1].split('\t')[0];
    expect(run('revoke', id).status).toBe(0);
    expect(run('list').stdout.split('\n')[1]).toMatch(/\t\d{4}-\d\d-\d\dT/);
    expect(run('revoke', id).status).toBe(1);
    expect(run().status).toBe(2);
    expect(run('create').status).toBe(2);
    expect(run('create', 'bad name!').status).toBe(2);
  });

  it('refuses, naming the process, while another process holds the embedded store; takes over a lock its holder left dying', async () => {
    const held = mkdtempSync(join(tmpdir(), 'wth-keys-held-'));
    try {
      // This process opens the store as a running server would.
      const db = await openDatabase({ dataDir: held });
      await migrate(db);
      const refused = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'create', 'bob'], {
        env: { ...process.env, DATA_DIR: held, DATABASE_URL: '' },
        encoding: 'utf8',
      });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`is in use by process ${process.pid}`);
      expect(refused.stdout).toBe('');
      await db.close();
      // A holder killed where it stood leaves its lock: a process that no longer exists.
      const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
      writeFileSync(join(held, 'wallet-history.lock'), JSON.stringify({ pid: Number(dead.stdout.trim()), command: 'build' }));
      const created = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'create', 'bob'], {
        env: { ...process.env, DATA_DIR: held, DATABASE_URL: '' },
        encoding: 'utf8',
      });
      expect(created.status).toBe(0);
      // A process id that lives again in another process (a container's process 1 after a restart):
      // a live id that started at another time than the lock says is not its holder.
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      writeFileSync(join(held, 'wallet-history.lock'), JSON.stringify({ pid: process.pid, command: 'build', boot, start: '1' }));
      const reused = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'list'], {
        env: { ...process.env, DATA_DIR: held, DATABASE_URL: '' },
        encoding: 'utf8',
      });
      expect(reused.status, reused.stderr).toBe(0);
      expect(reused.stdout).toContain('bob');
      const again = await openDatabase({ dataDir: held });
      try {
        expect(await findAccountByKey(again, created.stdout.trim())).toMatchObject({ account: 'bob' });
      } finally {
        await again.close();
      }
    } finally {
      rmSync(held, { recursive: true, force: true });
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL, a key created while the server runs works at once', async () => {
    const pgdb = await createTestDatabase();
    const srv = await startTestServer({ sources: { sol: createScriptedSource({ transactions: 5 }) }, env: { DATABASE_URL: pgdb.url } });
    try {
      const created = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'create', 'carol'], {
        env: { ...process.env, DATABASE_URL: pgdb.url },
        encoding: 'utf8',
      });
      expect(created.status, created.stderr).toBe(0);
      const res = await srv.get(`/v1/wallets/${randomWallet()}/history?limit=5`, created.stdout.trim());
      expect(res.status).toBe(200);
    } finally {
      await srv.close();
      await pgdb.drop();
    }
  });
});
