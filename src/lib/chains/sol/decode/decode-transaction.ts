/**
 * Solana transaction -> the trades of one wallet (decisions.md, "Trades"). Pure: no I/O.
 *
 * How a trade is found:
 * 1. Only a signer can trade (a wallet that did not sign gets []); a failed transaction has none.
 * 2. Every token/SOL transfer is charged to the nearest *venue* instruction above it (a pool,
 *    curve or order-book program, or any unknown program). Transfers made directly by routers,
 *    bots, or at top level (tips, rent, platform and bot fees) belong to no venue and never count.
 *    An unknown program that itself calls a venue is a wrapper (a bot), not a venue.
 * 3. A venue invocation ("hop") is a swap when it moves at least two assets under at least two
 *    authorities (a trader side and a pool side): liquidity adds and removes move both assets under
 *    one authority and are not swaps. Pump.fun and Moonit hops carry their TradeEvent instead,
 *    because their sells pay SOL out of the curve account without a transfer (the event is a
 *    self-invocation or, in versions that log it, a `Program data:` line: venue-events.ts).
 * 4. Hops belong to the wallet when the wallet is among the accounts of the hop or of an
 *    instruction above it (Pump.fun/Moonit: the event's user, or the route's wallet when an
 *    aggregator trades on the curve under its own authority); they are grouped per top-level
 *    instruction ("unit": one route, one direct swap), except that a route of an aggregator version
 *    that runs one leg per top-level instruction is one unit (units.ts).
 * 5. Token amounts are the wallet's own balance change (owner = wallet), so net of Token-2022
 *    transfer fees and of platform fees taken from the output. With several units in one
 *    transaction (a buy then a sell) each unit's own transfers give its amounts instead.
 * 6. The SOL amount is the venue's figure: per hop the largest native transfer (WSOL or lamports)
 *    it made, which leaves out the smaller protocol/creator fee transfers some venues make beside
 *    it, or the event's SOL amount. A buy or sell sums its unit's hops; a token-to-token unit uses
 *    the native middle leg on the side that sold the given token (else the side that bought the
 *    received one), or null when the route has no native leg.
 * 7. A mint the wallet both paid into and received from the same unit in comparable amounts is a
 *    round trip (circular arbitrage) and yields nothing.
 */
import { formatUnits } from '../../../core/decimal.js';
import { isoFromUnixSeconds } from '../../../core/trade.js';
import { normalizeTransaction, type SolTransaction } from './normalize.js';
import { programDataByInstruction } from './program-logs.js';
import { EVENT_VENUES, cpiTradeEvent, loggedTradeEvent, type VenueEvent } from './venue-events.js';
import { ORDER_BOOKS, ROUTER_SLUGS, WSOL_MINT, programRole, venueSlug } from '../programs.js';
import { unitsOf } from './units.js';

export interface SolanaDecodedTrade {
  signature: string;
  side: 'buy' | 'sell';
  tokenMint: string;
  /** Exact decimal string in SOL. */
  amountSol: string | null;
  /** Exact decimal string in whole tokens. */
  amount: string | null;
  dex: string;
  /** ISO like 2024-05-01T12:34:56Z. */
  blockTime: string;
  /** 0, 1, ... position within the transaction for this wallet. */
  leg: number;
}

const NATIVE = '\u0000native';
const SOL_DECIMALS = 9;

interface Hop {
  ix: number;
  outer: number;
  slug: string;
  router: string | null;
  assets: Set<string>;
  auths: Set<number>;
  nativeMax: bigint;
  hasNative: boolean;
  event: VenueEvent | null;
  /** An unknown program seen calling a venue: a wrapper, never a swap hop itself. */
  wrapper: boolean;
}

interface Analysis {
  tx: SolTransaction;
  hops: Hop[];
  mintOf: (string | undefined)[];
  /** Top-level instruction -> its unit (the first top-level instruction of its route). */
  unitOf: Int32Array;
}

