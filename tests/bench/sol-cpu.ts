/**
 * Where a benchmark's CPU went, to tell a walk that waits (stages not overlapping) from one that
 * has no core left (the 2-core machine shared with the replay server, the client thread and other
 * work): CPU time of this process's main thread, of its other threads (decode worker, client
 * thread, V8's GC helpers) and of the replay server's process, read from /proc (Linux; zeros
 * elsewhere), and how long the main thread's event loop sat idle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** utime + stime of a /proc stat line, in ms (clock ticks of 10 ms). */
function statCpuMs(path: string): number {
  try {
    const s = readFileSync(path, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
}

function childPids(): number[] {
  const out: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const p of entries) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const s = readFileSync(`/proc/${p}/stat`, 'utf8');
      if (Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]) === process.pid) out.push(Number(p));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU of each thread of this process, by thread id. */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const t of readdirSync(`/proc/${process.pid}/task`)) out.set(t, statCpuMs(`/proc/${process.pid}/task/${t}/stat`));
  } catch {
    // not Linux
  }
  return out;
}

interface CpuSample {
  wall: number;
  process: number;
  threads: Map<string, number>;
  main: number;
  children: number;
  elu: EventLoopUtilization;
}

function sample(): CpuSample {
  const u = process.cpuUsage();
  return {
    wall: performance.now(),
    process: (u.user + u.system) / 1000,
    threads: threadCpu(),
    main: statCpuMs(`/proc/${process.pid}/task/${process.pid}/stat`),
    children: childPids().reduce((n, pid) => n + statCpuMs(`/proc/${pid}/stat`), 0),
    elu: performance.eventLoopUtilization(),
  };
}

export interface CpuAccount {
  wallMs: number;
  /** The main thread (the walk, the transport, and on the server the store). */
  mainMs: number;
  /** Every other thread of this process: decode worker, client thread, GC helpers. */
  otherThreadsMs: number;
  /** The busiest of those, by itself (on the server, the decode worker). */
  busiestOtherMs: number;
  /** Child processes: the replay server. */
  childrenMs: number;
  /** The main thread's event loop waiting for something to do. */
  mainIdleMs: number;
  cores: number;
  /** All of it against the cores: 1 means every core was busy for the whole wall time. */
  coresBusy: number;
}

/** Starts counting; the function returned stops and accounts. */
export function startCpuAccount(cores = availableParallelism()): () => CpuAccount {
  const a = sample();
  return () => {
    const b = sample();
    const wallMs = b.wall - a.wall;
    const mainMs = b.main - a.main;
    const processMs = b.process - a.process;
    const childrenMs = b.children - a.children;
    return {
      wallMs,
      mainMs,
      otherThreadsMs: Math.max(0, processMs - mainMs),
      busiestOtherMs: Math.max(0, ...[...b.threads].filter(([t]) => t !== String(process.pid)).map(([t, ms]) => ms - (a.threads.get(t) ?? 0))),
      childrenMs,
      mainIdleMs: performance.eventLoopUtilization(b.elu, a.elu).idle,
      cores,
      coresBusy: (processMs + childrenMs) / (cores * wallMs),
    };
  };
}

export function describeCpu(c: CpuAccount): string {
  return (
    `CPU: main thread ${Math.round(c.mainMs)} ms (its event loop idle ${Math.round(c.mainIdleMs)} ms), other threads ${Math.round(c.otherThreadsMs)} ms (the busiest ${Math.round(c.busiestOtherMs)}), ` +
    `replay server ${Math.round(c.childrenMs)} ms; ${Math.round(c.coresBusy * 100)}% of ${c.cores} cores over ${Math.round(c.wallMs)} ms`
  );
}
