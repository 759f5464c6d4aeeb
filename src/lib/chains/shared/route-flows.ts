/**
 * The trade rules of decisions.md ("Trades", "Real routes on EVM") and ROUTES.md applied to one
 * transaction read as a flow graph, for any chain whose fungible movements can be listed (EVM
 * today; Tron can move here from route-trades.ts). The chain's decoder lists the movements (token
 * transfers, the native coin and its wrapped form as one asset, `NATIVE`; a mint as a movement from
 * the token's own contract, a burn as one to it) and the venues it recognises by their events, with
 * the hops their events state; this finds the wallet's sells and buys at any depth of the route.
 *
 * Roles, from each account's net per asset:
 *  - **venue**: a recognised one, or any account that took one asset from the route and gave it
 *    another (market makers fill from plain wallets), its hop being its net flow;
 *  - **conversion**: a token's own contract that took other assets and gave only its own token, or
 *    took only its own token back (a wrap, vault shares, an LP token; the unwraps and redemptions):
 *    never a venue (receipt tokens are no trades), but a route passes through it changed;
 *  - **pass-through**: any other account that receives an asset and sends it on (routers,
 *    executors, front ends, flash wallets); what it keeps is a fee. A token sent to its own
 *    contract is gone (a burn, a tax token's fee): tax tokens swapping their fees are no route.
 *
 * Trades, per token the wallet's net moved (never the native coin):
 *  - **sell** of T: T followed from the wallet reached a venue, T was not first paid back by its own
 *    contract (a withdrawal, a liquidity remove), and the route's output came back (R8): most of
 *    some output asset reached the wallet, or native coin left where no movement shows (`unseen`:
 *    how a sale for the native coin looks without a call trace), or a venue's output cannot be read;
 *  - **buy** of B: B followed back from the wallet came from a venue, not only from receipts the
 *    wallet paid back (a collateral swap), the wallet got most of what the venues delivered (not a
 *    zap's dust), and not bought with native coin while the wallet received native and gave
 *    nothing (a swap by others paying it);
 *  - **amount**: the wallet's net (transfer fees and input commissions included);
 *  - **native figure**: a sell's is what its venues paid the route in native coin (the hops reached
 *    before it, net of native they took), a buy's what its venues took from the route (back to the
 *    native coin; a fee a venue skims is part of its price, a fee it pays out is not). Token to
 *    token, both keep them only when every path from the sold token to the bought one crosses the
 *    native coin (R5), else null;
 *  - **venue**: the one that took (sell) or delivered (buy) the larger share (the first on a tie).
 * Sells come before buys, each in the order of the wallet's first movement of the token (R9).
 */

/** The native coin and its wrapped form, one asset in the flow graph. */
export const NATIVE = 'native';

export interface Movement {
  /** Token address in the chain decoder's form, or NATIVE. */
  asset: string;
  from: string;
  to: string;
  amount: bigint;
}

/** One swap of a venue as its own event states it: what it took in from the route and gave out. */
export interface Hop {
  in: ReadonlyMap<string, bigint>;
  out: ReadonlyMap<string, bigint>;
}

export interface FlowVenue<K extends string> {
  kind: K;
  /** Hops as the venue's events state them; without, the venue's one hop is its net flow. */
  hops?: readonly Hop[];
  /** Some of the venue's swaps could not be read (a pool key not found): what they moved is unknown. */
  opaque?: boolean;
}

export interface FlowInput<K extends string> {
  /** The trader (lowercase). */
  wallet: string;
  /** Fungible movements in emission order, the wrapped native coin already written as NATIVE. */
  movements: readonly Movement[];
  /** Venues recognised by their events. */
  venues: ReadonlyMap<string, FlowVenue<K>>;
  /** Kind given to a venue recognised by its flows alone. */
  inferredKind: K;
  /** Accounts that are never venues nor pass-throughs (the zero address, the wrapped native contract). */
  never: ReadonlySet<string>;
  /** The account that stands for "left where no movement shows" (native coin an unwrap sent on, without a call trace). */
  unseen?: string;
}

export interface FlowTrade<K extends string> {
  side: 'buy' | 'sell';
  token: string;
  amountRaw: bigint;
  /** In the native coin's smallest unit, or null when the route has no (whole) native leg. */
  nativeRaw: bigint | null;
  /** The venue that took (sell) or delivered (buy) the larger share of the token. */
  pool: string;
  poolKind: K;
  /** Every account the token's route passed through, venues included. */
  route: ReadonlySet<string>;
}