function analyse(tx: SolTransaction): Analysis {
  const { keys, instructions } = tx;
  // Mint of each token account, from the balances and from accounts initialised in this transaction
  // (a temporary WSOL account opened and closed here appears in neither balance list).
  const mintOf: (string | undefined)[] = new Array(keys.length);
  for (const b of tx.preTokenBalances) mintOf[b.index] = b.mint;
  for (const b of tx.postTokenBalances) mintOf[b.index] = b.mint;
  for (const ix of instructions) if (ix.op?.kind === 'init' && ix.op.account >= 0) mintOf[ix.op.account] ??= ix.op.mint;

  const unitOf = unitsOf(tx);
  const n = instructions.length;
  const venueOf = new Int32Array(n);
  const routerOf = new Int32Array(n);
  const hopByIx = new Map<number, Hop>();
  const hops: Hop[] = [];
  for (let i = 0; i < n; i++) {
    const ix = instructions[i];
    const programKey = keys[ix.program] ?? '';
    // A program id missing from the account list (malformed input) is treated as moving nothing.
    const role = programKey === '' ? 'transparent' : programRole(programKey);
    const p = ix.parent;
    venueOf[i] = role === 'venue' ? i : p >= 0 ? venueOf[p] : -1;
    routerOf[i] = role === 'router' ? i : p >= 0 ? routerOf[p] : -1;
    if (role === 'venue') {
      if (p >= 0 && instructions[p].program === ix.program) {
        // A program's self-invocation is an Anchor event CPI, part of the same hop. Pump.fun and
        // Moonit sells pay SOL out of the curve without a transfer, so their TradeEvent is the figure.
        venueOf[i] = venueOf[p];
        if (EVENT_VENUES.has(programKey)) {
          const ev = cpiTradeEvent(programKey, ix.data);
          const hop = ev ? hopByIx.get(venueOf[p]) : undefined;
          if (hop && !hop.event) hop.event = ev;
        }
        continue;
      }
      if (ORDER_BOOKS.has(programKey)) {
        // An order-book fill is two instructions under one parent (Serum/OpenBook v3: new order
        // pays into the market, settle funds pays out): one hop.
        const prev = hops.length > 0 ? hops[hops.length - 1] : null;
        if (prev && instructions[prev.ix].program === ix.program && instructions[prev.ix].parent === p && p >= 0) {
          venueOf[i] = prev.ix;
          continue;
        }
      }
      const r = routerOf[i];
      // An unknown program that calls a venue is a bot or wrapper around it (decisions.md: use the
      // venue it called); its own transfers (fees, wrapping) are not a swap of their own.
      const above = p >= 0 ? hopByIx.get(venueOf[p]) : undefined;
      if (above && above.slug === 'unknown') above.wrapper = true;
      const hop: Hop = {
        ix: i,
        outer: unitOf[ix.outer],
        slug: venueSlug(programKey),
        router: r >= 0 ? (ROUTER_SLUGS.get(keys[instructions[r].program]) ?? null) : null,
        assets: new Set(),
        auths: new Set(),
        nativeMax: 0n,
        hasNative: false,
        event: null,
        wrapper: false,
      };
      hopByIx.set(i, hop);
      hops.push(hop);
    }
    const op = ix.op;
    if (!op || op.kind === 'init' || p < 0) continue;
    const hop = hopByIx.get(venueOf[p]);
    if (!hop) continue;
    let asset: string;
    if (op.kind === 'sol') {
      asset = NATIVE;
      hop.auths.add(op.src);
    } else {
      const mint = op.mint ?? mintOf[op.src] ?? mintOf[op.dst];
      asset = mint === WSOL_MINT ? NATIVE : (mint ?? `?${op.src}`);
      hop.auths.add(op.auth);
    }
    hop.assets.add(asset);
    if (asset === NATIVE) {
      hop.hasNative = true;
      if (op.amount > hop.nativeMax) hop.nativeMax = op.amount;
    }
  }
  readLoggedEvents(tx, hops);
  return { tx, hops, mintOf, unitOf };
}

/**
 * Event venues of a version that logs its TradeEvent (`emit!`) instead of calling itself: the
 * event is the `Program data:` line the venue instruction wrote. The log is read only when such a
 * hop has no event yet.
 */
function readLoggedEvents(tx: SolTransaction, hops: Hop[]): void {
  let logged: Map<number, string[]> | null = null;
  for (const h of hops) {
    if (h.event) continue;
    const programKey = tx.keys[tx.instructions[h.ix].program];
    if (!EVENT_VENUES.has(programKey)) continue;
    logged ??= programDataByInstruction(tx);
    h.event = loggedTradeEvent(programKey, logged.get(h.ix));
  }
}

function isSwapHop(h: Hop): boolean {
  if (h.wrapper) return false;
  return h.event !== null || (h.assets.size >= 2 && h.auths.size >= 2);
}

function hopNative(h: Hop): bigint | null {
  if (h.event) return h.event.sol;
  return h.hasNative ? h.nativeMax : null;
}

