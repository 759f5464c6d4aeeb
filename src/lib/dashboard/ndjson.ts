/**
 * Reading the v1 stream without losing precision: each line's amount literals are quoted first
 * (core/amount-literals.ts), then `JSON.parse` is safe.
 */
import { quoteAmountLiterals } from '../core/amount-literals.js';
import type { StoredTrade } from './db.js';

export { quoteAmountLiterals };

/** Exponent-free, no trailing zeros: the canonical form of decisions.md; other forms are normalised. */
export function normalizeDecimalLiteral(s: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(s);
  if (!m) throw new SyntaxError(`not a number literal: ${s}`);
  let digits = m[2] + (m[3] ?? '');
  let point = m[2].length + Number(m[4] ?? 0);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits = digits.padEnd(point, '0');
  const whole = digits.slice(0, point).replace(/^0+/, '') || '0';
  const frac = digits.slice(point).replace(/0+$/, '');
  if (whole === '0' && !frac) return '0';
  return `${m[1]}${whole}${frac ? '.' + frac : ''}`;
}

export interface BatchLine {
  kind: 'batch';
  trades: StoredTrade[];
  cursor: string;
}
export interface FinalLine {
  kind: 'final';
  complete: boolean;
  tradeCount: number;
  wallet: string;
  firstTrade: string | null;
  cursor?: string;
  /** The decoder version of the wallet's stored trades when the line was written (a server that keeps one). */
  decoderVersion?: number;
  /** How many of the wallet's transactions the server lists as unexplained (a server that keeps them). */
  unexplained?: number;
  /** Why the server's load stopped, when it stopped on a failure (complete is false). */
  error?: { code: string; detail: string };
  /** include=usd: whether every trade sent came with its prices as they stand (false: read again later for them). */
  pricesComplete?: boolean;
  /** follow=true: the forward cursor at the newest trade the history part delivered (where the live lines start). */
  liveCursor?: string;
}
/**
 * follow=true, after the history: new trades oldest first (`trades`, maybe none: the 15 s
 * keep-alive) with the forward cursor past them, or the end line (`end`, after
 * FOLLOW_MAX_SECONDS) with the cursor to reopen from.
 */
export interface LiveLine {
  kind: 'live';
  trades: StoredTrade[];
  liveCursor: string;
  end: boolean;
  /** An end line's reason, when the server ended the stream on a refusal (a revoked key). */
  error?: { code: string; detail: string };
}
export type StreamLine = BatchLine | FinalLine;

function amountOf(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return normalizeDecimalLiteral(v);
  // A float slipped through (e.g. a hand-written test line): keep what JSON gave.
  if (typeof v === 'number') return normalizeDecimalLiteral(String(v));
  throw new SyntaxError(`bad amount: ${String(v)}`);
}

function failureOf(v: unknown): { code: string; detail: string } | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const e = v as Record<string, unknown>;
  return {
    code: typeof e.code === 'string' ? e.code : 'upstream_unavailable',
    detail: typeof e.detail === 'string' ? e.detail : 'The server stopped loading.',
  };
}

/** One NDJSON line of the history stream, amounts exact. */
export function parseStreamLine(line: string): StreamLine {
  const o = JSON.parse(quoteAmountLiterals(line)) as Record<string, unknown>;
  if ('complete' in o) {
    return {
      kind: 'final',
      complete: o.complete === true,
      tradeCount: Number(o.tradeCount ?? 0),
      wallet: String(o.wallet ?? ''),
      firstTrade: typeof o.firstTrade === 'string' ? o.firstTrade : null,
      cursor: typeof o.cursor === 'string' ? o.cursor : undefined,
      decoderVersion: Number.isSafeInteger(o.decoderVersion) ? (o.decoderVersion as number) : undefined,
      unexplained: Number.isSafeInteger(o.unexplained) ? (o.unexplained as number) : undefined,
      error: failureOf(o.error),
      pricesComplete: typeof o.pricesComplete === 'boolean' ? o.pricesComplete : undefined,
      liveCursor: typeof o.liveCursor === 'string' ? o.liveCursor : undefined,
    };
  }
  if (!Array.isArray(o.trades) || typeof o.cursor !== 'string') throw new SyntaxError('stream line without trades and cursor');
  return { kind: 'batch', trades: (o.trades as Record<string, unknown>[]).map(readTrade), cursor: o.cursor };
}

/** One line of a follow stream (follow=true): the history's lines, then live lines. */
export function parseFollowLine(text: string): StreamLine | LiveLine {
  const line = text.trimEnd();
  if (!line.endsWith('"live":true}') && !line.includes('"live":true,')) return parseStreamLine(line);
  const o = JSON.parse(quoteAmountLiterals(line)) as Record<string, unknown>;
  if (o.live !== true || typeof o.liveCursor !== 'string') throw new SyntaxError('live line without liveCursor');
  const trades = Array.isArray(o.trades) ? (o.trades as Record<string, unknown>[]).map(readTrade) : [];
  const e = o.error as { code?: unknown; detail?: unknown } | undefined;
  const error = e && typeof e.code === 'string' ? { code: e.code, detail: String(e.detail ?? e.code) } : undefined;
  return { kind: 'live', trades, liveCursor: o.liveCursor, end: o.end === true, ...(error && { error }) };
}

/** One trade of a stream line or a page, as JSON.parse gave it after quoteAmountLiterals: amounts exact. */
export function readTrade(t: Record<string, unknown>): StoredTrade {
  const out: StoredTrade = {
    signature: String(t.signature),
    side: t.side === 'sell' ? 'sell' : 'buy',
    token: String(t.token ?? ''),
    tokenMint: String(t.tokenMint),
    amountSol: amountOf(t.amountSol),
    amount: amountOf(t.amount),
    dex: String(t.dex ?? ''),
    blockTime: String(t.blockTime),
  };
  // include=usd (issue 22): the two figures, exact like the amounts.
  if ('nativeUsd' in t) out.nativeUsd = amountOf(t.nativeUsd);
  if ('valueUsd' in t) out.valueUsd = amountOf(t.valueUsd);
  return out;
}

/** Splits a byte stream into lines (TextDecoder with stream: true; toolchain.md: no TextDecoderStream under TS 6). */
export async function* readLines(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // The unfinished line as its chunks. A stored history can arrive as one line of tens of MB in
  // 16-64 KB chunks: appending to one string and searching it again on every chunk flattens and
  // rescans it each time (measured: 10 s for a 20 MB line); searching only the new chunk is linear.
  let parts: string[] = [];
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  const take = (): string => {
    const line = (parts.length === 1 ? parts[0] : parts.join('')).trim();
    parts = [];
    return line;
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      let start = 0;
      let nl: number;
      while ((nl = text.indexOf('\n', start)) >= 0) {
        parts.push(text.slice(start, nl));
        start = nl + 1;
        const line = take();
        if (line) yield line;
      }
      if (start < text.length) parts.push(text.slice(start));
      if (done) break;
    }
    if (parts.length) {
      const line = take();
      if (line) yield line;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}
