import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryError } from '../../core/errors.js';

/**
 * The embedded store is one process's at a time: PGlite keeps the database in the process's memory
 * and writes its files as it goes, so a second process on the same directory (the key tool while
 * the server runs) neither sees the first one's writes nor is seen by it, and the two can corrupt
 * the files. A lock file in the directory names the process holding it; another process is refused
 * with that name. A holder that died (SIGKILL, a crash) leaves a lock whose process is gone: the
 * next opener takes it over. A process id alone is not proof of life: in a container the server is
 * often process 1 at every start, so the lock also records when its process started (Linux:
 * /proc/<pid>/stat, with the boot id), and a live process id that started at another time is
 * another process.
 */
const LOCK = 'wallet-history.lock';
/** Directories this process holds: a second open in the same process is refused too. */
const held = new Set<string>();

export interface DataDirLock {
  release(): void;
}

export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, LOCK);
  if (held.has(path)) throw new HistoryError('config_invalid', `The embedded store in ${dataDir} is already open in this process.`, { context: { dataDir } });
  const token = randomBytes(8).toString('hex');
  const me = JSON.stringify({
    pid: process.pid,
    command: process.argv.slice(1, 3).join(' '),
    since: new Date().toISOString(),
    ...processStart(process.pid),
    token,
  });
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written whole under another name, then linked into place: the lock appears complete or not at all.
    const tmp = `${path}.${token}`;
    const fd = openSync(tmp, 'wx', 0o600);
    writeSync(fd, me);
    closeSync(fd);
    try {
      linkSync(tmp, path);
      unlinkSync(tmp);
      held.add(path);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          held.delete(path);
          try {
            if (holderOf(path)?.token === token) unlinkSync(path);
          } catch {
            // Gone already.
          }
        },
      };
    } catch (e) {
      unlinkSync(tmp);
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = holderOf(path);
    if (holder && isAlive(holder)) {
      throw new HistoryError(
        'config_invalid',
        `The embedded store in ${dataDir} is in use by process ${holder.pid}${holder.command ? ` (${holder.command})` : ''}` +
          `${holder.since ? ` since ${holder.since}` : ''} (lock file ${path}). One process at a time: stop it first, or use PostgreSQL (DATABASE_URL), which any number of processes share.`,
        { context: { dataDir, pid: holder.pid } },
      );
    }
    // The holder is gone: its lock is stale. Moved aside (atomic) rather than deleted by name, so
    // that of two openers taking it over at once, the second cannot delete the first one's new
    // lock: it checks that what it moved is the stale lock it judged, and puts anything else back.
    const aside = `${path}.stale-${token}`;
    try {
      renameSync(path, aside);
    } catch {
      continue; // another opener moved it first
    }
    const moved = holderOf(aside);
    if (moved && holder && moved.token !== holder.token) {
      try {
        linkSync(aside, path);
      } catch {
        // A newer lock is in place already.
      }
    }
    unlinkSync(aside);
  }
  throw new HistoryError('config_invalid', `Could not take the lock ${path}; another process keeps taking it.`);
}

interface Holder {
  pid: number;
  command?: string;
  since?: string;
  boot?: string;
  start?: string;
  token?: string;
}

function holderOf(path: string): Holder | null {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    if (!Number.isSafeInteger(v.pid)) return null;
    const str = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
    return { pid: v.pid as number, command: str('command'), since: str('since'), boot: str('boot'), start: str('start'), token: str('token') };
  } catch {
    return null;
  }
}

/** The boot id and a process's start time in clock ticks since boot (Linux); nothing elsewhere. */
function processStart(pid: number): { boot?: string; start?: string } {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces and parentheses): starttime is the 22nd field.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { boot, start: rest[19] };
  } catch {
    return {};
  }
}

/** The holder's process still runs: its id is taken, and (where the lock says when it started) by the same process. */
function isAlive(h: Holder): boolean {
  try {
    process.kill(h.pid, 0);
  } catch (e) {
    // EPERM: it exists, owned by someone else.
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (h.boot === undefined || h.start === undefined) return h.pid !== process.pid;
  const now = processStart(h.pid);
  if (now.boot === undefined) return h.pid !== process.pid;
  return now.boot === h.boot && now.start === h.start;
}
