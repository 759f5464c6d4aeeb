import { HistoryError, isHistoryError, redactUrl } from '../core/errors.js';
import type { RetryPolicy } from '../rpc/http.js';
import { createHttpJsonClient } from '../rpc/http-json.js';
import { createMemoryCache } from '../core/chain-source.js';
import type { PricePoint, PriceSource, RoundCache, StoredRound } from './price-source.js';

/**
 * USD prices from a public exchange's one-minute candles (issue 22), the optional alternative to
 * the chains' feeds (PRICE_SOURCE=candles): Coinbase Exchange's market data,
 * `GET /products/<COIN>-USD/candles?granularity=60&start=&end=`, public, no key, answering
 * `[[time, low, high, open, close, volume], ...]` newest first, at most 300 candles a request.
 *
 * The price in force at a time is the open of its minute's candle (the first price of that
 * minute), else the close of the latest earlier candle of the same 5-hour window (a minute without
 * trades has no candle); null when the window has none before it. One request covers a window of
 * 300 minutes, whatever number of trades fall in it; candles read are kept like feed rounds and
 * never asked for again. A coin the exchange does not list (404) has no price; any other failure
 * fails the read (the history goes out with nulls, and a later read tries again).
 */
export interface CandleSourceOptions {
  coin: string;
  /** The API's origin, e.g. https://api.exchange.coinbase.com (PRICE_CANDLES_URL). */
  baseUrl: string;
  rounds?: RoundCache;
  fetch?: typeof fetch;
  /** Per request (default 15 s). */
  timeoutMs?: number;
  /** Milliseconds since the epoch (tests). */
  now?: () => number;
  /** The retry policy of its requests (tests shorten it). */
  retry?: RetryPolicy;
}

const MINUTE = 60;
const WINDOW_MINUTES = 300;
const WINDOW = WINDOW_MINUTES * MINUTE;
/** Windows fetched at once (the exchange allows about 10 public requests a second). */
const PARALLEL = 4;
/**
 * A candle is final a minute after its minute ends, a window five minutes after its last one:
 * before that a candle's close still moves and later minutes have no candle yet, so neither is
 * kept, and the window is asked again.
 */
const SETTLE_SECONDS = 300;

type Candle = { open: string; close: string };

/** A price as the exchange writes it (a JSON number), kept only when positive and finite. */
function priceText(v: unknown): string | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n) || n <= 0) return null;
  const s = typeof v === 'string' ? v.trim() : String(v);
  // Exponent forms (1e-7) as plain decimals, which the USD arithmetic takes.
  return /^\d+(\.\d+)?$/.test(s) ? s : n.toFixed(18).replace(/0+$/, '').replace(/\.$/, '');
}

export function createCandleSource(o: CandleSourceOptions): PriceSource {
  const cache = o.rounds ?? createMemoryCache<StoredRound>();
  const feedKey = `candles:${o.coin}-USD`;
  // The project's REST client (rpc/http-json.ts): its timeout, limiter and retries (429, 5xx).
  const http = createHttpJsonClient({ url: o.baseUrl, fetch: o.fetch, timeoutMs: o.timeoutMs ?? 15_000, maxInFlight: PARALLEL, ...o.retry });
  const nowSeconds = () => Math.floor((o.now ?? Date.now)() / 1000);
  const settled = (w: number) => (w + 1) * WINDOW + SETTLE_SECONDS <= nowSeconds();
  /** Minute start → candle, for the windows read in this process; windows read (or found empty) are not asked again. */
  const candles = new Map<number, Candle>();
  const windowsRead = new Set<number>();
  let unlisted = false;

  async function readWindow(w: number, signal?: AbortSignal): Promise<void> {
    const start = w * WINDOW;
    let body: unknown;
    try {
      body = await http.get(
        `/products/${o.coin}-USD/candles`,
        { granularity: MINUTE, start: new Date(start * 1000).toISOString(), end: new Date((start + WINDOW - MINUTE) * 1000).toISOString() },
        { signal },
      );
    } catch (e) {
      if (isHistoryError(e) && e.context.status === 404) {
        unlisted = true;
        return;
      }
      throw e;
    }
    if (!Array.isArray(body)) throw new HistoryError('rpc_malformed_response', `${o.coin}-USD candles from ${redactUrl(o.baseUrl)}: not a list of candles`);
    const fresh = new Map<string, StoredRound>();
    for (const row of body) {
      if (!Array.isArray(row) || typeof row[0] !== 'number') continue;
      const open = priceText(row[3]);
      const close = priceText(row[4]);
      const minute = row[0];
      if (!open || !close || minute % MINUTE !== 0 || minute < start || minute >= start + WINDOW) continue;
      candles.set(minute, { open, close });
      // Kept as a round once final: the open as its answer, the close after a space.
      if (minute + 2 * MINUTE <= nowSeconds()) fresh.set(String(minute), { answer: `${open} ${close}`, updatedAt: minute });
    }
    if (settled(w)) windowsRead.add(w);
    if (fresh.size) await cache.put(feedKey, fresh);
  }

  /** The window's candles from the store; true when it had any (a window with none is asked of the exchange). */
  async function fromStore(w: number): Promise<boolean> {
    const keys = Array.from({ length: WINDOW_MINUTES }, (_, i) => String(w * WINDOW + i * MINUTE));
    const kept = await cache.get(feedKey, keys);
    for (const [k, v] of kept) {
      const [open, close] = (v.answer ?? '').split(' ');
      if (open && close) candles.set(Number(k), { open, close });
    }
    if (kept.size && settled(w)) windowsRead.add(w);
    return kept.size > 0 && settled(w);
  }

  return {
    coin: o.coin,
    async pricesAt(times, signal) {
      if (unlisted) return times.map(() => null);
      const windows = [...new Set(times.map((t) => Math.floor(t / WINDOW)))].filter((w) => !windowsRead.has(w));
      const missing: number[] = [];
      for (const w of windows) if (!(await fromStore(w))) missing.push(w);
      for (let i = 0; i < missing.length; i += PARALLEL) await Promise.all(missing.slice(i, i + PARALLEL).map((w) => readWindow(w, signal)));
      if (unlisted) return times.map(() => null);
      return times.map((t): PricePoint | null => {
        const minute = t - (t % MINUTE);
        const own = candles.get(minute);
        if (own) return { price: own.open, roundTime: minute, round: String(minute) };
        for (let m = minute - MINUTE; m >= Math.floor(t / WINDOW) * WINDOW; m -= MINUTE) {
          const c = candles.get(m);
          if (c) return { price: c.close, roundTime: m + MINUTE, round: String(m) };
        }
        return null;
      });
    },
  };
}