function hopTouches(h: Hop, mint: string): boolean {
  return h.event?.mint ? h.event.mint === mint : h.assets.has(mint);
}

/** True when the wallet is among the accounts of the instruction or of one above it. */
function walletInvolved(tx: SolTransaction, ixIndex: number, w: number): boolean {
  for (let i = ixIndex; i >= 0; i = tx.instructions[i].parent) {
    if (tx.instructions[i].accounts.includes(w)) return true;
  }
  return false;
}

/** Signers of the transaction: the only wallets that may have traded in it (fee payer first). */
export function solanaSigners(raw: unknown): string[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped getTransaction JSON, read defensively with ?.
  const message = (raw as { transaction?: { message?: any } })?.transaction?.message;
  const keys: unknown[] = Array.isArray(message?.accountKeys) ? message.accountKeys : [];
  if (keys.length > 0 && typeof keys[0] === 'object') {
    // jsonParsed: every key carries its signer flag.
    return (keys as { signer?: boolean; pubkey: string }[]).filter((k) => k?.signer).map((k) => k.pubkey);
  }
  const n: number = message?.header?.numRequiredSignatures ?? 0;
  return (keys as string[]).slice(0, n);
}

interface MintFlow {
  mint: string;
  delta: bigint;
  decimals: number;
}

function sumNative(hops: Hop[]): bigint | null {
  let total: bigint | null = null;
  for (const h of hops) {
    const v = hopNative(h);
    if (v !== null) total = (total ?? 0n) + v;
  }
  return total;
}

/**
 * The trades `wallet` made in one `getTransaction` result (json or jsonParsed encoding), in a
 * fixed order: per top-level instruction, sells of the tokens given, then buys of those received.
 * [] for failed transactions, non-swaps and wallets that did not sign.
 * Throws HistoryError `rpc_malformed_response` for something that is not a transaction.
 */
export function decodeSolanaTransaction(raw: unknown, wallet: string): SolanaDecodedTrade[] {
  return decodeNormalizedTransaction(normalizeTransaction(raw), wallet);
}

/** decodeSolanaTransaction of a transaction already normalized (decode-batch.ts normalizes once for the trades and the activity). */
export function decodeNormalizedTransaction(normalized: SolTransaction, wallet: string): SolanaDecodedTrade[] {
  const a = analyse(normalized);
  const { tx } = a;
  if (tx.failed) return [];
  let w = -1;
  for (let i = 0; i < tx.signerCount; i++) if (tx.keys[i] === wallet) w = i;
  if (w < 0) return [];

  // The wallet's swap hops, grouped by top-level instruction.
  const units = new Map<number, Hop[]>();
  for (const h of a.hops) {
    if (!isSwapHop(h)) continue;
    // The event names the trader; an aggregator may trade on the curve under its own authority for
    // the wallet that called it, so a routed event hop is also the wallet's when the route is.
    const mine = h.event?.user === wallet || ((!h.event || h.router !== null) && walletInvolved(tx, h.ix, w));
    if (!mine) continue;
    const list = units.get(h.outer);
    if (list) list.push(h);
    else units.set(h.outer, [h]);
  }
  if (units.size === 0) return [];

  // Decimals of every mint the wallet holds, and its balance change (owner = wallet).
  const owned = new Set<number>();
  const byMint = new Map<string, MintFlow>();
  const addBalance = (list: SolTransaction['preTokenBalances'], sign: bigint) => {
    for (const b of list) {
      if (b.owner !== wallet) continue;
      owned.add(b.index);
      if (b.mint === WSOL_MINT) continue;
      let f = byMint.get(b.mint);
      if (!f) byMint.set(b.mint, (f = { mint: b.mint, delta: 0n, decimals: b.decimals }));
      f.delta += sign * BigInt(b.amount);
    }
  };
  addBalance(tx.preTokenBalances, -1n);
  addBalance(tx.postTokenBalances, 1n);

  const blockTime = tx.blockTime === null ? '' : isoFromUnixSeconds(tx.blockTime);
  const trades: SolanaDecodedTrade[] = [];
  for (const [outer, hops] of units) {
    // The unit's own transfers into and out of the wallet's token accounts, gross per mint.
    const perUnit = new Map<string, MintFlow & { sent: bigint; got: bigint }>();
    for (let i = 0; i < tx.instructions.length; i++) {
      const ix = tx.instructions[i];
      if (a.unitOf[ix.outer] !== outer || ix.op?.kind !== 'token') continue;
      const op = ix.op;
      const mint = op.mint ?? a.mintOf[op.src] ?? a.mintOf[op.dst];
      if (!mint || mint === WSOL_MINT) continue;
      const sign = (owned.has(op.dst) ? 1n : 0n) - (owned.has(op.src) ? 1n : 0n);
      if (sign === 0n) continue;
      let f = perUnit.get(mint);
      if (!f) perUnit.set(mint, (f = { mint, delta: 0n, decimals: byMint.get(mint)?.decimals ?? 0, sent: 0n, got: 0n }));
      f.delta += sign * op.amount;
      if (sign > 0n) f.got += op.amount;
      else f.sent += op.amount;
    }
    // With one swap unit the balance change is exact (net of Token-2022 transfer fees). With
    // several (a buy then a sell of the same token in one transaction) each unit's own transfers
    // say what it moved, for the mints whose balance changed over the whole transaction.
    const flows = units.size === 1 ? [...byMint.values()] : [...perUnit.values()].filter((f) => (byMint.get(f.mint)?.delta ?? 0n) !== 0n);
    // A mint the wallet both paid into and was paid by the same route, in comparable amounts, is
    // the route's start and end (circular arbitrage: the profit is not a purchase) or an
    // intermediate it passed through. A small outflow beside a large inflow is a platform fee
    // paid from the output (5pcp…: 33,550 out beside 3,947,073 in), not a round trip.
    // A mint counts when a swap hop of the unit moved it, or, on a routed unit, when the wallet
    // exchanged it with the router (a route can burn its input, e.g. a liquid-staking unstake).
    const routed = hops.some((h) => h.router !== null);
    const traded = (f: MintFlow) => {
      const g = perUnit.get(f.mint);
      if (g && g.sent > 0n && g.got > 0n) {
        const [small, large] = g.sent < g.got ? [g.sent, g.got] : [g.got, g.sent];
        if (small * 2n >= large) return false;
      }
      return hops.some((h) => hopTouches(h, f.mint)) || (routed && g !== undefined);
    };
    const given = flows.filter((f) => f.delta < 0n && traded(f));
    const received = flows.filter((f) => f.delta > 0n && traded(f));
    if (given.length + received.length === 0) continue; // circular route: nothing gained or given

    const router = hops.find((h) => h.router !== null)?.router ?? null;
    const dexFor = (mint: string) => router ?? (hops.find((h) => hopTouches(h, mint)) ?? hops[0]).slug;

    // The SOL figure of each trade of the unit.
    let nativeFor: (f: MintFlow, side: 'buy' | 'sell') => bigint | null;
    if (given.length > 0 && received.length > 0) {
      // Token to token: each leg carries what its own venue exchanged in native (decisions.md):
      // the sell what the hops that took the given token paid out, the buy what the hops that
      // delivered the received token took in. With nothing taken between the legs the two are
      // equal; a bot's or launchpad's fee or rent taken between them makes the buy's smaller.
      // A side with no native hop (a direct token-token pool on one side) takes the other's
      // figure; null when neither side has one.
      const sold = sumNative(hops.filter((h) => given.some((f) => hopTouches(h, f.mint))));
      const bought = sumNative(hops.filter((h) => received.some((f) => hopTouches(h, f.mint))));
      nativeFor = (_f, side) => (side === 'sell' ? (sold ?? bought) : (bought ?? sold));
    } else if (given.length + received.length === 1) {
      // One buy or one sell: everything the unit's hops exchanged in native.
      const total = sumNative(hops);
      if (total === null) continue; // a token moved with no native against it: not a trade
      nativeFor = () => total;
    } else {
      // Several buys (or sells) in one unit: each mint's own hops.
      nativeFor = (f) => sumNative(hops.filter((h) => hopTouches(h, f.mint)));
    }
    const emit = (f: MintFlow, side: 'buy' | 'sell') => {
      const native = nativeFor(f, side);
      trades.push({
        signature: tx.signature,
        side,
        tokenMint: f.mint,
        amountSol: native === null ? null : formatUnits(native, SOL_DECIMALS),
        amount: formatUnits(f.delta < 0n ? -f.delta : f.delta, f.decimals),
        dex: dexFor(f.mint),
        blockTime,
        leg: trades.length,
      });
    };
    for (const f of given) emit(f, 'sell');
    for (const f of received) emit(f, 'buy');
  }
  return trades;
}
