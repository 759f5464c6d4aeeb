/**
 * Event shapes of the Uniswap V3 pool family. Uniswap V3 forks on EVM chains and SunSwap V3 on
 * Tron emit the same `Swap`, so both families read pools through this file. Topics are
 * keccak-256 of the canonical signatures (checked in tests/evm/events.test.ts).
 */

/** `Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)` */
export const UNISWAP_V3_SWAP_TOPIC = '0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67';
