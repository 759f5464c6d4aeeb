/**
 * Discovery: the wallet's own confirmed transactions, newest first, as TronGrid account pages
 * (200 records a page, the next page asked for as soon as one arrives, so it loads while this
 * one's transaction infos do), cut into runs with durable positions. A page can end inside a
 * block, and TronGrid orders a block's transactions by nothing we know, so the page's oldest
 * block is held back and delivered with the next page: runs then go strictly down the trade
 * order, as the store's readers expect.
 */
import { HistoryError } from '../../../core/errors.js';
import type { HttpJsonClient } from '../../../rpc/http-json.js';
import { END_MARKER, marker, type Marker } from '../position.js';
import { getAccountTransactions, type TronAccountTransaction, type TronPage } from '../rpc-methods.js';

export interface AccountPagesContext {
  client: HttpJsonClient;
  /** Records per page; TronGrid's maximum, 200. */
  pageSize: number;
}

export interface AccountPagesParameters {
  /** Base58, as TronGrid takes it. */
  wallet: string;
  /** Resume with this block (inclusive): records above it were delivered. */
  before: Marker | null;
  /** A refresh's floor (exclusive): the head a previous walk saw. */
  until: Marker | null;
  signal?: AbortSignal;
}

/** Records whose blocks are complete, newest first, and the walk's position once they are delivered. */
export interface AccountRun {
  records: TronAccountTransaction[];
  position: string;
  /** On a walk from the newest point, its first run: the head marker a refresh walks down to. */
  head?: string;
  /** The last run: nothing older is wanted. */
  last: boolean;
}

export async function* accountPages(ctx: AccountPagesContext, p: AccountPagesParameters): AsyncGenerator<AccountRun, void, undefined> {
  const { before, until, signal } = p;
  const fetchPage = (fingerprint?: string): Promise<TronPage<TronAccountTransaction>> =>
    getAccountTransactions(ctx.client, {
      wallet: p.wallet,
      limit: ctx.pageSize,
      fingerprint,
      maxTimestamp: before?.ts,
      minTimestamp: until?.ts,
      signal,
    });
  // Records in the walk's window: at or below `before`'s block, above `until`'s.
  const inWindow = (r: TronAccountTransaction) => (before === null || r.blockNumber <= before.block) && (until === null || r.blockNumber > until.block);

  // A walk from the newest point names its head on its first run.
  let headGiven = before !== null;
  let carry: TronAccountTransaction[] = [];
  let next: Promise<TronPage<TronAccountTransaction>> | null = fetchPage();
  while (next) {
    signal?.throwIfAborted();
    const pg: TronPage<TronAccountTransaction> = await next;
    // Newest first: a record at or below the refresh's floor means nothing older is wanted.
    const floorReached = until !== null && pg.data.some((r) => r.blockNumber <= until.block);
    // Fetch the next page while this one's infos load; a failure is seen when it is awaited.
    next = pg.fingerprint && !floorReached ? fetchPage(pg.fingerprint) : null;
    next?.catch(() => {});
    const records = pg.data.filter(inWindow);
    let head: string | undefined;
    if (!headGiven) {
      const newest = records[0];
      head = newest ? marker({ block: newest.blockNumber, ts: newest.block_timestamp }) : until ? marker(until) : END_MARKER;
      headGiven = true;
    }
    const named = head !== undefined ? { head } : {};
    if (next === null) {
      yield { records: [...carry, ...records], position: END_MARKER, ...named, last: true };
      return;
    }
    // Hold back the oldest block of the page: more of it may be on the next page.
    const all = [...carry, ...records];
    const oldest = all.at(-1) ?? pg.data.at(-1);
    if (!oldest) throw new HistoryError('rpc_malformed_response', 'TronGrid gave an empty page with a fingerprint for more', { retryable: true });
    carry = all.filter((r) => r.blockNumber <= oldest.blockNumber);
    const ready = all.filter((r) => r.blockNumber > oldest.blockNumber);
    yield { records: ready, position: marker({ block: oldest.blockNumber, ts: oldest.block_timestamp }), ...named, last: false };
  }
}
