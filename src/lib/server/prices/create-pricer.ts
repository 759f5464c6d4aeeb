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

export function createPricer({ prices, waitMs, log, now = Date.now }: CreatePricerParameters): Pricer {
  const wanted = new Map<number, number>();
  /** Per coin: times waiting for the background, and whether its pass runs. */
  const queues = new Map<string, { times: Set<number>; running: boolean }>();
  let lastFailureLog = 0;

  function background(coin: string, times: readonly number[]): void {
    let q = queues.get(coin);
    if (!q) queues.set(coin, (q = { times: new Set(), running: false }));
    for (const t of times) q.times.add(t);
    if (q.running) return;
    q.running = true;
    const queue = q;
    void (async () => {
      // One pass at a time per coin, each taking every time queued meanwhile: a walk's batches
      // arrive faster than a feed answers, and one pass over many times costs about as much as one.
      while (queue.times.size) {
        const batch = [...queue.times];
        queue.times.clear();
        await prices.pricesAt(coin, batch).catch((e: unknown) => {
          // A price RPC that is down: the reads send nulls and price again; one line a minute here.
          if (now() - lastFailureLog > 60_000) {
            lastFailureLog = now();
            log?.(`pricing ${coin} failed: ${(e as Error)?.message ?? e}`);
          }
        });
      }
      queue.running = false;
    })();
  }

  return {
    async pricesWithin(coin, times) {
      if (!times.length) return [];
      const priced = prices.pricesAt(coin, times).catch(() => null);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)));
      try {
        return await Promise.race([priced, late]);
      } finally {
        clearTimeout(timer);
      }
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
      background(coin, [...new Set(trades.map((t) => unixSeconds(t.blockTime)))]);
    },
  };
}
