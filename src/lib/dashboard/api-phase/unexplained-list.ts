import type { UnexplainedChange } from '../../core/activity.js';
import { errorFromResponse, type ApiConfig } from '../api-client.js';
import { apiOrder, walletUnexplained, type DashboardDb, type LoadRow, type UnexplainedRow } from '../db.js';
import { normalizeDecimalLiteral, quoteAmountLiterals } from '../ndjson.js';

/**
 * API mode: the wallet's unexplained transactions (decisions.md, "Unexplained activity") read from
 * this server's `GET /v1/wallets/{address}/unexplained` into IndexedDB, so they show offline with
 * the trades. The list is read whole and replaces the stored one in one transaction: it is short
 * beside the history (one entry per transaction no trade explains), and a re-decode on the server
 * may take entries out anywhere in it, which a read of the new ones only would miss. It is read
 * when a final line says a count other than the stored one, after a refresh that stopped at the
 * stored head before any final line, and after a re-read (`force`).
 *
 * The list is not metered; a failure to read it leaves the stored list as it was and never fails
 * the load (the next final line asks again, since the counts still differ).
 */

/** Entries per page: the list's pages are not metered, and 1,000 keep a long list to a few calls. */
const PAGE = 1000;
/** A server that keeps answering with a cursor and entries for this many pages is not followed further. */
const MAX_PAGES = 1000;

export interface UnexplainedListDeps {
  db: DashboardDb;
  api: ApiConfig;
  onProgress?: (row: LoadRow) => void;
}

export async function syncUnexplained(
  deps: UnexplainedListDeps,
  id: string,
  wallet: { chain: string; address: string },
  count: number | null,
  force: boolean,
  signal: AbortSignal,
): Promise<void> {
  const { db } = deps;
  const stored = await db.loads.get(id);
  if (!stored) return;
  const have = stored.unexplainedCount ?? 0;
  if (!force && count !== null && have === count && stored.serverUnexplained === count) return;
  let list: { rows: UnexplainedRow[]; count: number } | null = null;
  if (count === 0 && have === 0) list = { rows: [], count };
  else {
    try {
      list = await readList(deps.api, id, wallet, signal);
    } catch (e) {
      if (signal.aborted) throw e;
    }
  }
  await db.transaction('rw', [db.unexplained, db.loads], async () => {
    const r = await db.loads.get(id);
    if (!r) return;
    r.serverUnexplained = list?.count ?? count;
    if (list) {
      await walletUnexplained(db, id).delete();
      await db.unexplained.bulkPut(list.rows);
      r.unexplainedCount = list.rows.length;
    }
    await db.loads.put(r);
    deps.onProgress?.(r);
  });
}

/**
 * Every page of the list, newest first, as stored rows (order by rank: descending is the list's
 * order), and the server's count as its first page said it.
 */
async function readList(
  api: ApiConfig,
  id: string,
  wallet: { chain: string; address: string },
  signal: AbortSignal,
): Promise<{ rows: UnexplainedRow[]; count: number }> {
  const f = api.fetch ?? fetch;
  const out: UnexplainedRow[] = [];
  let count: number | null = null;
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const q = new URLSearchParams({ chain: wallet.chain, limit: String(PAGE) });
    if (cursor) q.set('cursor', cursor);
    const res = await f(`${api.baseUrl}/v1/wallets/${encodeURIComponent(wallet.address)}/unexplained?${q}`, {
      headers: { authorization: `Bearer ${api.apiKey}`, accept: 'application/json' },
      signal,
      cache: 'no-store',
    });
    if (!res.ok) throw await errorFromResponse(res);
    const body = JSON.parse(quoteAmountLiterals(await res.text())) as { cursor?: unknown; unexplained?: unknown; unexplainedCount?: unknown };
    if (!Array.isArray(body.unexplained)) throw new SyntaxError('unexplained page without a list');
    if (count === null && Number.isSafeInteger(body.unexplainedCount)) count = body.unexplainedCount as number;
    for (const u of body.unexplained as Record<string, unknown>[]) out.push(readEntry(id, out.length, u));
    cursor = typeof body.cursor === 'string' ? body.cursor : null;
    if (!cursor || body.unexplained.length === 0) break;
  }
  return { rows: out, count: count ?? out.length };
}

function readEntry(id: string, rank: number, u: Record<string, unknown>): UnexplainedRow {
  if (typeof u.signature !== 'string' || typeof u.blockTime !== 'string' || !Array.isArray(u.changes) || !Array.isArray(u.programs)) {
    throw new SyntaxError('malformed unexplained entry');
  }
  const changes: UnexplainedChange[] = (u.changes as Record<string, unknown>[]).map((c) => ({
    token: String(c.token ?? ''),
    tokenMint: typeof c.tokenMint === 'string' ? c.tokenMint : null,
    amount: typeof c.amount === 'string' ? normalizeDecimalLiteral(c.amount) : null,
  }));
  return { walletId: id, order: apiOrder(0, rank), signature: u.signature, blockTime: u.blockTime, changes, programs: u.programs.map(String) };
}
