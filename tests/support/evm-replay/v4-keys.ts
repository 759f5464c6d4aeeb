import { encodeAbiParameters, keccak256, type Hex } from 'viem';
import type { RpcReceipt } from '../../../src/lib/chains/evm/decode/rpc-types.js';
import { ERC20_TRANSFER_TOPIC } from '../../../src/lib/chains/shared/uniswap-v2-events.js';
import { POOL_KEYS_SELECTOR, V4_SWAP_TOPIC } from '../../../src/lib/chains/evm/decode/v4.js';

/**
 * Uniswap V4 PositionManager `poolKeys(bytes25)` answers recovered from facts: a V4 pool id is
 * keccak256(abi.encode(currency0, currency1, uint24 fee, int24 tickSpacing, address hooks)), so a
 * key found by search over the receipt's own facts (its tokens and the native coin, the fee and
 * tick-spacing pairs pools are created with, hooks among the contracts that emitted its logs) and
 * hashing back to the id is the pool's key. An id no candidate reproduces is not answered.
 */

export interface V4Key {
  currency0: string;
  currency1: string;
  fee: number;
  tickSpacing: number;
  hooks: string;
}

const NATIVE = '0x0000000000000000000000000000000000000000';
const KEY_TYPES = [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }] as const;

/**
 * Fee and tick spacing candidates: Uniswap's interface creates pools at 0.01%/1, 0.05%/10,
 * 0.3%/60, 1%/200 (the V3 tiers), dynamic-fee pools carry the flag 0x800000
 * (LPFeeLibrary.DYNAMIC_FEE_FLAG), and anyone may create a pool at any fee and spacing, so the
 * small fees of stablecoin pools (0.0008% is common) and the spacings up to 10 are tried too.
 */
export const V4_FEES = [
  100, 500, 3000, 10000, 0x800000, 0, 1, 5, 8, 9, 10, 20, 25, 30, 40, 45, 50, 80, 90, 150, 200, 250, 300, 400, 450, 1000, 2500, 5000, 20000,
];
export const V4_TICK_SPACINGS = [1, 10, 60, 200, 2, 3, 4, 5, 6, 7, 8, 9, 20, 30, 50, 100];

export const poolIdOf = (k: V4Key): string =>
  keccak256(encodeAbiParameters(KEY_TYPES, [k.currency0 as Hex, k.currency1 as Hex, k.fee, k.tickSpacing, k.hooks as Hex])).toLowerCase();

/** The key of pool `id` among the candidates, or null. */
export function searchPoolKey(id: string, currencies: readonly string[], hooks: readonly string[]): V4Key | null {
  const sorted = [...new Set(currencies.map((c) => c.toLowerCase()))].sort();
  // Hooks outermost: most pools have none, so the common case is found after the first candidate.
  for (const hook of hooks)
    for (let i = 0; i < sorted.length; i++)
      for (let j = i + 1; j < sorted.length; j++)
        for (const fee of V4_FEES)
          for (const tickSpacing of V4_TICK_SPACINGS) {
            const k = { currency0: sorted[i], currency1: sorted[j], fee, tickSpacing, hooks: hook };
            if (poolIdOf(k) === id) return k;
          }
  return null;
}

/**
 * `poolKeys` call answers (`${positionManager}:${calldata}` -> result) for every V4 pool swapped
 * in these receipts on a PoolManager that has a PositionManager, and the ids not recovered.
 */
export function recoverV4PoolKeys(
  receipts: readonly RpcReceipt[],
  positionManagers: ReadonlyMap<string, string>,
): { calls: Map<string, string>; unknown: string[] } {
  const calls = new Map<string, string>();
  const unknown = new Set<string>();
  for (const r of receipts) {
    const swaps = r.logs.filter((l) => l.topics[0]?.toLowerCase() === V4_SWAP_TOPIC && l.topics.length === 3 && positionManagers.has(l.address.toLowerCase()));
    if (!swaps.length) continue;
    const tokens = r.logs.filter((l) => l.topics[0]?.toLowerCase() === ERC20_TRANSFER_TOPIC && l.topics.length === 3).map((l) => l.address.toLowerCase());
    const emitters = r.logs.map((l) => l.address.toLowerCase());
    const hooks = [NATIVE, ...new Set([...emitters, ...(r.to ? [r.to.toLowerCase()] : [])])];
    for (const s of swaps) {
      const id = s.topics[1].toLowerCase();
      const posm = positionManagers.get(s.address.toLowerCase())!;
      const data = (POOL_KEYS_SELECTOR + id.slice(2, 52).padEnd(64, '0')).toLowerCase();
      if (calls.has(`${posm}:${data}`) || unknown.has(id)) continue;
      const k = searchPoolKey(id, [NATIVE, ...tokens], hooks);
      if (!k) {
        unknown.add(id);
        continue;
      }
      calls.set(`${posm}:${data}`, encodeAbiParameters(KEY_TYPES, [k.currency0 as Hex, k.currency1 as Hex, k.fee, k.tickSpacing, k.hooks as Hex]));
    }
  }
  return { calls, unknown: [...unknown] };
}
