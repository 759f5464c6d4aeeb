import { NATIVE, type Movement } from '../../shared/route-flows.js';

/**
 * Whether a transaction the wallet sent leaves its route open where only a call trace would
 * close it: native coin moved by internal calls shows in no log (decisions.md, "Unexplained
 * activity": it is seen only where a trace was fetched), so enrich/call-traces.ts fetches one for
 * these transactions and no others. Read from the route's own movements:
 *
 *  - `output-unseen`: a token the wallet gave went down the route (through accounts that passed
 *    it on, venues and their outputs) to an account that gave nothing visible back: no movement
 *    out of it at all, and no event of a known venue stating its other side. Such an account may
 *    be a venue paying the native coin by an internal call (a Kyber reserve), so the sale's
 *    output is unknown. It must have taken at least half of what its senders gave of that token
 *    (a fee account taking a commission is the route's fee, not its output);
 *  - `input-unseen`: a token the wallet received came back up the route from an account that gave
 *    a token while taking nothing visible (no movement into it at all, no event): perhaps a venue
 *    taking the native coin by an internal call, so the purchase's input is unknown. It must have
 *    given at least half of what its receivers took of that token;
 *  - `native-path-unseen`: native coin left the route where no log shows (unwrapped and sent on by
 *    an internal call) or entered it that way (wrapped by an account no movement paid), at an
 *    account the wallet did not call itself: the accounts between it and the wallet, which may
 *    name the route (an aggregator a front end forwarded to, R2), are unseen. Asked only where
 *    no aggregator or settlement already names every trade: otherwise the figure is the venues'
 *    and the slug the aggregator's, whatever a trace shows.
 *
 * The account the wallet called is never an unseen venue here: the transaction's own value is
 * what it took or paid (a deposit into a bridge or a staking contract keeps the token, a claim or
 * a withdrawal pays it from there), and a trace of it would show only that. Nor is a token's own
 * contract (a burn, a mint: a conversion the route reads from its logs), the wrapped native
 * contract or the zero address (`never`).
 *
 * Where the logs close the route (every venue's both sides in a log or an event, native coin
 * unwrapped by the contract the wallet called and sent to it), nothing is asked: its figures
 * stay the logs'.
 */

export type OpenEnd = 'output-unseen' | 'input-unseen' | 'native-path-unseen';

export interface OpenRouteInput {
  /** The wallet, which sent the transaction (lowercase). */
  wallet: string;
  /** The contract the wallet called (lowercase), or null for a contract creation. */
  called: string | null;
  movements: readonly Movement[];
  /** Venues named by their events; for those whose events state their hops, the assets they take and give. */
  known: ReadonlyMap<string, { takes: ReadonlySet<string>; gives: ReadonlySet<string> } | null>;
  /** The zero address, the wrapped native contract. */
  never: ReadonlySet<string>;
  /** The account standing for native coin that left where no movement shows. */
  unseen: string;
  /** Accounts that wrapped or unwrapped the native coin (WETH9 `Deposit`/`Withdrawal`, or the wrapped token minted or burnt). */
  wrappers: ReadonlySet<string>;
  /** Every trade the logs give is already named by an aggregator or a settlement (or there is none). */
  slugSettled: boolean;
}

interface Flows {
  out: Map<string, Movement[]>;
  in: Map<string, Movement[]>;
}

function flowsOf(movements: readonly Movement[]): Flows {
  const f: Flows = { out: new Map(), in: new Map() };
  const push = (m: Map<string, Movement[]>, k: string, v: Movement) => {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  };
  for (const m of movements) {
    if (m.from === m.to || m.amount === 0n) continue;
    push(f.out, m.from, m);
    push(f.in, m.to, m);
  }
  return f;
}

const sum = (ms: readonly Movement[] | undefined, asset: string) => (ms ?? []).reduce((t, m) => (m.asset === asset ? t + m.amount : t), 0n);

/** The wallet's net per asset. */
function walletNets(wallet: string, movements: readonly Movement[]): Map<string, bigint> {
  const nets = new Map<string, bigint>();
  for (const m of movements) {
    if (m.from === m.to) continue;
    if (m.from === wallet) nets.set(m.asset, (nets.get(m.asset) ?? 0n) - m.amount);
    if (m.to === wallet) nets.set(m.asset, (nets.get(m.asset) ?? 0n) + m.amount);
  }
  return nets;
}

