import { TOP_KEY } from '../store/trades.js';
import { hasUnexplainedBelow, readUnexplained } from '../store/unexplained.js';
import { UNBOUNDED_PAGE_SIZE, type HistoryContext, type Target } from './history.js';

/** Transactions per page when `limit` is absent: the list is paged only (no stream). */
export const UNEXPLAINED_PAGE_SIZE = 100;

/**
 * `GET /v1/wallets/{address}/unexplained`: the wallet's stored unexplained transactions
 * (core/activity.ts), newest first, in cursor pages; not metered. Asking for them asks for the
 * whole history, as a stream does: the list is complete when the walk is, and until then holds
 * what has been read (`complete: false`, a cursor to go on from).
 */
export async function handleUnexplained(ctx: HistoryContext, target: Target): Promise<Response> {
  const loader = await ctx.loaders.get(target.chain, target.stored);
  await loader.wantAll();
  const limit = target.limit ?? UNEXPLAINED_PAGE_SIZE;
  const snapshot = loader.state;
  const below = target.after ?? TOP_KEY;
  const run = await readUnexplained(ctx.db, snapshot.id, below, Number.isFinite(limit) ? limit : null);
  // As a history page: nothing to show and the load stopped on an upstream failure is that failure (502).
  if (!run && !snapshot.complete && loader.lastError && !loader.running) throw loader.lastError;
  const more = run ? await hasUnexplainedBelow(ctx.db, snapshot.id, run.lo) : false;
  const head: Record<string, unknown> = {
    wallet: target.shown,
    complete: snapshot.complete,
    unexplainedCount: snapshot.unexplainedCount,
    pageSize: Number.isFinite(limit) ? limit : UNBOUNDED_PAGE_SIZE,
  };
  if (!snapshot.complete || more) {
    const [key, signature] = run ? [run.lo, run.loSignature] : [target.after, target.afterSignature];
    head.cursor = ctx.cursors.encode({ chain: target.chain, wallet: target.stored, key, signature, list: 'unexplained' });
  }
  const body = JSON.stringify(head).slice(0, -1) + `,"unexplained":[${run?.json ?? ''}]}\n`;
  return new Response(body, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-usage-trades': '0' },
  });
}
