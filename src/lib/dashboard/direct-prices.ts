import { createMemoryCache } from '../core/chain-source.js';
import type { SourceTrade } from '../core/trade.js';
import { BUILT_IN_FEEDS } from '../prices/feeds.js';
import { createPriceService, type PriceService } from '../prices/price-service.js';
import type { StoredRound } from '../prices/price-source.js';
import { unixSeconds } from '../prices/usd-run.js';
import { usdOfTransaction } from '../prices/usd-values.js';
import type { TradeUsd } from './db.js';
import type { LoadRequest } from './loader.js';

/**
 * Direct mode's USD figures (issue 22), in the worker, through the server's code: the native coin's
 * Chainlink feed read over the RPC the person gave, where that chain carries the coin's feed
 * (ETH on Ethereum: an `eth` wallet is priced; a chain whose feed lives elsewhere, SOL's on
 * Ethereum, has no price here, its stablecoin legs still do). Rounds are kept for the worker's life.
 */
export interface DirectPricesOptions {
  /** The native symbol of a chain by slug (the /v1/chains list the page sent). */
  nativeSymbolOf(chain: string): string | undefined;
  /** A batch's prices wait no longer than this (a slow feed must not hold the walk). */
  timeoutMs?: number;
}

export function createDirectPrices(o: DirectPricesOptions): (req: LoadRequest, trades: readonly SourceTrade[]) => Promise<TradeUsd[] | null> {
  const rounds = createMemoryCache<StoredRound>();
  const services = new Map<string, PriceService>();
  const serviceFor = (req: LoadRequest): PriceService => {
    const key = `${req.chain} ${req.rpcUrl}`;
    let s = services.get(key);
    if (!s) services.set(key, (s = createPriceService({ feeds: BUILT_IN_FEEDS, rpcUrlOf: (chain) => (chain === req.chain ? req.rpcUrl : undefined), rounds })));
    return s;
  };
  return async (req, trades) => {
    const coin = o.nativeSymbolOf(req.chain);
    const times = [...new Set(trades.map((t) => unixSeconds(t.blockTime)))];
    let points;
    try {
      points = coin ? await serviceFor(req).pricesAt(coin, times, AbortSignal.timeout(o.timeoutMs ?? 10_000)) : times.map(() => null);
    } catch {
      return null;
    }
    const at = new Map(times.map((t, i) => [t, points[i]]));
    const bySignature = new Map<string, SourceTrade[]>();
    for (const t of trades) bySignature.set(t.signature, [...(bySignature.get(t.signature) ?? []), t]);
    const out = new Map<SourceTrade, TradeUsd>();
    for (const legs of bySignature.values()) {
      const point = at.get(unixSeconds(legs[0].blockTime)) ?? null;
      const figures = usdOfTransaction(req.chain, legs, point?.price ?? null);
      legs.forEach((t, i) => out.set(t, { ...figures[i], priceTime: point?.roundTime ?? null }));
    }
    return trades.map((t) => out.get(t)!);
  };
}
