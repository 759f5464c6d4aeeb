import { HistoryError } from '../../core/errors.js';
import { parseTradeText } from '../../core/trade.js';
import { createExportWriter, currencyLabels, EXPORT_FORMATS, exportHeader, type ExportFormat, type ExportTrade } from '../../pnl/export-csv.js';
import { splitRun } from '../../prices/usd-run.js';
import { readRunUp, tokensOf } from '../store/trades.js';
import { meterRun } from '../store/usage.js';
import type { Principal } from './authenticate.js';
import { parseWalletTarget, untilDeadline, usdOfRun, type HistoryContext, type Target } from './history.js';

/**
 * `GET /v1/wallets/{address}/export` (issue 25, decisions.md "PnL and exports"): the wallet's
 * trades as CSV in a tax tool's import columns (src/lib/pnl/export-csv.ts), oldest first, streamed
 * from the store in chunks. Only a whole history is exported: a tax file that silently misses the
 * oldest trades is worse than none, so a history still loading gets 409 `history_incomplete` with
 * Retry-After, and the request starts (or keeps) its load. Trades are metered as delivered, each
 * once per account, chunk by chunk as they are written.
 */
export interface ExportTarget extends Target {
  format: ExportFormat;
  /** Unix ms, inclusive lower and exclusive upper bound of blockTime (null: open). */
  from: number | null;
  to: number | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 86_400_000;

/**
 * `from`/`to`: a date (`2024-01-01`, UTC) or an ISO 8601 time with its offset. A date as `to`
 * takes in that whole day, so `from=2024-01-01&to=2024-12-31` is the year 2024; a time as `to`
 * is exclusive.
 */
function parseBound(name: 'from' | 'to', v: string | null): number | null {
  if (v === null) return null;
  const date = DATE.test(v);
  const ms = date || TIMESTAMP.test(v) ? Date.parse(date ? `${v}T00:00:00Z` : v) : NaN;
  // Date.parse rolls 2024-02-30 over to March; the round trip catches it.
  if (Number.isNaN(ms) || (date && new Date(ms).toISOString().slice(0, 10) !== v)) {
    throw new HistoryError('invalid_parameter', `${name} takes a date (2024-01-31) or an ISO 8601 time with its offset (2024-01-31T12:00:00Z), got "${v}".`);
  }
  return name === 'to' && date ? ms + DAY_MS : ms;
}

export function parseExportRequest(ctx: HistoryContext, address: string, url: URL): ExportTarget {
  const target = parseWalletTarget(ctx, address, url);
  const format = url.searchParams.get('format') ?? 'csv';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new HistoryError('invalid_parameter', `format takes ${EXPORT_FORMATS.map((f) => `"${f}"`).join(', ')}, got "${format}".`);
  }
  const from = parseBound('from', url.searchParams.get('from'));
  const to = parseBound('to', url.searchParams.get('to'));
  if (from !== null && to !== null && from >= to) throw new HistoryError('invalid_parameter', 'from must come before to.');
  // The formats with a USD column (ours and Koinly's net worth) price their trades.
  return { ...target, usd: format === 'csv' || format === 'koinly', format: format as ExportFormat, from, to };
}

/** How long a client waits before asking again for an export of a loading history. */
const INCOMPLETE_RETRY_S = 10;
/** As history's read from the top: one or two RPC round trips, usually. */
const REFRESH_WAIT_MS = 5_000;

export async function handleExport(ctx: HistoryContext, principal: Principal, target: ExportTarget): Promise<Response> {
  const loader = await ctx.loaders.get(target.chain, target.stored);
  await loader.wantAll();
  // A history still loading is answered at once, not after a head refresh it does not need.
  if (loader.state.complete) {
    // A head older than the staleness bound is refreshed first, as a history read from the top is
    // (a slow refresh goes on behind; the file holds what is stored).
    await untilDeadline(loader.refreshIfStale(), Date.now() + REFRESH_WAIT_MS);
  }
  const snapshot = loader.state;
  if (!snapshot.complete) {
    if (loader.lastError && !loader.running) throw loader.lastError;
    throw new HistoryError(
      'history_incomplete',
      `This history is still loading (${snapshot.tradeCount} trades stored so far); an export covers a whole history, so ask again when it is complete.`,
      { retryAfter: INCOMPLETE_RETRY_S },
    );
  }
  const walletId = snapshot.id;
  if (target.usd) ctx.usd?.pricer.want(walletId);
  const nativeSymbol = ctx.chains.get(target.chain)!.nativeSymbol;
  // Labels over every token of the wallet, not only the dates asked: a token keeps the same
  // currency label in every year's file, which is what a tool importing several years needs.
  const { tokens, top } = await tokensOf(ctx.db, walletId);
  const writer = createExportWriter({
    format: target.format,
    chain: target.chain,
    wallet: target.shown,
    nativeSymbol,
    labels: currencyLabels(tokens, nativeSymbol),
  });

  let above = '';
  let done = top === null;
  /** The rows of the next stored chunk (maybe none), or null when the file has no more. */
  const nextRows = async (): Promise<string | null> => {
    // Bounded by the newest key at the start: a refresh committed meanwhile stays out of this file.
    const run = await readRunUp(ctx.db, walletId, above, ctx.readRows, top!);
    if (!run) return null;
    above = run.hi;
    if (run.hi === top) done = true;
    const json = target.usd ? (await usdOfRun(ctx, target, walletId, run.json)).json : run.json;
    const trades = splitRun(json).map((text) => parseTradeText(text) as ExportTrade);
    // The dates select a span of the chain's order (its times only grow along it): one run of keys.
    let first = -1;
    let last = -1;
    let text = '';
    for (let i = 0; i < trades.length; i++) {
      const at = Date.parse(trades[i].blockTime);
      if (target.from !== null && at < target.from) continue;
      if (target.to !== null && at >= target.to) {
        done = true;
        break;
      }
      if (first < 0) first = i;
      last = i;
      text += writer.push(trades[i]);
    }
    if (first >= 0) {
      const count = last - first + 1;
      // Whole transactions, legs in leg order: the span's ends are its smallest and largest keys.
      const span = run.keys.slice(first, last + 1).sort();
      await meterRun(ctx.db, { accountId: principal.accountId, walletId, lo: span[0], hi: span[count - 1], count, after: null });
      ctx.metrics?.delivered(count);
    }
    return text;
  };
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(exportHeader(target.format)));
      },
      // Each pull writes something (a chunk's rows, or the end): a pull that enqueues nothing is not called again.
      async pull(controller) {
        for (;;) {
          const text = done ? null : await nextRows();
          if (text === null) {
            controller.enqueue(encoder.encode(writer.end()));
            controller.close();
            return;
          }
          if (text) {
            controller.enqueue(encoder.encode(text));
            return;
          }
        }
      },
      // No read ahead: a chunk is read and metered only when the client asks for it (as history's stream).
    },
    { highWaterMark: 0 },
  );
  const name = `${target.shown}-${target.chain}-${target.format}.csv`;
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
      'x-decoder-version': String(snapshot.decoderVersion),
    },
  });
}
