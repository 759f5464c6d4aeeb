/**
 * The trade rules of decisions.md applied to one route, for every chain whose venues are
 * contracts that emit events (EVM and Tron): the chain's decoder says which contracts are
 * venues (pools), what tokens moved (Transfer logs, in emission order) and how much native coin
 * each venue took in or paid out (wrapped-native transfers, a venue's own event, TRX moved by
 * internal transactions); this turns that into the wallet's sells and buys.
 *
 *  - the token amount is the wallet's own net flow of a token it exchanged with the venue side
 *    (so fee-on-transfer tokens come out as what reached or left the wallet);
 *  - the native amount is what the venues took in (buy) or paid out (sell): refunds, gas, a
 *    router's or wallet's fee never enter it;
 *  - a swap between two non-native tokens is a sell and a buy: the sell's native figure is what
 *    its venues paid out, the buy's what its venues took in (equal unless something was taken
 *    between the legs), null for a route with no native leg.
 */

export interface TokenFlow {
  /** Token contract, in the chain decoder's address form (lowercase). */
  token: string;
  from: string;
  to: string;
  value: bigint;
}

/** Native coin a venue took in (value > 0) or paid out (value < 0). */
export interface NativeMove {
  pool: string;
  value: bigint;
}

export interface RouteInput<K extends string> {
  wallet: string;
  /** Venues of the route: contracts that emitted a swap event, with their event kind. */
  pools: ReadonlyMap<string, K>;
  /** Fungible token transfers, in emission order. */
  flows: readonly TokenFlow[];
  /** Tokens that are the native side (the wrapped native coin): never traded themselves. */
  nativeTokens: ReadonlySet<string>;
  native: readonly NativeMove[];
  /**
   * The wallet's net amount of a token as a venue's own event states it (positive: received),
   * for venues whose token moves leave no Transfer the wallet is part of (a bonding curve that
   * mints to the buyer without a log in the capture). A Transfer flow, when there is one, wins.
   */
  claims?: ReadonlyMap<string, { net: bigint; pool: string }>;
}

export interface RouteTrade<K extends string> {
  side: 'buy' | 'sell';
  token: string;
  amountRaw: bigint;
  /** Native amount in the chain's smallest unit, or null when the route has no native leg. */
  nativeRaw: bigint | null;
  /** The venue that delivered (buy) or took (sell) the token. */
  pool: string;
  poolKind: K;
}

/** The wallet's trades on one route, in leg order (sells, then buys). */
export function routeTrades<K extends string>({ wallet, pools, flows, nativeTokens, native, claims }: RouteInput<K>): RouteTrade<K>[] {
  if (pools.size === 0) return [];

  // The venue side of the route: the pools and whoever paid into or was paid by them (routers,
  // aggregator executors). A token counts only when the wallet exchanged it with one of these:
  // a plain transfer to a friend during which a tax token swaps its fees is not a trade.
  const venue = new Set<string>(pools.keys());
  for (const f of flows) {
    if (pools.has(f.to)) venue.add(f.from);
    if (pools.has(f.from)) venue.add(f.to);
  }
  venue.delete(wallet);
  // A token contract is never the venue: tax tokens swap their collected fees from their own balance.
  for (const f of flows) if (!pools.has(f.token)) venue.delete(f.token);

  // Wallet's net flow per token (all of it: transfer fees and commissions included), first-seen order.
  const net = new Map<string, bigint>();
  const withVenue = new Set<string>();
  const claimPool = new Map<string, string>();
  for (const f of flows) {
    if (nativeTokens.has(f.token) || pools.has(f.token)) continue; // the native side; LP tokens are not traded
    if (f.from === wallet && f.to === wallet) continue;
    if (f.from === wallet) {
      net.set(f.token, (net.get(f.token) ?? 0n) - f.value);
      if (venue.has(f.to)) withVenue.add(f.token);
    } else if (f.to === wallet) {
      net.set(f.token, (net.get(f.token) ?? 0n) + f.value);
      if (venue.has(f.from)) withVenue.add(f.token);
    }
  }
  for (const [token, c] of claims ?? []) {
    if (net.has(token)) continue;
    net.set(token, c.net);
    withVenue.add(token);
    claimPool.set(token, c.pool);
  }
  const sold: string[] = [];
  const bought: string[] = [];
  for (const [t, v] of net) {
    if (!withVenue.has(t) || v === 0n) continue;
    (v < 0n ? sold : bought).push(t);
  }
  if (sold.length === 0 && bought.length === 0) return [];

  // Native taken in minus paid out by the venues, per venue and in all, and the gross amounts.
  const perPool = new Map<string, bigint>();
  let netIn = 0n;
  let grossIn = 0n;
  let grossOut = 0n;
  for (const m of native) {
    if (m.value === 0n) continue;
    perPool.set(m.pool, (perPool.get(m.pool) ?? 0n) + m.value);
    netIn += m.value;
    if (m.value > 0n) grossIn += m.value;
    else grossOut -= m.value;
  }
  const positive = (v: bigint) => (v > 0n ? v : null);

  // The pool adjacent to the token: the one that sent it (buy) or received it (sell).
  const poolFor = (token: string, side: 'buy' | 'sell'): string => {
    const seq = flows.filter((f) => f.token === token && pools.has(side === 'buy' ? f.from : f.to));
    const f = side === 'buy' ? seq[seq.length - 1] : seq[0];
    return f ? (side === 'buy' ? f.from : f.to) : (claimPool.get(token) ?? [...pools.keys()][0]);
  };

  const trades: RouteTrade<K>[] = [];
  const tokenToToken = sold.length > 0 && bought.length > 0;
  for (const side of ['sell', 'buy'] as const) {
    const list = side === 'sell' ? sold : bought;
    for (const token of list) {
      const pool = poolFor(token, side);
      const poolNetIn = perPool.get(pool) ?? 0n;
      let nativeRaw: bigint | null;
      if (tokenToToken) nativeRaw = positive(side === 'sell' ? grossOut : grossIn);
      else if (list.length === 1) nativeRaw = positive(side === 'buy' ? netIn : -netIn);
      else nativeRaw = positive(side === 'buy' ? poolNetIn : -poolNetIn);
      const v = net.get(token)!;
      trades.push({ side, token, amountRaw: v < 0n ? -v : v, nativeRaw, pool, poolKind: pools.get(pool)! });
    }
  }
  return trades;
}
