import type { RpcLog } from './rpc-types.js';
import { NATIVE_CURRENCY, type V4PoolKey } from './pool-key.js';
import { isInfinitySwap } from './infinity.js';
import { dataWord, signedDataWord, wordToAddress } from './words.js';

/**
 * Uniswap V4 PoolManager events (v4-core 1.0). One PoolManager holds every pool; a pool is named
 * by its id, the keccak-256 of its key. Event constants stay here until the shared V4 file exists.
 */

/** `Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)` */
export const V4_SWAP_TOPIC = '0x40e9cecb9f5f1f1c5b9c97dec2917b7ee92e57ba5563708daca94dd84ad7112f';
/** `Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)` */
export const V4_INITIALIZE_TOPIC = '0xdd466e674ea557f56295e2d0218a125ea4b4f0f6f3307b95f85e6110838d6438';
/**
 * `HookFee(bytes32 indexed id, address indexed sender, uint128 feeAmount0, uint128 feeAmount1)`,
 * the community standard for hooks that charge a fee on top of the pool's swap (OpenZeppelin's
 * uniswap-hooks `IHookEvents`): the fee is outside the `Swap` amounts.
 */
export const V4_HOOK_FEE_TOPIC = '0x444083dce778da1269b63671912c00569a2a58fa85827911902301f91793ffd7';
/**
 * `HookSwap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint128 hookLPfeeAmount0, uint128 hookLPfeeAmount1)`,
 * the same standard's event for a hook that swaps in place of the pool (a custom curve): the
 * PoolManager's `Swap` then shows 0 and 0, and these amounts are the swap, positive for what the
 * swapper paid in and negative for what it received (OpenZeppelin's convention).
 */
export const V4_HOOK_SWAP_TOPIC = '0x365f10e9e7ce45d7acfd986c42e0b666f8af282e440e6dafc78c1f2b2f786760';
/** PositionManager `poolKeys(bytes25)`: the key of a pool it has positions in, else zeros. */
export const POOL_KEYS_SELECTOR = '0x86b6be7d';

export interface V4Hop {
  /** The PoolManager that emitted the Swap, lowercase. */
  manager: string;
  /** Uniswap V4's PoolManager, or a PancakeSwap Infinity pool manager (its own Swap shapes, a separate Vault). */
  family: 'uniswap' | 'infinity';
  /** Pool id, lowercase 0x + 64 hex. */
  id: string;
  /** The swapper's deltas: negative = paid into the pool, positive = received from it. */
  amount0: bigint;
  amount1: bigint;
  /** Hook fees (HookFee events of this pool in the same logs), always paid by the swapper. */
  hookFee0: bigint;
  hookFee1: bigint;
}

/**
 * Swap hops of V4-shaped managers in log order, with the HookFee of each pool folded into its
 * hops once, and a hook's own swap (HookSwap) standing in for a pool swap of 0 and 0.
 */
export function v4Hops(logs: readonly RpcLog[]): V4Hop[] {
  const hops: V4Hop[] = [];
  const fees: Array<{ id: string; f0: bigint; f1: bigint }> = [];
  const hookSwaps: Array<{ id: string; a0: bigint; a1: bigint; used: boolean }> = [];
  for (const l of logs) {
    const t0 = l.topics[0]?.toLowerCase();
    const infinity = isInfinitySwap(l);
    if ((t0 === V4_SWAP_TOPIC && l.topics.length === 3) || infinity) {
      hops.push({
        manager: l.address.toLowerCase(),
        family: infinity ? 'infinity' : 'uniswap',
        id: l.topics[1].toLowerCase(),
        amount0: signedDataWord(l.data, 0),
        amount1: signedDataWord(l.data, 1),
        hookFee0: 0n,
        hookFee1: 0n,
      });
    } else if (t0 === V4_HOOK_FEE_TOPIC && l.topics.length === 3) {
      fees.push({ id: l.topics[1].toLowerCase(), f0: dataWord(l.data, 0), f1: dataWord(l.data, 1) });
    } else if (t0 === V4_HOOK_SWAP_TOPIC && l.topics.length === 3) {
      hookSwaps.push({ id: l.topics[1].toLowerCase(), a0: signedDataWord(l.data, 0), a1: signedDataWord(l.data, 1), used: false });
    }
  }
  // A custom curve: the pool swapped nothing and the hook's event carries the swap (its signs are
  // the opposite of the Swap event's: positive there is paid in).
  for (const h of hops) {
    if (h.amount0 !== 0n || h.amount1 !== 0n) continue;
    const hs = hookSwaps.find((x) => x.id === h.id && !x.used);
    if (!hs) continue;
    hs.used = true;
    h.amount0 = -hs.a0;
    h.amount1 = -hs.a1;
  }
  // Each fee goes to the first hop of its pool that has not taken one (a hook emits one per swap).
  for (const f of fees) {
    const h = hops.find((x) => x.id === f.id && x.hookFee0 === 0n && x.hookFee1 === 0n);
    if (h) {
      h.hookFee0 = f.f0;
      h.hookFee1 = f.f1;
    }
  }
  return hops;
}

