import { sleep } from '../../core/wait.js';
import { ApiError } from '../api-client.js';
import type { LoadRow, WalkState } from '../db.js';
import type { ApiCall } from './api-call.js';
import type { Commit } from './flush.js';

/** Failures in a row (no line read between them) before the load ends with the last one. */
const MAX_FAILURES = 3;

/**
 * The API phase's one retry policy: what follows a call that did not finish the phase. Each step
 * resolves with the load row to go on from, or throws to end the load.
 *
 * - The server refused the cursor (`invalid_cursor`, its secret rotated, say): walk again from the
 *   top and skip what is stored, up to the last stored trade of this walk. Stored rows are never
 *   re-added.
 * - Network or server trouble (no answer, 5xx, 429, a failed write, a stream that ended without its
 *   final line): what is stored stays; ask again from the stored cursor after `delayMs`, at most
 *   MAX_FAILURES times in a row. Any other refusal (4xx) ends the load at once.
 * - `complete: false`: the server keeps loading in the background; ask again with the final
 *   line's cursor, after `delayMs` when the call brought nothing new, at once otherwise; unless
 *   the line carries an `error` (the server's load stopped on a failure): the load ends with it.
 */
export class ApiRetryPolicy {
  private failures = 0;

  constructor(
    private readonly o: {
      /** Wait before asking again; 1 s keeps a busy wallet polled gently. */
      delayMs: number;
      signal: AbortSignal;
      commit: Commit;
      /** The load row as stored. */
      reload: () => Promise<LoadRow>;
    },
  ) {}

  /** A line arrived: the server answers, the count of failures in a row starts again. */
  answered(): void {
    this.failures = 0;
  }

  /** A call that threw (the load not stopped). */
  async afterError(e: unknown): Promise<LoadRow> {
    if (e instanceof ApiError && e.code === 'invalid_cursor') return this.o.commit([], 0, restartFromTop);
    if (e instanceof ApiError && e.status < 500 && e.status !== 429) throw e;
    if (++this.failures > MAX_FAILURES) throw e;
    await sleep(this.o.delayMs, this.o.signal);
    return this.o.reload();
  }

  /** A call that ended without finishing the phase. */
  async afterCall(call: ApiCall): Promise<LoadRow> {
    const { signal } = this.o;
    // The server's load stopped on a failure and says why: the load ends with it (the rows and
    // cursor reached are stored), shown with a retry, not asked again every second.
    const failed = call.final?.error;
    if (failed && !signal.aborted) throw new ApiError(502, failed.code, failed.detail);
    if (!call.final && !signal.aborted) {
      if (++this.failures > MAX_FAILURES) throw new Error('The stream ended without its final line.');
    }
    if (!signal.aborted && call.newRows === 0) await sleep(this.o.delayMs, signal);
    return this.o.reload();
  }
}

function restartFromTop(r: LoadRow, s: WalkState | null): void {
  s!.cursor = null;
  s!.skipUntil = s!.lastFp;
  r.restarts += 1;
}
