import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/server/config.js';
import { openDatabase } from '../../src/lib/server/store/database.js';
import { migrate } from '../../src/lib/server/store/migrations.js';

/**
 * The embedded store on a real directory, as the default runs it: a new directory is created
 * (initdb) by a process of its own and then opened here with the lean settings; the same data
 * opens again; a directory that cannot be created says so.
 */
const root = mkdtempSync(join(tmpdir(), 'wth-embedded-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the embedded store on disk', () => {
  it('creates a new data directory, keeps what was written, and runs with a 16 MB buffer cache', async () => {
    const dir = join(root, 'data');
    const db = await openDatabase({ dataDir: dir });
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
    await migrate(db);
    await db.exec(`INSERT INTO accounts (name) VALUES ('embedded-test')`);
    const [conf] = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
    expect(conf.shared_buffers).toBe('16MB');
    await db.close();

    const again = await openDatabase({ dataDir: dir });
    const rows = await again.query<{ name: string }>(`SELECT name FROM accounts WHERE name = 'embedded-test'`);
    expect(rows).toEqual([{ name: 'embedded-test' }]);
    await again.close();
  });

  it('fails with the directory named when it cannot be created', async () => {
    // A file where the data directory's parent should be: neither initdb nor mkdir can work.
    const blocker = join(root, 'not-a-directory');
    writeFileSync(blocker, 'x');
    chmodSync(blocker, 0o444);
    await expect(openDatabase({ dataDir: join(blocker, 'data') })).rejects.toThrow(/not-a-directory/);
  });

  it('reads PGLITE_OPTIMIZE as true or false and refuses anything else', () => {
    expect(loadConfig({}).pgliteOptimize).toBe(false);
    expect(loadConfig({ PGLITE_OPTIMIZE: 'true' }).pgliteOptimize).toBe(true);
    expect(loadConfig({ PGLITE_OPTIMIZE: ' FALSE ' }).pgliteOptimize).toBe(false);
    expect(() => loadConfig({ PGLITE_OPTIMIZE: 'yes' })).toThrow(/PGLITE_OPTIMIZE must be "true" or "false"/);
  });
});
