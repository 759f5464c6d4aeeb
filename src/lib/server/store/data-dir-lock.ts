import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryError } from '../../core/errors.js';

/**
 * The embedded store is one process's at a time: PGlite keeps the database in the process's memory
 * and writes its files as it goes, so a second process on the same directory (the key tool while
 * the server runs) neither sees the first one's writes nor is seen by it, and the two can corrupt
 * the files. A lock file in the directory names the process holding it; another process is refused
 * with that name. A holder that died (SIGKILL, a crash) leaves a lock whose process is gone: the
 * next opener takes it over.
 */
const LOCK = 'wallet-history.lock';

export interface DataDirLock {
  release(): void;
}

export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, LOCK);
  const me = JSON.stringify({ pid: process.pid, command: process.argv.slice(1, 3).join(' '), since: new Date().toISOString() });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, me);
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (holderOf(path)?.pid === process.pid) unlinkSync(path);
          } catch {
            // Gone already.
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = holderOf(path);
    if (holder && isAlive(holder.pid)) {
      throw new HistoryError(
        'config_invalid',
        `The embedded store in ${dataDir} is in use by process ${holder.pid}${holder.command ? ` (${holder.command})` : ''}` +
          `${holder.since ? ` since ${holder.since}` : ''} (lock file ${path}). One process at a time: stop it first, or use PostgreSQL (DATABASE_URL), which any number of processes share.`,
        { context: { dataDir, pid: holder.pid } },
      );
    }
    // The holder is gone: its lock is stale.
    try {
      unlinkSync(path);
    } catch {
      // Another opener took it over first: try again.
    }
  }
  throw new HistoryError('config_invalid', `Could not take the lock ${path}; another process keeps taking it.`);
}

function holderOf(path: string): { pid: number; command?: string; since?: string } | null {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; command?: unknown; since?: unknown };
    if (!Number.isSafeInteger(v.pid)) return null;
    return { pid: v.pid as number, command: typeof v.command === 'string' ? v.command : undefined, since: typeof v.since === 'string' ? v.since : undefined };
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, owned by someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