/** The larger of what an account took in and gave out of an asset: what went through it. */
function through(f: Flows, account: string, asset: string): bigint {
  const inn = sum(f.in.get(account), asset);
  const out = sum(f.out.get(account), asset);
  return inn > out ? inn : out;
}

/**
 * Whether `b`, which took `asset` from `account` (forward) or gave it to `account` (back) and
 * moved nothing visible the other way, may be a venue settling by internal calls.
 */
function hiddenAt(input: OpenRouteInput, f: Flows, tokens: ReadonlySet<string>, forward: boolean, account: string, b: string, asset: string): boolean {
  const { wallet, called, known } = input;
  // The native coin itself moves unseen; a token contract minting or burning is a conversion; a
  // venue whose event states its hops is seen; the wallet's own addressee (next to the wallet or
  // to the contract it called) is a payee, a deposit, a liquidity position or a claim.
  if (asset === NATIVE || tokens.has(b) || known.has(b) || b === called || account === wallet || account === called) return false;
  // What a venue whose event states its hops passes on of its own input (or sources of its own
  // output) is inside the venue (a Curve metapool through its base pool).
  const sides = known.get(account);
  if (sides && (forward ? sides.takes : sides.gives).has(asset)) return false;
  const held = sum(forward ? f.in.get(b) : f.out.get(b), asset);
  // Most of what went through the account before it: not a fee it paid, nor a pool's fee skimmed.
  return 2n * held >= through(f, account, asset);
}

/**
 * Follows the wallet's tokens down the route (`forward`: the tokens it gave) or up it (the tokens
 * it received): through pass-throughs and venues (what they gave for the asset, or took for it),
 * and through conversions as a conversion goes (a deposit's shares, a redemption's payout; back,
 * what a mint took, the shares a redemption burnt), never into what a vault does with its
 * deposits. Says whether it meets an account that may be a venue settling unseen.
 */
function hiddenVenue(input: OpenRouteInput, f: Flows, forward: boolean): boolean {
  const { wallet, never, unseen } = input;
  const tokens = new Set(input.movements.map((m) => m.asset));
  const along = forward ? f.out : f.in;
  const other = (m: Movement) => (forward ? m.to : m.from);
  const queue: Array<[string, string]> = [];
  for (const [asset, net] of walletNets(wallet, input.movements)) if (asset !== NATIVE && (forward ? net < 0n : net > 0n)) queue.push([wallet, asset]);
  const seen = new Set<string>();
  while (queue.length) {
    const [account, asset] = queue.shift()!;
    const k = `${account}|${asset}`;
    if (seen.has(k)) continue;
    seen.add(k);
    for (const m of along.get(account) ?? []) {
      if (m.asset !== asset) continue;
      const b = other(m);
      if (b === wallet || b === unseen || never.has(b)) continue;
      const next = new Set((along.get(b) ?? []).map((n) => n.asset));
      if (next.size === 0) {
        if (hiddenAt(input, f, tokens, forward, account, b, asset)) return true;
        continue;
      }
      if (tokens.has(b)) {
        if (asset !== b) {
          if (next.has(b)) queue.push([b, b]);
        } else for (const n of next) if (n !== b) queue.push([b, n]);
      } else for (const n of next) queue.push([b, n]);
    }
  }
  return false;
}

/**
 * Native coin wrapped or unwrapped by an account the wallet did not call (nor a venue whose event
 * states its native side): only the transaction's value (paid to the called contract) or an
 * internal call brings an account native coin to wrap, and an unwrap's coin goes on by an
 * internal call, so the accounts between it and the wallet show in no log.
 */
function nativePathUnseen(input: OpenRouteInput): boolean {
  for (const a of input.wrappers) if (a !== input.wallet && a !== input.called && !input.known.has(a)) return true;
  return false;
}

/** Why the route needs a call trace, or null when its logs close it. */
export function openEnd(input: OpenRouteInput): OpenEnd | null {
  const f = flowsOf(input.movements);
  if (hiddenVenue(input, f, true)) return 'output-unseen';
  if (hiddenVenue(input, f, false)) return 'input-unseen';
  if (!input.slugSettled && nativePathUnseen(input)) return 'native-path-unseen';
  return null;
}
