/**
 * A Uniswap V4-shaped pool's key as the V4 family of venues states it (Uniswap V4 and PancakeSwap
 * Infinity on EVM, SunSwap V4 on Tron), in the one shape both families cache it in, so one store
 * kind serves both: addresses lowercase `0x` + 40 hex, the native coin as `0x000…0` (it always
 * sorts first, so only currency0 can be).
 */
export interface PoolKey {
  currency0: string;
  currency1: string;
  fee: number;
  tickSpacing: number;
  hooks: string;
}

const ADDRESS = /^0x[0-9a-f]{40}$/;

/** Whether a value read back from a cache is a PoolKey (the store keeps JSON). */
export function isPoolKey(v: unknown): v is PoolKey {
  const k = v as PoolKey;
  return (
    !!k &&
    typeof k === 'object' &&
    ADDRESS.test(k.currency0) &&
    ADDRESS.test(k.currency1) &&
    ADDRESS.test(k.hooks) &&
    Number.isInteger(k.fee) &&
    Number.isInteger(k.tickSpacing)
  );
}
