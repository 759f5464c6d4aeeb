import { HistoryError } from '../../core/errors.js';
import { parseTradeText } from '../../core/trade.js';
import { splitRun } from '../../prices/usd-run.js';
import { computePnl, type PnlMethod, type PnlTrade } from '../../pnl/pnl-engine.js';
import { readRun, TOP_KEY } from '../store/trades.js';
import { parseHistoryRequest, usdOfRun, type HistoryContext, type Target } from './history.js';

/**
 * `GET /v1/wallets/{address}/pnl` (issue 25, decisions.md "PnL and exports"): per token, bought
 * and sold, cost basis, realized PnL and the open amount, by `average` (default) or `fifo`, in the
 * native coin and in USD (each trade at its own time's price), from the stored trades. Not metered.
 * Asking starts the wallet's load as history does; while it loads the answer covers what is stored,
 * with `complete: false`.
 */
export interface PnlTarget extends Target {
  method: PnlMethod;
}

export function parsePnlRequest(ctx: HistoryContext, address: string, url: URL): PnlTarget {
  // Validated as history is (chain, address); the rest of history's parameters do not apply.
  const only = new URL(url.origin + url.pathname);
  const chain = url.searchParams.get('chain');
  if (chain !== null) only.searchParams.set('chain', chain);
  const target = parseHistoryRequest(ctx, address, only);
  const method = url.searchParams.get('method') ?? 'average';
  if (method !== 'average' && method !== 'fifo') throw new HistoryError('invalid_parameter', `method takes "average" or "fifo", got "${method}".`);
  return { ...target, usd: true, method };
}

/** Decimal fields written as exact literals (unquoted, like a trade's amounts). */
const DECIMALS = new Set([
  'bought',
  'sold',
  'spent',
  'received',
  'spentUsd',
  'receivedUsd',
  'open',
  'openCost',
  'openCostUsd',
  'realized',
  'realizedUsd',
  'uncovered',
  'uncoveredProceeds',
  'uncoveredProceedsUsd',
]);

/** JSON with the decimal fields as number literals written exactly (JSON.stringify would write them quoted). */
function toJson(v: unknown, key = ''): string {
  if (typeof v === 'string' && DECIMALS.has(key) && /^-?\d+(\.\d+)?$/.test(v)) return v;
  if (Array.isArray(v)) return `[${v.map((x) => toJson(x)).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJson(x, k)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

export async function handlePnl(ctx: HistoryContext, target: PnlTarget): Promise<Response> {
  const loader = await ctx.loaders.get(target.chain, target.stored);
  await loader.wantAll();
  ctx.usd?.pricer.want(loader.state.id);
  const snapshot = loader.state;
  // Every stored trade, newest first in runs, then priced in one pass (one wait of PRICE_WAIT_MS
  // at most, not one a run) and turned oldest first.
  const runs: string[] = [];
  for (let below = TOP_KEY; ;) {
    const run = await readRun(ctx.db, snapshot.id, below, ctx.readRows);
    if (!run) break;
    runs.push(run.json);
    below = run.lo;
  }
  if (!runs.length && !snapshot.complete && loader.lastError && !loader.running) throw loader.lastError;
  const priced = await usdOfRun(ctx, target, snapshot.id, runs.join(','));
  const pricesComplete = priced.complete;
  const trades: PnlTrade[] = splitRun(priced.json).map(parseTradeText).reverse();
  const pnl = computePnl(trades, target.method);
  const body = toJson({
    wallet: target.shown,
    chain: target.chain,
    complete: snapshot.complete,
    tradeCount: trades.length,
    pricesComplete,
    ...pnl,
  });
  return new Response(body + '\n', {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-usage-trades': '0' },
  });
}
