import type { ApiConfig } from '../api-client.js';
import type { DashboardDb, LoadRow } from '../db.js';
import { ApiCall, type Phase } from './api-call.js';
import { fetchCall } from './fetch.js';
import { BatchWriter, type Commit } from './flush.js';
import { ApiRetryPolicy } from './retry.js';

export interface ApiPhaseDeps {
  db: DashboardDb;
  api: () => ApiConfig;
  /** Stores a batch and the state it reached, for this wallet and phase. */
  commit: Commit;
  /** The server re-decoded the wallet (its decoder version is above the rows'): start a re-read at that version. */
  supersede(version: number): Promise<LoadRow>;
  /**
   * A final line said how many unexplained transactions the server holds for the wallet (null: a
   * phase ended without one): its list is read again when that differs from what is stored or is
   * not known, and always (`force`) once a re-read has replaced the rows (unexplained-list.ts).
   */
  listed(count: number | null, force: boolean): Promise<void>;
  retryDelayMs: number;
}

/**
 * One phase (the walk back, or a refresh from the top) of a wallet's load from this server's /v1
 * stream into IndexedDB: calls of the stream (fetch.ts), each written as it is read (flush.ts),
 * again after the ones that did not finish the phase (retry.ts), until the phase is done or the
 * load stops. A call that finds the server re-decoded the wallet ends the walk or refresh: a re-read
 * takes over (reread.ts; a re-read that finds a newer version still starts again). Resolves with the
 * load row reached.
 */
export async function apiPhase(
  deps: ApiPhaseDeps,
  id: string,
  wallet: { chain: string; address: string },
  phase: Phase,
  signal: AbortSignal,
): Promise<LoadRow> {
  const reload = async () => (await deps.db.loads.get(id))!;
  const retry = new ApiRetryPolicy({ delayMs: deps.retryDelayMs, signal, commit: deps.commit, reload });
  let load = await reload();
  while (load[phase] && !signal.aborted && (phase === 'reread' || !load.reread)) {
    const call = new ApiCall(load, phase, id);
    const writer = new BatchWriter(deps.commit, () => call.reached());
    try {
      const stored = await fetchCall(call, writer, retry, deps.api(), wallet, signal);
      if (call.superseded !== null) {
        load = await deps.supersede(call.superseded);
        continue;
      }
      // The list is read once the server's history is whole (a count from a load still under way
      // grows call after call, and each read takes the whole list), and after a re-read, whose
      // rows replaced the stored ones; a refresh that met the stored head stops before the final
      // line, so the list is read to learn the count (one request, at a refresh the person asked for).
      if (phase === 'reread') {
        if (call.finished && call.final?.unexplained !== undefined) await deps.listed(call.final.unexplained, true);
      } else if (call.final?.complete && call.final.unexplained !== undefined) await deps.listed(call.final.unexplained, false);
      else if (call.finished && !call.final) await deps.listed(null, false);
      // A finished call always ends with a write: its row is the phase's end.
      if (call.finished && stored) return stored;
    } catch (e) {
      await writer.settle();
      if (signal.aborted) {
        // Paused: what was parsed is stored with its cursor (unless writing is what failed).
        if (!writer.failed && writer.pending) await writer.flush();
        throw e;
      }
      load = await retry.afterError(e);
      continue;
    }
    load = await retry.afterCall(call);
  }
  return load;
}
