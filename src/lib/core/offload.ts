/**
 * Work a chain source can hand to another thread: a named task with an input and an output that
 * structured cloning carries (plain data, typed arrays, Maps). The server passes a worker pool;
 * the browser worker passes none and does the work where it is.
 */
export interface Offload {
  /** Runs `task` with `input`; `transfer` lists buffers moved to the other thread, not copied. */
  run<T>(task: string, input: unknown, transfer?: ArrayBuffer[]): Promise<T>;
  /** Starts the threads now, ahead of the first task (a source calls it when it is built). */
  warm?(): unknown;
}