/** Pool ids of the V4-shaped swaps (Uniswap V4, PancakeSwap Infinity) in some logs, lowercase, with the manager that emitted each. */
export function v4PoolIds(logs: readonly RpcLog[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const h of v4Hops(logs)) m.set(h.id, h.manager);
  return m;
}

/** Call data of `poolKeys(bytes25(id))`: the id's first 25 bytes. */
export function poolKeysCallData(id: string): string {
  return POOL_KEYS_SELECTOR + id.slice(2, 2 + 50).padEnd(64, '0');
}

function toInt24(w: bigint): number {
  return Number(BigInt.asIntN(24, w));
}

/** The answer of `poolKeys`, or null for a pool the PositionManager never saw (all zeros). */
export function decodePoolKeysResult(result: unknown): V4PoolKey | null {
  if (typeof result !== 'string' || result.length < 2 + 5 * 64) return null;
  const currency1 = wordToAddress(dataWord(result, 1));
  // currency1 can never be the native coin (0x0 sorts first), so zero means "no such key".
  if (currency1 === NATIVE_CURRENCY) return null;
  return {
    currency0: wordToAddress(dataWord(result, 0)),
    currency1,
    fee: Number(dataWord(result, 2) & 0xffffffn),
    tickSpacing: toInt24(dataWord(result, 3)),
    hooks: wordToAddress(dataWord(result, 4)),
  };
}

/** The key in a PoolManager `Initialize` log, or null when the log is not one. */
export function decodeInitializeLog(l: RpcLog): V4PoolKey | null {
  if (l.topics[0]?.toLowerCase() !== V4_INITIALIZE_TOPIC || l.topics.length !== 4) return null;
  return {
    currency0: wordToAddress(BigInt(l.topics[2])),
    currency1: wordToAddress(BigInt(l.topics[3])),
    fee: Number(dataWord(l.data, 0) & 0xffffffn),
    tickSpacing: toInt24(dataWord(l.data, 1)),
    hooks: wordToAddress(dataWord(l.data, 2)),
  };
}

/**
 * Hook permissions that let a hook change what the swapper pays or gets (v4-core Hooks.sol, the
 * low bits of the hook's address): BEFORE_SWAP_RETURNS_DELTA (1 << 3) and
 * AFTER_SWAP_RETURNS_DELTA (1 << 2).
 */
const SWAP_DELTA_FLAGS = (1n << 3n) | (1n << 2n);

export function hookMayTakeDelta(hooks: string): boolean {
  return (BigInt(hooks) & SWAP_DELTA_FLAGS) !== 0n;
}

/**
 * The managers whose one native-currency hop in these logs went through a hook that may move the
 * swapper's amounts and said nothing about it (no HookFee or HookSwap of that pool): the Swap
 * event's figure may then be off by what the hook took or gave, and only a call trace tells.
 * A manager with several native hops is left out: the trace's ETH cannot be told apart by hop.
 */
export function silentHookManagers(logs: readonly RpcLog[], poolKeys: ReadonlyMap<string, V4PoolKey>): Set<string> {
  const spoke = new Set<string>();
  for (const l of logs) {
    const t0 = l.topics[0]?.toLowerCase();
    if ((t0 === V4_HOOK_FEE_TOPIC || t0 === V4_HOOK_SWAP_TOPIC) && l.topics.length === 3) spoke.add(l.topics[1].toLowerCase());
  }
  const nativeHops = new Map<string, number>();
  const silent = new Set<string>();
  for (const h of v4Hops(logs)) {
    const key = poolKeys.get(h.id);
    if (!key || key.currency0 !== NATIVE_CURRENCY) continue;
    // Infinity hooks declare their permissions in a bitmap, not in their address: no such reading.
    if (h.family === 'infinity') continue;
    nativeHops.set(h.manager, (nativeHops.get(h.manager) ?? 0) + 1);
    if (key.hooks !== NATIVE_CURRENCY && hookMayTakeDelta(key.hooks) && !spoke.has(h.id)) silent.add(h.manager);
  }
  for (const m of silent) if (nativeHops.get(m) !== 1) silent.delete(m);
  return silent;
}

/** A frame of `debug_traceTransaction` with the call tracer (geth, reth, anvil, Erigon). */
export interface CallFrame {
  type: string;
  from: string;
  to?: string;
  value?: string;
  error?: string;
  calls?: CallFrame[];
}

/**
 * The native coin paid into `manager` by everyone but `hooks` (negative: paid out of it to
 * everyone but them), from a call trace: what the swapper's route paid or got, hook fees
 * included, since whatever the hook took or added moved between the manager and the hook.
 * Only value-carrying CALLs count (a DELEGATECALL shows its parent's value without moving it),
 * and nothing under a reverted frame.
 */
export function nativeIntoManager(frame: CallFrame, manager: string, hooks: ReadonlySet<string>): bigint {
  if (frame.error) return 0n;
  let net = 0n;
  if (frame.type === 'CALL' && frame.value && frame.to) {
    const v = BigInt(frame.value);
    const from = frame.from.toLowerCase();
    const to = frame.to.toLowerCase();
    if (to === manager && !hooks.has(from)) net += v;
    if (from === manager && !hooks.has(to)) net -= v;
  }
  for (const c of frame.calls ?? []) net += nativeIntoManager(c, manager, hooks);
  return net;
}