interface GraphVenue<K extends string> {
  kind: K;
  hops: Hop[];
  opaque: boolean;
  /** Its hop is its net flow (no event states it). */
  byFlows: boolean;
}

interface Graph<K extends string> {
  wallet: string;
  venues: Map<string, GraphVenue<K>>;
  unseen: string | undefined;
  conversions: Map<string, Hop>;
  never: ReadonlySet<string>;
  /** Movements by `from|asset` and `to|asset`. */
  outOf: Map<string, Movement[]>;
  into: Map<string, Movement[]>;
}

const key = (account: string, asset: string) => `${account}|${asset}`;

const addTo = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);

function push<V>(m: Map<string, V[]>, k: string, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** A net below 1/DUST_SHARE of what went through an account in that asset is rounding, not a side of a swap. */
const DUST_SHARE = 1_000n;

/** What went through each account per asset (`account|asset`): the larger of what it took in and gave out. */
function throughputs(movements: readonly Movement[]): Map<string, bigint> {
  const into = new Map<string, bigint>();
  const out = new Map<string, bigint>();
  for (const m of movements) {
    if (m.from === m.to || m.amount === 0n) continue;
    addTo(out, key(m.from, m.asset), m.amount);
    addTo(into, key(m.to, m.asset), m.amount);
  }
  for (const [k, v] of out) if (v > (into.get(k) ?? 0n)) into.set(k, v);
  return into;
}

/** Each account's net per asset (positive: took in). */
function netsOf(movements: readonly Movement[]): Map<string, Map<string, bigint>> {
  const nets = new Map<string, Map<string, bigint>>();
  const add = (account: string, asset: string, v: bigint) => {
    let m = nets.get(account);
    if (!m) nets.set(account, (m = new Map()));
    m.set(asset, (m.get(asset) ?? 0n) + v);
  };
  for (const m of movements) {
    if (m.from === m.to || m.amount === 0n) continue;
    add(m.from, m.asset, -m.amount);
    add(m.to, m.asset, m.amount);
  }
  return nets;
}

/**
 * A venue's one hop from its net flow: what it took in and what it gave out. Its own token (a
 * pool's LP token minted or burnt in the same transaction) is not part of a swap.
 */
function netHop(account: string, net: ReadonlyMap<string, bigint> | undefined): Hop {
  const inn = new Map<string, bigint>();
  const out = new Map<string, bigint>();
  for (const [asset, v] of net ?? []) {
    if (asset === account) continue;
    if (v > 0n) inn.set(asset, v);
    else if (v < 0n) out.set(asset, -v);
  }
  return { in: inn, out };
}

/**
 * What a venue's flows show beyond the hops its events state, when it is more of the same (it took
 * more of what it took, gave more of what it gave): a swap its events do not state as one (a Curve
 * add_liquidity and remove_liquidity_one_coin in one route). A difference that contradicts the
 * flows (the native side of a hop, which no log moves) is not one.
 */
function residualHop(account: string, net: ReadonlyMap<string, bigint> | undefined, hops: readonly Hop[]): Hop | null {
  const stated = new Map<string, bigint>();
  for (const h of hops) {
    for (const [a, v] of h.in) stated.set(a, (stated.get(a) ?? 0n) + v);
    for (const [a, v] of h.out) stated.set(a, (stated.get(a) ?? 0n) - v);
  }
  const inn = new Map<string, bigint>();
  const out = new Map<string, bigint>();
  for (const a of new Set([...(net?.keys() ?? []), ...stated.keys()])) {
    if (a === account) continue;
    const n = net?.get(a) ?? 0n;
    const r = n - (stated.get(a) ?? 0n);
    if (r === 0n) continue;
    if ((r > 0n && n <= 0n) || (r < 0n && n >= 0n)) return null;
    if (r > 0n) inn.set(a, r);
    else out.set(a, -r);
  }
  return inn.size && out.size ? { in: inn, out } : null;
}

/**
 * A token's own contract that took other assets and gave only its own token (a wrap, a deposit
 * against shares, a liquidity add), or took only its own token back (an unwrap, a redemption):
 * a conversion, never a venue (decisions.md: receipt tokens minted or burnt against a deposit are
 * not trades). Deeper in a route the asset passes through it changed (stETH wrapped into wstETH
 * on its way to a pool).
 */
function isConversion(account: string, hop: Hop): boolean {
  const only = (m: ReadonlyMap<string, bigint>) => m.size > 0 && [...m.keys()].every((a) => a === account);
  return only(hop.out) || only(hop.in);
}

function buildGraph<K extends string>(input: FlowInput<K>, nets: Map<string, Map<string, bigint>>): Graph<K> {
  const { wallet, movements } = input;
  const venues = new Map<string, GraphVenue<K>>();
  const conversions = new Map<string, Hop>();
  for (const [a, v] of input.venues) {
    if (a === wallet) continue;
    const hops = v.hops ? [...v.hops] : [netHop(a, nets.get(a))];
    const rest = v.hops && !v.opaque ? residualHop(a, nets.get(a), v.hops) : null;
    if (rest) hops.push(rest);
    venues.set(a, { kind: v.kind, hops, opaque: v.opaque ?? false, byFlows: !v.hops });
  }
  const through = throughputs(movements);
  for (const [a, net] of nets) {
    if (a === wallet || input.never.has(a) || venues.has(a)) continue;
    let took = false;
    let gave = false;
    for (const [asset, v] of net) {
      // A side counts when it is more than rounding: an executor that kept a wei of one token and
      // paid a wei of another from its balance (seen on a 1,147 USDC ParaSwap route) swapped nothing.
      if (v === 0n || (v < 0n ? -v : v) * DUST_SHARE < (through.get(key(a, asset)) ?? 0n)) continue;
      if (v > 0n) took = true;
      else gave = true;
    }
    if (!took || !gave) continue;
    const whole: Hop = { in: new Map([...net].filter(([, v]) => v > 0n)), out: new Map([...net].filter(([, v]) => v < 0n).map(([k, v]) => [k, -v])) };
    if (isConversion(a, whole)) conversions.set(a, whole);
    else venues.set(a, { kind: input.inferredKind, hops: [netHop(a, net)], opaque: false, byFlows: true });
  }

  const outOf = new Map<string, Movement[]>();
  const into = new Map<string, Movement[]>();
  for (const m of movements) {
    if (m.from === m.to || m.amount === 0n) continue;
    push(outOf, key(m.from, m.asset), m);
    push(into, key(m.to, m.asset), m);
  }
  return { wallet, venues, conversions, never: input.never, unseen: input.unseen, outOf, into };
}

/** What following one token from (or back to) the wallet found. */
interface Walk {
  /** First venues on the token's path, with the amount of the token they took or delivered. */
  venues: Map<string, bigint>;
  counted: Set<Movement>;
  /** Native coin the hops reached before any native coin paid out (sell) or took in (buy), gross. */
  nativeOut: bigint;
  nativeIn: bigint;
  sawNative: boolean;
  /** A path joined the token to another of the wallet's tokens without crossing the native coin. */
  tokenPath: boolean;
  /** The route's output came back to the wallet (a sell; always true for a buy). */
  outputBack: boolean;
  /** A buy funded only by the wallet's own receipt tokens paid back by their contracts. */
  depositFunded: boolean;
  /** A sell whose token went back to its own contract first (a withdrawal, a liquidity remove). */
  redeemed: boolean;
  route: Set<string>;
}

interface Step {
  account: string;
  asset: string;
  /** The native coin has been crossed on the way here. */
  viaNative: boolean;
  /** No venue has been passed yet: the asset is still the wallet's own token. */
  first: boolean;
}

interface BackStep extends Step {
  /** A token's own contract minted or paid back the asset on the way here. */
  viaConversion: boolean;
}

/** A movement of the token to (or from) a first venue, counted once however many paths reach it. */
function share(w: Walk, venue: string, m: Movement): void {
  if (w.counted.has(m)) return;
  w.counted.add(m);
  w.venues.set(venue, (w.venues.get(venue) ?? 0n) + m.amount);
}

const newWalk = (): Walk => ({
  counted: new Set(),
  venues: new Map(),
  nativeOut: 0n,
  nativeIn: 0n,
  sawNative: false,
  tokenPath: false,
  outputBack: false,
  depositFunded: false,
  redeemed: false,
  route: new Set(),
});

/**
 * Native coin a venue known by its flows paid to the route: not what it sent to an account that
 * keeps it (a market maker's protocol fee to its exchange's fee account), unless that is all.
 */
function paidToRoute<K extends string>(g: Graph<K>, venue: string, out: bigint): bigint {
  const routed = nativeToRoute(g, venue);
  return routed > 0n && routed < out ? routed : out;
}

/** Native coin a venue sent to accounts of the route (not to one that keeps it: a fee account). */
function nativeToRoute<K extends string>(g: Graph<K>, venue: string): bigint {
  let routed = 0n;
  for (const m of g.outOf.get(key(venue, NATIVE)) ?? []) {
    const a = m.to;
    if (a === g.wallet || a === g.unseen || g.venues.has(a) || g.conversions.has(a) || g.outOf.has(key(a, NATIVE))) routed += m.amount;
  }
  return routed;
}

/**
 * Native coin a venue known by its flows took in from the route: all it received, less what it
 * sent back to the route; a fee it skims to an account of its own (a pool's community fee) is
 * part of its price.
 */
function tookFromRoute<K extends string>(g: Graph<K>, venue: string, net: bigint): bigint {
  let took = 0n;
  for (const m of g.into.get(key(venue, NATIVE)) ?? []) took += m.amount;
  took -= nativeToRoute(g, venue);
  return took > net ? took : net;
}

/** Follows token `token` from the wallet forward: pass-throughs, venues, their outputs, at any depth. */
function walkForward<K extends string>(g: Graph<K>, token: string): Walk {
  const w = newWalk();
  const seen = new Set<string>();
  const entered = new Set<string>();
  const queue: Step[] = [{ account: g.wallet, asset: token, viaNative: false, first: true }];
  /** Output that reached the wallet (or left where no movement shows, for the native coin) and output that stopped elsewhere, per asset. */
  const back = new Map<string, bigint>();
  const sunk = new Map<string, bigint>();
  const sink = (asset: string, amount: bigint) => addTo(sunk, asset, amount);
  let lenient = false;

  /** The asset reached a venue: by a movement (`arrived`), or as the output of one of its own hops. */
  const enter = (venue: string, asset: string, viaNative: boolean, arrived: boolean) => {
    const v = g.venues.get(venue)!;
    const hops = v.hops.filter((h) => (h.in.get(asset) ?? 0n) > 0n);
    // Once per venue and asset, however many paths bring the asset there.
    const k = key(venue, asset) + (viaNative ? '|n' : '') + (hops.length ? '' : '|a');
    if ((hops.length === 0 && !arrived) || entered.has(k)) return;
    entered.add(k);
    w.route.add(venue);
    if (hops.length === 0) {
      // A venue that sent the asset on kept none of it: a pass-through for it.
      if (g.outOf.has(key(venue, asset))) queue.push({ account: venue, asset, viaNative, first: false });
      // What the venue did with it cannot be seen: its output may well reach the wallet.
      else if (v.opaque) lenient = true;
      return;
    }
    // A venue that took the asset and gave nothing for it (a liquidity add on a pool that swapped too).
    if (arrived && hops.every((h) => h.out.size === 0))
      sink(
        asset,
        hops.reduce((t, h) => t + (h.in.get(asset) ?? 0n), 0n),
      );
    for (const h of hops) {
      for (const [b, amount] of h.out) {
        if (b === asset) continue;
        if (b === NATIVE) {
          if (!viaNative) {
            w.nativeOut += v.byFlows ? paidToRoute(g, venue, amount) : amount;
            w.nativeIn += h.in.get(NATIVE) ?? 0n;
            w.sawNative = true;
          }
          // Native coin paid where no movement shows (a V4 take, a Vault's unwrap) reaches the wallet (R8).
          const shown = g.outOf.has(key(venue, NATIVE)) || v.hops.some((x) => x !== h && (x.in.get(NATIVE) ?? 0n) > 0n);
          if (!shown) addTo(back, NATIVE, amount);
        }
        const via = viaNative || b === NATIVE;
        queue.push({ account: venue, asset: b, viaNative: via, first: false });
        enter(venue, b, via, false);
      }
    }
  };

  while (queue.length) {
    const s = queue.shift()!;
    const k = key(s.account, s.asset) + (s.viaNative ? '|n' : '') + (s.first ? '|f' : '');
    if (seen.has(k)) continue;
    seen.add(k);
    for (const m of g.outOf.get(key(s.account, s.asset)) ?? []) {
      const to = m.to;
      if (to === g.wallet) {
        if (s.asset !== token) {
          addTo(back, s.asset, m.amount);
          if (!s.viaNative && s.asset !== NATIVE) w.tokenPath = true;
        }
        continue;
      }
      if (g.never.has(to)) {
        if (!s.first) sink(s.asset, m.amount);
        continue;
      }
      const conversion = g.conversions.get(to);
      if (conversion) {
        // A wrap or a deposit, or an unwrap or a redemption: what it gave for the asset goes on from
        // there. A token sent to its own contract otherwise is gone (burnt, a tax token's fee).
        if (to === s.asset && [...conversion.in.keys()].some((a) => a !== to)) {
          if (!s.first) sink(s.asset, m.amount);
          continue;
        }
        w.route.add(to);
        // The wallet's own receipt or LP token paid back by its contract: a withdrawal, whatever follows.
        if (s.first && to === s.asset) w.redeemed = true;
        for (const b of conversion.out.keys()) {
          if (b === s.asset) continue;
          // What a venue paid, redeemed for the native coin on the route's way back (sDAI paid back in WXDAI).
          if (b === NATIVE && !s.viaNative && !s.first) {
            w.nativeOut += conversion.out.get(NATIVE)!;
            w.sawNative = true;
          }
          queue.push({ ...s, account: to, asset: b, viaNative: s.viaNative || b === NATIVE });
        }
        continue;
      }
      if (to === s.asset) {
        if (!s.first) sink(s.asset, m.amount);
        continue;
      }
      if (g.venues.has(to)) {
        if (s.first) share(w, to, m);
        enter(to, s.asset, s.viaNative, true);
        continue;
      }

      w.route.add(to);
      if (g.outOf.has(key(to, s.asset))) queue.push({ ...s, account: to });
      // Native coin stopping at a pass-through went on where no movement shows (R8).
      else if (s.asset === NATIVE) addTo(back, NATIVE, m.amount);
      else if (!s.first) sink(s.asset, m.amount);
    }
  }
  // The route's output came back when most of some output asset reached the wallet: a fee kept on
  // the way is not the output, a liquidity position, a bridge or another payee that took most is.
  w.outputBack = lenient || [...back].some(([a, v]) => v > 0n && v >= (sunk.get(a) ?? 0n));
  return w;
}

/**
 * Follows token `token` back from the wallet: pass-throughs, the venues that delivered it, their
 * inputs, back to what funded the route. A buy funded only by the wallet's own receipt tokens
 * paid back by their contracts (a collateral swap: aTokens redeemed, swapped, deposited again for
 * the wallet) is a deposit, not a purchase (`depositFunded`).
 */
function walkBack<K extends string>(g: Graph<K>, token: string): Walk {
  const w = newWalk();
  w.outputBack = true;
  const seen = new Set<string>();
  const left = new Set<string>();
  const funding = { wallet: 0, conversion: 0, unknown: 0 };
  const queue: BackStep[] = [{ account: g.wallet, asset: token, viaNative: false, first: true, viaConversion: false }];

  /** The asset left a venue: by a movement (`arrived`), or as the input of one of its own hops. */
  const leave = (s: BackStep, venue: string, arrived: boolean) => {
    const v = g.venues.get(venue)!;
    const hops = v.hops.filter((h) => (h.out.get(s.asset) ?? 0n) > 0n);
    // Once per venue and asset, however many paths lead there.
    const k = key(venue, s.asset) + (s.viaNative ? '|n' : '') + (hops.length ? '' : '|a');
    if ((hops.length === 0 && !arrived) || left.has(k)) return;
    left.add(k);
    w.route.add(venue);
    if (hops.length === 0) {
      // A venue that received the asset before sending it kept none of it: a pass-through for it.
      if (g.into.has(key(venue, s.asset))) queue.push({ ...s, account: venue, first: false });
      else funding.unknown++;
    }
    for (const h of hops) {
      for (const [a, amount] of h.in) {
        if (a === s.asset) continue;
        if (a === NATIVE && !s.viaNative) {
          w.nativeIn += v.byFlows ? tookFromRoute(g, venue, amount) : amount;
          w.nativeOut += h.out.get(NATIVE) ?? 0n;
          w.sawNative = true;
        }
        const next = { ...s, account: venue, asset: a, viaNative: s.viaNative || a === NATIVE, first: false };
        queue.push(next);
        leave(next, venue, false);
      }
    }
  };

  while (queue.length) {
    const s = queue.shift()!;
    const k = key(s.account, s.asset) + (s.first ? '|f' : '') + (s.viaNative ? '|n' : '') + (s.viaConversion ? '|c' : '');
    if (seen.has(k)) continue;
    seen.add(k);
    const into = g.into.get(key(s.account, s.asset)) ?? [];
    if (into.length === 0 && s.account !== g.wallet) funding.unknown++;
    for (const m of into) {
      const from = m.from;
      if (from === g.wallet) {
        if (s.asset !== token) {
          funding[s.viaConversion ? 'conversion' : 'wallet']++;
          if (!s.viaNative && s.asset !== NATIVE) w.tokenPath = true;
        }
        continue;
      }
      if (g.never.has(from)) {
        funding.unknown++;
        continue;
      }
      const conversion = g.conversions.get(from);
      if (conversion || from === s.asset) {
        // Minted or paid back by a token's own contract: follow what it took for it, if anything.
        w.route.add(from);
        const inputs = [...(conversion?.in.keys() ?? [])].filter((a) => a !== s.asset);
        if (inputs.length === 0) funding.unknown++;
        for (const a of inputs) {
          // The route's native coin deposited for what a venue then traded (WXDAI into sDAI, swapped for USDC).
          if (a === NATIVE && !s.viaNative && !s.first) {
            w.nativeIn += conversion!.in.get(NATIVE)!;
            w.sawNative = true;
          }
          // Only a redemption (the contract took its own token back) makes the wallet's input a receipt it paid back.
          queue.push({ ...s, account: from, asset: a, viaConversion: s.viaConversion || a === from, viaNative: s.viaNative || a === NATIVE });
        }
        continue;
      }
      if (g.venues.has(from)) {
        if (s.first) share(w, from, m);
        leave(s, from, true);
        continue;
      }
      w.route.add(from);
      queue.push({ ...s, account: from });
    }
  }
  w.depositFunded = funding.conversion > 0 && funding.wallet === 0 && funding.unknown === 0;
  return w;
}

/** The venue with the larger share (the first on a tie). */
function largest(venues: ReadonlyMap<string, bigint>): string {
  let best = '';
  let amount = -1n;
  for (const [v, a] of venues) {
    if (a > amount) {
      best = v;
      amount = a;
    }
  }
  return best;
}

/** The wallet's trades in one transaction, in leg order. */
export function routeFlows<K extends string>(input: FlowInput<K>): FlowTrade<K>[] {
  const { wallet } = input;
  const nets = netsOf(input.movements);
  const walletNet = nets.get(wallet);
  if (!walletNet) return [];
  const g = buildGraph(input, nets);

  const sells: Array<{ token: string; net: bigint; walk: Walk }> = [];
  const buys: Array<{ token: string; net: bigint; walk: Walk }> = [];
  for (const [token, net] of walletNet) {
    // A venue's own token (a pool's LP token) is not traded through it.
    if (token === NATIVE || net === 0n || g.venues.has(token)) continue;
    if (net < 0n) {
      const walk = walkForward(g, token);
      if (walk.venues.size > 0 && walk.outputBack && !walk.redeemed) sells.push({ token, net: -net, walk });
    } else {
      const walk = walkBack(g, token);
      // Most of what the venues delivered went elsewhere (a liquidity position): the wallet got a remainder.
      const delivered = [...walk.venues.values()].reduce((t, v) => t + v, 0n);
      if (walk.venues.size > 0 && !walk.depositFunded && delivered <= 2n * net) buys.push({ token, net, walk });
    }
  }

  // Bought with native coin while the wallet gave none and received some: a swap by others (a
  // loan's collateral sold for its repayment) that paid the wallet, not a purchase of its own.
  if (sells.length === 0 && (walletNet.get(NATIVE) ?? 0n) > 0n) buys.length = 0;
  const tokenToToken = sells.length > 0 && buys.length > 0;
  const trade = (side: 'buy' | 'sell', t: { token: string; net: bigint; walk: Walk }): FlowTrade<K> => {
    const w = t.walk;
    const figure = side === 'sell' ? w.nativeOut - w.nativeIn : w.nativeIn - w.nativeOut;
    const whole = !tokenToToken || !w.tokenPath;
    const pool = largest(w.venues);
    return {
      side,
      token: t.token,
      amountRaw: t.net,
      nativeRaw: w.sawNative && whole && figure > 0n ? figure : null,
      pool,
      poolKind: g.venues.get(pool)!.kind,
      route: w.route,
    };
  };
  return [...sells.map((s) => trade('sell', s)), ...buys.map((b) => trade('buy', b))];
}
