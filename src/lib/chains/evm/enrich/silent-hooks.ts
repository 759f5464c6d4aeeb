import { NATIVE_CURRENCY, type V4PoolKey } from '../decode/pool-key.js';
import type { RpcLog } from '../decode/rpc-types.js';
import { V4_HOOK_FEE_TOPIC, V4_HOOK_SWAP_TOPIC, v4Hops, type V4Hop } from '../decode/v4.js';

/** A venue whose native figure only a call trace gives, in one receipt. */
export interface SilentHookVenue {
  /** The manager that emitted the Swap (the key of `tracedNative`). */
  manager: string;
  /** Where the native coin moves: the PoolManager itself (Uniswap V4) or the Vault (PancakeSwap Infinity). */
  holder: string;
  /** The hooks of this holder's pools in the receipt. */
  hooks: Set<string>;
}

/** A hop, its pool's key (undefined: not found) and where its native coin would be kept. */
export interface HookedHop {
  hop: V4Hop;
  key: V4PoolKey | undefined;
  holder: string;
}

/**
 * The hops of V4-shaped managers in some logs that move or may move the native coin (a pool on
 * it, or one whose key was not found), with their holder; `holderOf` names an Infinity manager's
 * Vault (undefined: a manager not configured, left out).
 */
export function nativeHops(logs: readonly RpcLog[], poolKeys: ReadonlyMap<string, V4PoolKey>, holderOf: (hop: V4Hop) => string | undefined): HookedHop[] {
  const out: HookedHop[] = [];
  for (const hop of v4Hops(logs)) {
    const key = poolKeys.get(hop.id);
    const holder = holderOf(hop);
    if (holder && (!key || key.currency0 === NATIVE_CURRENCY)) out.push({ hop, key, holder });
  }
  return out;
}

/**
 * The venues whose one native hop in these logs went through a hook that may move the swapper's
 * amounts and said nothing about it (no HookFee or HookSwap of that pool): the Swap event's
 * figure may then be off by what the hook took or gave, and only a call trace tells. A holder with
 * several native hops (or a hop whose key is unknown) is left out: the trace's native coin cannot
 * be told apart by hop (an Infinity Vault holds the CL and Bin managers' coins alike). `mayTakeDelta` reads the hook's
 * permissions (V4: the low bits of its address; Infinity: its registration bitmap).
 */
export function silentHookVenues(hops: readonly HookedHop[], logs: readonly RpcLog[], mayTakeDelta: (h: HookedHop) => boolean): SilentHookVenue[] {
  const spoke = new Set<string>();
  for (const l of logs) {
    const t0 = l.topics[0]?.toLowerCase();
    if ((t0 === V4_HOOK_FEE_TOPIC || t0 === V4_HOOK_SWAP_TOPIC) && l.topics.length === 3) spoke.add(l.topics[1].toLowerCase());
  }
  const perHolder = new Map<string, HookedHop[]>();
  for (const h of hops) perHolder.set(h.holder, [...(perHolder.get(h.holder) ?? []), h]);
  const out: SilentHookVenue[] = [];
  for (const [holder, hs] of perHolder) {
    const [h] = hs;
    if (hs.length !== 1 || !h.key || h.key.hooks === NATIVE_CURRENCY || spoke.has(h.hop.id) || !mayTakeDelta(h)) continue;
    out.push({ manager: h.hop.manager, holder, hooks: new Set([h.key.hooks]) });
  }
  return out;
}
