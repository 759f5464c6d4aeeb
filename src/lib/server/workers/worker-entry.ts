/**
 * A worker thread of the offload pool. This module is both: imported on the main thread it only
 * tells where it is (`workerEntryUrl`, the file it was built into); loaded as a worker's entry it
 * serves tasks. It is imported dynamically, so the bundler gives it a file of its own.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { offloadTasks, runTask, WORKER_ROLE, type TaskMessage, type TaskReply } from './tasks.js';

export const workerEntryUrl: string = import.meta.url;

if (!isMainThread && parentPort && workerData?.role === WORKER_ROLE) {
  const port = parentPort;
  port.on('message', async (m: TaskMessage) => {
    let reply: TaskReply;
    try {
      reply = { id: m.id, ok: true, value: await runTask(m.task, m.input) };
    } catch (e) {
      reply = { id: m.id, ok: false, message: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply);
  });
  // Ready once the families' tasks are imported: the first task then runs at once.
  void offloadTasks().then(() => port.postMessage({ ready: true }));
}
