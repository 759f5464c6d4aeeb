import { nextTurn } from '../../core/wait.js';
import { streamHistory, type ApiConfig } from '../api-client.js';
import type { LoadRow } from '../db.js';
import { DECODER_VERSION_HEADER, type ApiCall } from './api-call.js';
import type { BatchWriter } from './flush.js';
import type { ApiRetryPolicy } from './retry.js';

/**
 * Reads one call of the /v1 NDJSON history stream from the call's cursor: each line advances the
 * call and its rows go to the writer, which stores them while the next lines are parsed. Resolves
 * with the load row of the last write, or null when there was nothing to write; throws what the
 * stream or a write threw. An answer that says the server re-decoded the wallet since the stored
 * rows were read (its decoder version header) is not read on: a re-read replaces them.
 */
export async function fetchCall(
  call: ApiCall,
  writer: BatchWriter,
  retry: ApiRetryPolicy,
  api: ApiConfig,
  wallet: { chain: string; address: string },
  signal: AbortSignal,
): Promise<LoadRow | null> {
  for await (const line of streamHistory(observing(api, call), wallet.chain, wallet.address, call.walk.cursor, signal)) {
    retry.answered();
    writer.check();
    if (call.superseded !== null) break;
    if (line.kind === 'final') {
      call.end(line);
      break;
    }
    writer.add(call.take(line), line.trades.length);
    if (call.finished) break;
    await writer.next();
    // A buffered body yields line after line in microtasks, which would hold IndexedDB's
    // completion events back until the buffer is parsed: give them a turn after each line.
    await nextTurn();
  }
  await writer.settle();
  writer.check();
  // Paused too: what was parsed is stored with its cursor, so a resume does not ask for it again.
  if (writer.pending || call.final || call.finished) return writer.flush();
  return null;
}

/** The API config with a fetch that tells the call the wallet's decoder version from the answer's header. */
function observing(api: ApiConfig, call: ApiCall): ApiConfig {
  const f = api.fetch ?? fetch;
  return {
    ...api,
    fetch: async (input, init) => {
      const res = await f(input, init);
      const v = res.headers.get(DECODER_VERSION_HEADER);
      if (v !== null && /^[0-9]+$/.test(v)) call.observe(Number(v));
      return res;
    },
  };
}
