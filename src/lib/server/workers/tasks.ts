/**
 * The tasks the server's worker threads run, by name: each a pure function of structured-clone
 * data, declared by the chain family whose sources hand it over (chains/families.ts) and imported
 * on first use. The pool runs them here, on the calling thread, when no worker can start.
 */
import { FAMILIES, type OffloadTask } from '../../chains/families.js';

let loaded: Promise<ReadonlyMap<string, OffloadTask>> | undefined;

/** Every family's offload tasks by name (loaded once per thread). */
export function offloadTasks(): Promise<ReadonlyMap<string, OffloadTask>> {
  return (loaded ??= Promise.all(Object.values(FAMILIES).map((f) => f.offloadTasks?.() ?? {})).then(
    (tables) => new Map(tables.flatMap((t) => Object.entries(t))),
  ));
}

/** Runs the task `name` on this thread. */
export async function runTask(name: string, input: unknown): Promise<unknown> {
  const run = (await offloadTasks()).get(name);
  if (!run) throw new Error(`unknown task ${name}`);
  return run(input as never);
}

/** Marks a worker thread as this pool's (workerData.role). */
export const WORKER_ROLE = 'wallet-history-offload';

/** A task request and its answer, as they cross the thread boundary. */
export interface TaskMessage {
  id: number;
  task: string;
  input: unknown;
}
export type TaskReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };
