import type { SourceTrade } from '../../core/trade.js';
import type { PriceService } from '../../prices/price-service.js';
import type { PricePoint } from '../../prices/price-source.js';
import { unixSeconds } from '../../prices/usd-run.js';

/**
 * Prices for `include=usd` on the server (issue 22). A read waits for its trades' prices at most
 * PRICE_WAIT_MS, and the pricing it started goes on after that, so the next read finds the rounds
 * stored. A wallet whose USD values were asked for has its trades priced in the background as they
 * are stored (for an hour after the last such read), so a stream's later lines seldom wait at all.
 */
export interface Pricer {
  /** The coin's prices at `times`, or null when they were not had within the wait (or failed). */
  pricesWithin(coin: string, times: readonly number[]): Promise<(PricePoint | null)[] | null>;
  /** A read with `include=usd` of this wallet: its trades stored from now on are priced as they come. */
  want(walletId: number): void;
  /** Trades just stored for a wallet (every commit of every walk). */
  stored(coin: string, walletId: number, trades: readonly SourceTrade[]): void;
}

export interface CreatePricerParameters {
  prices: PriceService;
  waitMs: number;
  log?: (line: string) => void;
  now?: () => number;
}

/** A wallet's stored trades are priced as they come for this long after a read asked for USD. */
const WANT_MS = 3_600_000;
/** At most this many wallets are remembered as wanting USD (the oldest ask is forgotten first). */
const MAX_WANTED = 10_000;

/** A pass of a coin's queue: resolves true when the feed answered for every time it took. */
interface Deferred {
  promise: Promise<boolean>;
  resolve(ok: boolean): void;
}
function deferred(): Deferred {
  let resolve!: (ok: boolean) => void;
  const promise = new Promise<boolean>((r) => (resolve = r));
  return { promise, resolve };
}

/** `p`, or `fallback` once `ms` have passed. */
async function within<T, F>(p: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), Math.max(0, ms))));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function createPricer({ prices, waitMs, log, now = Date.now }: CreatePricerParameters): Pricer {
  const wanted = new Map<number, number>();
  /**
   * Per coin, one pass at a time over every time queued meanwhile, for the reads and the
   * background alike: a walk's batches and many readers' lines arrive faster than a feed answers,
   * one pass over many times costs about as much as one, and a slow or dead RPC then sees one
   * search at a time, not one per line.
   */
  const queues = new Map<string, { times: Set<number>; running: boolean; next: Deferred }>();
  let lastFailureLog = 0;

  function schedule(coin: string, times: readonly number[]): Promise<boolean> {
    let q = queues.get(coin);
    if (!q) queues.set(coin, (q = { times: new Set(), running: false, next: deferred() }));
    for (const t of times) q.times.add(t);
    const pass = q.next.promise;
    if (!q.running) {
      q.running = true;
      const queue = q;
      void (async () => {
        while (queue.times.size) {
          const batch = [...queue.times];
          queue.times = new Set();
          const done = queue.next;
          queue.next = deferred();
          const ok = await prices.pricesAt(coin, batch).then(
            () => true,
            (e: unknown) => {
              // A price RPC that is down: the reads send nulls and ask again; one line a minute here.
              if (now() - lastFailureLog > 60_000) {
                lastFailureLog = now();
                log?.(`pricing ${coin} failed: ${(e as Error)?.message ?? e}`);
              }
              return false;
            },
          );
          done.resolve(ok);
        }
        queue.running = false;
      })();
    }
    return pass;
  }

  return {
    async pricesWithin(coin, times) {
      if (!times.length) return [];
      const started = now();
      if (!(await within(schedule(coin, times), waitMs, false))) return null;
      // The pass read every round these times need: this answers from memory.
      return within(
        prices.pricesAt(coin, times).catch(() => null),
        waitMs - (now() - started),
        null,
      );
    },
    want(walletId) {
      wanted.delete(walletId);
      wanted.set(walletId, now() + WANT_MS);
      if (wanted.size > MAX_WANTED) wanted.delete(wanted.keys().next().value!);
    },
    stored(coin, walletId, trades) {
      const until = wanted.get(walletId);
      if (until === undefined || !trades.length) return;
      if (until < now()) {
        wanted.delete(walletId);
        return;
      }
      void schedule(coin, [...new Set(trades.map((t) => unixSeconds(t.blockTime)))]);
    },
  };
}
