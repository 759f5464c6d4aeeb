/**
 * A worker thread of the offload pool. This module is both: imported on the main thread it only
 * tells where it is (`workerEntryUrl`, the file it was built into); loaded as a worker's entry it
 * serves tasks. It is imported dynamically, so the bundler gives it a file of its own.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { OFFLOAD_TASKS, WORKER_ROLE, type TaskMessage, type TaskReply } from './tasks.js';

export const workerEntryUrl: string = import.meta.url;

if (!isMainThread && parentPort && workerData?.role === WORKER_ROLE) {
  const port = parentPort;
  port.on('message', (m: TaskMessage) => {
    const run = OFFLOAD_TASKS[m.task];
    let reply: TaskReply;
    try {
      if (!run) throw new Error(`unknown task ${m.task}`);
      reply = { id: m.id, ok: true, value: run(m.input) };
    } catch (e) {
      reply = { id: m.id, ok: false, message: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply);
  });
  port.postMessage({ ready: true });
}
