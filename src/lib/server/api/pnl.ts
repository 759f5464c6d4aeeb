import { HistoryError } from '../../core/errors.js';
import { parseTradeText } from '../../core/trade.js';
import { splitRun } from '../../prices/usd-run.js';
import { computePnl, type PnlMethod, type PnlTrade } from '../../pnl/pnl-engine.js';
import { readRunUp } from '../store/trades.js';
import { meterRun } from '../store/usage.js';
import type { Principal } from './authenticate.js';
import { parseWalletTarget, usdOfRun, type HistoryContext, type Target } from './history.js';

/**
 * `GET /v1/wallets/{address}/pnl` (issue 25, decisions.md "PnL and exports"): per token, bought
 * and sold, cost basis, realized PnL and the open amount, by `average` (default) or `fifo`, in the
 * native coin and in USD (each trade at its own time's price), from the stored trades. Not metered
 * (but see include=lots below).
 * Asking starts the wallet's load as history does; while it loads the answer covers what is stored,
 * with `complete: false`. With `include=lots` each token also lists the trades behind its figures
 * (the engine's lots), and those trades are metered as delivered.
 */
export interface PnlTarget extends Target {
  method: PnlMethod;
  /** include=lots: each token's figures with the trades that made them (metered as delivered trades). */
  lots: boolean;
}

export function parsePnlRequest(ctx: HistoryContext, address: string, url: URL): PnlTarget {
  const target = parseWalletTarget(ctx, address, url);
  const method = url.searchParams.get('method') ?? 'average';
  if (method !== 'average' && method !== 'fifo') throw new HistoryError('invalid_parameter', `method takes "average" or "fifo", got "${method}".`);
  const include = url.searchParams.getAll('include').flatMap((v) => v.split(','));
  for (const v of include) if (v !== 'lots') throw new HistoryError('invalid_parameter', `include takes "lots", got "${v}".`);
  return { ...target, usd: true, method, lots: include.length > 0 };
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
  // include=lots
  'amount',
  'native',
  'usd',
  'cost',
  'costUsd',
  'lotAmount',
  'lotCost',
  'lotCostUsd',
  'costOfSold',
  'costOfSoldUsd',
  'realizedUsd',
  'heldAfter',
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

export async function handlePnl(ctx: HistoryContext, principal: Principal, target: PnlTarget): Promise<Response> {
  const loader = await ctx.loaders.get(target.chain, target.stored);
  await loader.wantAll();
  ctx.usd?.pricer.want(loader.state.id);
  const snapshot = loader.state;
  // Every stored trade, oldest transaction first with a transaction's legs in leg order (a plain
  // reverse of the newest-first order would put a transaction's sell of a token before its buy),
  // then priced in one pass (one wait of PRICE_WAIT_MS at most, not one a run).
  const runs: string[] = [];
  let counted = 0;
  for (let above = ''; ;) {
    const run = await readRunUp(ctx.db, snapshot.id, above, ctx.readRows);
    if (!run) break;
    runs.push(run.json);
    // The lots list every trade: delivered, so metered (each once per account), run by run.
    if (target.lots) {
      counted += await meterRun(ctx.db, { accountId: principal.accountId, walletId: snapshot.id, hi: run.hi, lo: run.lo, count: run.count, after: null });
      ctx.metrics?.delivered(run.count);
    }
    above = run.hi;
  }
  if (!runs.length && !snapshot.complete && loader.lastError && !loader.running) throw loader.lastError;
  const priced = await usdOfRun(ctx, target, snapshot.id, runs.join(','));
  const pricesComplete = priced.complete;
  const trades: PnlTrade[] = splitRun(priced.json).map(parseTradeText);
  const pnl = computePnl(trades, target.method, { lots: target.lots });
  const body = toJson({
    wallet: target.shown,
    chain: target.chain,
    complete: snapshot.complete,
    tradeCount: trades.length,
    pricesComplete,
    ...pnl,
  });
  return new Response(body + '\n', {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-usage-trades': String(counted) },
  });
}
