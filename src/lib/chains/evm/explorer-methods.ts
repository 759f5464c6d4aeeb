import { HistoryError } from '../../core/errors.js';
import type { HttpJsonClient } from '../../rpc/http-json.js';

/**
 * The two `account` actions of an Etherscan-compatible explorer API (Etherscan's multichain API,
 * Blockscout's compatible API) that tell where a wallet's transactions are: `txlist` (transactions
 * it sent or received) and `tokentx` (token transfers naming it, which is how a settlement that
 * paid it shows). They only point: amounts come from the chain's own receipts.
 * EXPLORER_API_URL_<SLUG> is the API's URL with whatever it needs in its query (Etherscan V2:
 * `?chainid=1`), passed here as `query`; the key is sent as `apikey`.
 */

export interface ExplorerEntry {
  hash: string;
  blockNumber: string;
  transactionIndex?: string;
}

interface ExplorerAnswer {
  status?: string;
  message?: string;
  result?: unknown;
}

/** Their way of saying "nothing": status 0 with an empty list and a message naming it. */
const NOTHING = /no (transactions|token transfers|records)? ?found/i;

/**
 * Status 0 with a text result is a failure: a rate limit (retried like a 429), a bad key or
 * anything else (the explorer refuses: the walk goes on by another path).
 */
function validate(body: unknown): void {
  const b = body as ExplorerAnswer;
  if (!b || typeof b !== 'object') throw new HistoryError('rpc_malformed_response', 'explorer API: not a JSON object', { retryable: true });
  if (b.status === '1' && Array.isArray(b.result)) return;
  if (b.status === '0' && Array.isArray(b.result) && (b.result.length === 0 || NOTHING.test(b.message ?? ''))) return;
  const text = typeof b.result === 'string' ? b.result : (b.message ?? 'unreadable answer');
  if (/rate limit|too many|max calls/i.test(text)) throw new HistoryError('rpc_rate_limited', `explorer API: ${text}`, { retryable: true });
  throw new HistoryError('rpc_error', `explorer API refused: ${text}`, { context: { message: text } });
}

/**
 * One page of `action` for the wallet, newest first, in blocks up to `endBlock` (inclusive),
 * at most `offset` entries.
 */
export async function explorerAccountList(
  client: HttpJsonClient,
  p: { action: 'txlist' | 'tokentx'; address: string; endBlock: number; offset: number; key?: string; query?: Record<string, string>; signal?: AbortSignal },
): Promise<ExplorerEntry[]> {
  const body = await client.get<ExplorerAnswer>(
    '',
    {
      ...p.query,
      module: 'account',
      action: p.action,
      address: p.address,
      startblock: 0,
      endblock: p.endBlock,
      page: 1,
      offset: p.offset,
      sort: 'desc',
      apikey: p.key,
    },
    { signal: p.signal, validate },
  );
  return (body.result as ExplorerEntry[]).filter((e) => typeof e?.hash === 'string' && typeof e?.blockNumber === 'string');
}
