/**
 * Fetch, for a re-decode: named transactions of the wallet again, each as its account record and
 * its transaction info. TronGrid serves a record only in the wallet's account list, so each
 * transaction's info comes first (its block time), then the wallet's own records of that block
 * time (one request per distinct time, more only past 200 records in one block).
 */
import { HistoryError } from '../../../core/errors.js';
import type { HttpJsonClient } from '../../../rpc/http-json.js';
import type { TronTransactionInfo } from '../decode/decode-transaction.js';
import { getAccountTransactions, getTransactionInfo, type TronAccountTransaction } from '../rpc-methods.js';

export interface RefetchedRecords {
  /** The wallet's records of those transactions, in the order asked for. */
  records: TronAccountTransaction[];
  infos: Map<string, TronTransactionInfo>;
}

/** `wallet` in base58, as TronGrid takes it; `ids` are transaction ids (64 hex). */
export async function refetchRecords(client: HttpJsonClient, wallet: string, ids: readonly string[], signal?: AbortSignal): Promise<RefetchedRecords> {
  const wanted = [...new Set(ids)];
  const infos = new Map<string, TronTransactionInfo>();
  await Promise.all(wanted.map(async (id) => infos.set(id, await getTransactionInfo(client, id, signal))));
  const byTime = new Map<number, Set<string>>();
  for (const [id, info] of infos) {
    const ts = info.blockTimeStamp;
    if (typeof ts !== 'number') throw new HistoryError('rpc_malformed_response', `transaction info of ${id} has no block time`, { retryable: true });
    byTime.set(ts, (byTime.get(ts) ?? new Set()).add(id));
  }
  const found = new Map<string, TronAccountTransaction>();
  await Promise.all(
    [...byTime].map(async ([ts, idsAt]) => {
      let fingerprint: string | undefined;
      do {
        const page = await getAccountTransactions(client, { wallet, limit: 200, minTimestamp: ts, maxTimestamp: ts, fingerprint, signal });
        for (const r of page.data) if (idsAt.has(r.txID)) found.set(r.txID, r);
        fingerprint = [...idsAt].every((id) => found.has(id)) ? undefined : page.fingerprint;
      } while (fingerprint);
    }),
  );
  const lost = wanted.filter((id) => !found.has(id));
  // A stored trade's transaction the wallet's list lacks: a node behind the one that listed it.
  // Decoding without it would drop its trades, so the re-decode waits for a better answer.
  if (lost.length)
    throw new HistoryError('rpc_malformed_response', `TronGrid did not list ${lost.length} of the wallet's transactions (${lost[0]}, ...)`, {
      retryable: true,
    });
  const records = wanted.map((id) => found.get(id)!);
  return { records, infos };
}
