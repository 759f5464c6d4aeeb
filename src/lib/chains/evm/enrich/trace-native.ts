import type { InternalTransfer } from '../decode/movements.js';
import type { CallFrame } from '../rpc-methods.js';

/** Frame types that move their `value` from `from` to `to` (a DELEGATECALL or CALLCODE shows value it does not move). */
const MOVES_VALUE = new Set(['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT']);

interface Move {
  from: string;
  to: string;
  value: bigint;
}

/**
 * What the swapper's route paid in native coin into a venue that keeps its tokens (a Uniswap V4
 * PoolManager, PancakeSwap Infinity's Vault: `holder`) and its hooks together, net of what they
 * paid the route (negative: the route received), from a call trace (decisions.md: a hook's fee
 * is part of the venue's price wherever the hook sends it).
 *
 * The route's side is the route's own addresses, not "everyone but the hook": the callers on the
 * way into the holder (the sender, the wallet or its account, routers, executors; never the
 * holder or a hook), and any account that took native from the venue and sent native on to
 * them, or sent the venue native it had from them (a pass-through off the call path). A hook's
 * fee paid to a treasury or anyone else moves from the venue to an account of neither side and
 * counts nowhere; money between the holder and its hooks stays inside the venue. Nothing under
 * a reverted frame moves.
 */
export function routeNativeIntoVenue(trace: CallFrame, holder: string, hooks: ReadonlySet<string>): bigint {
  const venue = new Set([holder, ...hooks]);
  const moves: Move[] = [];
  const route = new Set<string>();
  const visit = (f: CallFrame, callers: string[]) => {
    if (f.error) return;
    const from = f.from.toLowerCase();
    const to = f.to?.toLowerCase();
    const v = f.value ? BigInt(f.value) : 0n;
    if (to && v > 0n && MOVES_VALUE.has(f.type)) moves.push({ from, to, value: v });
    const path = [...callers, from];
    if (to === holder) for (const a of path) if (!venue.has(a)) route.add(a);
    if (to) for (const c of f.calls ?? []) visit(c, path);
  };
  visit(trace, []);

  // Pass-throughs off the call path: next to the venue on one side and the route on the other.
  for (let grew = true; grew;) {
    grew = false;
    for (const m of moves) {
      const outer = venue.has(m.from) ? m.to : venue.has(m.to) ? m.from : null;
      if (!outer || route.has(outer) || venue.has(outer)) continue;
      const toRoute = venue.has(m.from) ? moves.some((n) => n.from === outer && route.has(n.to)) : moves.some((n) => n.to === outer && route.has(n.from));
      if (toRoute) {
        route.add(outer);
        grew = true;
      }
    }
  }

  let net = 0n;
  for (const m of moves) {
    if (route.has(m.from) && venue.has(m.to)) net += m.value;
    else if (venue.has(m.from) && route.has(m.to)) net -= m.value;
  }
  return net;
}

/**
 * The native coin a transaction's internal calls moved, in call order: every frame below the top
 * one (the transaction itself: its value is the transaction's) that moves value (a CALL, a CREATE,
 * a SELFDESTRUCT's balance; a DELEGATECALL or CALLCODE shows value it does not move), outside any
 * reverted frame.
 */
export function internalTransfers(trace: CallFrame): InternalTransfer[] {
  const out: InternalTransfer[] = [];
  const visit = (f: CallFrame) => {
    if (f.error) return;
    const v = f.value ? BigInt(f.value) : 0n;
    if (f !== trace && f.to && v > 0n && MOVES_VALUE.has(f.type)) out.push({ from: f.from.toLowerCase(), to: f.to.toLowerCase(), value: v });
    for (const c of f.calls ?? []) visit(c);
  };
  visit(trace);
  return out;
}
