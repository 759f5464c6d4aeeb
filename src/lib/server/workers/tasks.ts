/**
 * The tasks the server's worker threads run, by name: each a pure function of structured-clone
 * data. The pool runs them here, on the calling thread, when no worker can start.
 */
import { DECODE_TRANSACTION_BATCH, decodeTransactionBatch } from '../../chains/sol/decode/decode-batch.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each task checks its own input; the table is keyed by name
export const OFFLOAD_TASKS: Readonly<Record<string, (input: any) => unknown>> = {
  [DECODE_TRANSACTION_BATCH]: decodeTransactionBatch,
};

/** Marks a worker thread as this pool's (workerData.role). */
export const WORKER_ROLE = 'wallet-history-offload';

/** A task request and its answer, as they cross the thread boundary. */
export interface TaskMessage {
  id: number;
  task: string;
  input: unknown;
}
export type TaskReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };
