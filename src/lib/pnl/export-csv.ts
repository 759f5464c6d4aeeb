import type { Trade } from '../core/trade.js';

/**
 * A wallet's trades as CSV for tax tools (issue 25, decisions.md "PnL and exports"), one pure
 * module for the server's `/export` and the dashboard's export buttons. Column lists, and where
 * each comes from, are in docs/export-formats.md.
 *
 * One row per exchange, oldest first:
 *  - a trade against the native coin: the native amount on one side, the token on the other;
 *  - a token-to-token swap (a sell and a buy of one transaction, neither with a native amount):
 *    one row, sent and received, the legs paired in leg order;
 *  - a trade whose other side is unknown (no native amount and no partner leg): its one side
 *    only, said so in the description, never dropped.
 * Amounts are the trades' own exact decimal text. Fees are not in the trades, so fee columns stay
 * empty (amountSol is the venue amount, before fees).
 */
export type ExportFormat = 'csv' | 'koinly' | 'cointracker' | 'cointracking';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'koinly', 'cointracker', 'cointracking'];

/** A trade as the export reads it: the eight fields and, where known, its USD value. */
export interface ExportTrade extends Trade {
  valueUsd?: string | null;
}

export interface ExportContext {
  format: ExportFormat;
  chain: string;
  wallet: string;
  /** The chain's native coin (SOL, ETH, BNB, TRX, ...). */
  nativeSymbol: string;
  /** Currency label per mint (`currencyLabels`): the export must know every token before its first row. */
  labels: ReadonlyMap<string, string>;
}

interface Side {
  amount: string | null;
  currency: string;
  /** The token's mint or contract; null for the native coin. */
  mint: string | null;
}

/** One row: what left the wallet and what arrived, either side unknown (null). */
interface Exchange {
  blockTime: string;
  signature: string;
  kind: 'buy' | 'sell' | 'swap';
  sent: Side | null;
  received: Side | null;
  valueUsd: string | null;
  dex: string;
  note: string;
}

/**
 * The currency column of each token: its symbol, or `SYMBOL:first-8-of-mint` where two tokens of
 * the export share a symbol (compared without case, as tools match symbols) or a token takes the
 * native coin's symbol; the native coin keeps its plain symbol.
 */
export function currencyLabels(tokens: Iterable<{ token: string; tokenMint: string }>, nativeSymbol: string): Map<string, string> {
  const mintsBySymbol = new Map<string, Set<string>>();
  const symbolOf = new Map<string, string>();
  for (const t of tokens) {
    const symbol = t.token.trim() || 'TOKEN';
    symbolOf.set(t.tokenMint, symbol);
    const key = symbol.toUpperCase();
    let mints = mintsBySymbol.get(key);
    if (!mints) mintsBySymbol.set(key, (mints = new Set()));
    mints.add(t.tokenMint);
  }
  const labels = new Map<string, string>();
  for (const [mint, symbol] of symbolOf) {
    const key = symbol.toUpperCase();
    const clash = mintsBySymbol.get(key)!.size > 1 || key === nativeSymbol.toUpperCase() || symbol === 'TOKEN';
    labels.set(mint, clash ? `${symbol}:${mint.slice(0, 8)}` : symbol);
  }
  return labels;
}

/** RFC 4180 quoting; a cell starting = + - @ (a symbol anyone can mint) gets a ' so a spreadsheet never runs it as a formula. */
export function csvField(v: string | null | undefined): string {
  if (v === null || v === undefined) return '';
  let s = v;
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const pad = (n: number) => String(n).padStart(2, '0');
function dateParts(iso: string) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) throw new RangeError(`not a time: ${iso}`);
  return {
    ymd: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    mdy: `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`,
    hms: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
  };
}

function describe(e: Exchange, ctx: ExportContext): string {
  const part = (verb: string, s: Side | null) => (s ? `${verb} ${s.currency}${s.mint ? ` (${s.mint})` : ''}` : null);
  const what = [part('sold', e.sent), part('bought', e.received)].filter(Boolean).join(', ');
  return `${e.dex} on ${ctx.chain}: ${what}${e.note ? `; ${e.note}` : ''}`;
}

interface FormatSpec {
  header: readonly string[];
  row(e: Exchange, ctx: ExportContext): (string | null)[];
}

const FORMATS: Record<ExportFormat, FormatSpec> = {
  // Ours: every fact the trades hold, ISO times, the mints in their own columns.
  csv: {
    header: [
      'date',
      'type',
      'sent_amount',
      'sent_currency',
      'sent_token',
      'received_amount',
      'received_currency',
      'received_token',
      'value_usd',
      'dex',
      'signature',
      'note',
    ],
    row: (e) => [
      e.blockTime,
      e.kind,
      e.sent?.amount ?? null,
      e.sent?.currency ?? null,
      e.sent ? (e.sent.mint ?? 'native') : null,
      e.received?.amount ?? null,
      e.received?.currency ?? null,
      e.received ? (e.received.mint ?? 'native') : null,
      e.valueUsd,
      e.dex,
      e.signature,
      e.note || null,
    ],
  },
  // Koinly's Universal template; times in UTC. Net worth is the trade's USD value where known.
  koinly: {
    header: [
      'Date',
      'Sent Amount',
      'Sent Currency',
      'Received Amount',
      'Received Currency',
      'Fee Amount',
      'Fee Currency',
      'Net Worth Amount',
      'Net Worth Currency',
      'Label',
      'Description',
      'TxHash',
    ],
    row: (e, ctx) => {
      const d = dateParts(e.blockTime);
      return [
        `${d.ymd} ${d.hms} UTC`,
        e.sent?.amount ?? null,
        e.sent?.currency ?? null,
        e.received?.amount ?? null,
        e.received?.currency ?? null,
        null,
        null,
        e.valueUsd,
        e.valueUsd === null ? null : 'USD',
        null,
        describe(e, ctx),
        e.signature,
      ];
    },
  },
  // CoinTracker's CSV: exactly these eight columns (no description column exists), times in UTC.
  cointracker: {
    header: ['Date', 'Received Quantity', 'Received Currency', 'Sent Quantity', 'Sent Currency', 'Fee Amount', 'Fee Currency', 'Tag'],
    row: (e) => {
      const d = dateParts(e.blockTime);
      return [
        `${d.mdy} ${d.hms}`,
        e.received?.amount ?? null,
        e.received?.currency ?? null,
        e.sent?.amount ?? null,
        e.sent?.currency ?? null,
        null,
        null,
        null,
      ];
    },
  },
  // CoinTracking's CSV import: a trade is `Trade`; a row with one side known is a deposit or withdrawal.
  cointracking: {
    header: [
      'Type',
      'Buy Amount',
      'Buy Currency',
      'Sell Amount',
      'Sell Currency',
      'Fee',
      'Fee Currency',
      'Exchange',
      'Trade-Group',
      'Comment',
      'Date',
      'Tx-ID',
    ],
    row: (e, ctx) => {
      const d = dateParts(e.blockTime);
      const type = e.sent && e.received ? 'Trade' : e.received ? 'Deposit' : 'Withdrawal';
      return [
        type,
        e.received?.amount ?? null,
        e.received?.currency ?? null,
        e.sent?.amount ?? null,
        e.sent?.currency ?? null,
        null,
        null,
        `${ctx.chain} ${ctx.wallet}`,
        null,
        describe(e, ctx),
        `${d.ymd} ${d.hms}`,
        e.signature,
      ];
    },
  },
};

export function exportHeader(format: ExportFormat): string {
  return FORMATS[format].header.map(csvField).join(',') + '\r\n';
}

/** The rows of one transaction's legs (given in leg order). */
export function exchangesOf(legs: readonly ExportTrade[], ctx: ExportContext): Exchange[] {
  const token = (t: ExportTrade): Side => ({ amount: t.amount, currency: ctx.labels.get(t.tokenMint) ?? t.token, mint: t.tokenMint });
  const native = (t: ExportTrade): Side => ({ amount: t.amountSol, currency: ctx.nativeSymbol, mint: null });
  const base = (t: ExportTrade) => ({ blockTime: t.blockTime, signature: t.signature, dex: t.dex, valueUsd: t.valueUsd ?? null });
  const quantity = (t: ExportTrade) => (t.amount === null ? 'token quantity unknown' : '');
  // Legs with no native amount pair up, sell with buy, in leg order: a token-to-token swap.
  const sells = legs.filter((t) => t.amountSol === null && t.side === 'sell');
  const buys = legs.filter((t) => t.amountSol === null && t.side === 'buy');
  const partner = new Map<ExportTrade, ExportTrade>();
  for (let i = 0; i < Math.min(sells.length, buys.length); i++) partner.set(sells[i], buys[i]).set(buys[i], sells[i]);
  const out: Exchange[] = [];
  for (const t of legs) {
    const p = partner.get(t);
    if (p) {
      if (t.side === 'buy') continue; // written with its sell
      const notes = [quantity(t), quantity(p)].filter(Boolean).join('; ');
      out.push({ ...base(t), kind: 'swap', sent: token(t), received: token(p), valueUsd: t.valueUsd ?? p.valueUsd ?? null, note: notes });
    } else if (t.amountSol === null) {
      const note = [quantity(t), `the ${t.side === 'buy' ? 'amount paid' : 'amount received'} is unknown`].filter(Boolean).join('; ');
      out.push({ ...base(t), kind: t.side, sent: t.side === 'sell' ? token(t) : null, received: t.side === 'buy' ? token(t) : null, note });
    } else {
      const buy = t.side === 'buy';
      out.push({ ...base(t), kind: t.side, sent: buy ? native(t) : token(t), received: buy ? token(t) : native(t), note: quantity(t) });
    }
  }
  return out;
}

/**
 * A streaming writer: push trades oldest first (a transaction's legs in leg order, as the store
 * gives them), take the text it returns. A transaction's legs are held until the next transaction
 * starts (or `end`), so a swap is one row even when a read's chunk boundary cuts it.
 */
export function createExportWriter(ctx: ExportContext): { push(t: ExportTrade): string; end(): string } {
  const spec = FORMATS[ctx.format];
  let legs: ExportTrade[] = [];
  const flush = (): string => {
    let text = '';
    for (const e of exchangesOf(legs, ctx)) text += spec.row(e, ctx).map(csvField).join(',') + '\r\n';
    legs = [];
    return text;
  };
  return {
    push(t) {
      const text = legs.length && legs[0].signature !== t.signature ? flush() : '';
      legs.push(t);
      return text;
    },
    end: flush,
  };
}

/** A whole export at once (the dashboard's buttons; the server streams with createExportWriter). */
export function exportCsv(trades: readonly ExportTrade[], ctx: Omit<ExportContext, 'labels'>): string {
  const full: ExportContext = { ...ctx, labels: currencyLabels(trades, ctx.nativeSymbol) };
  const writer = createExportWriter(full);
  let text = exportHeader(ctx.format);
  for (const t of trades) text += writer.push(t);
  return text + writer.end();
}
