/**
 * Event shapes of the Uniswap V2 pair family. Uniswap V2 forks on EVM chains (PancakeSwap V2,
 * SushiSwap, ...) and SunSwap V2 on Tron emit the same events with the same topics, so both the
 * EVM and the Tron decoders read pools through this file. Topics are keccak-256 of the canonical
 * signatures (checked in tests/evm/events.test.ts).
 */

/** `Swap(address indexed sender, uint amount0In, uint amount1In, uint amount0Out, uint amount1Out, address indexed to)` */
export const UNISWAP_V2_SWAP_TOPIC = '0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822';
/** `Sync(uint112 reserve0, uint112 reserve1)` */
export const UNISWAP_V2_SYNC_TOPIC = '0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1';
/** `Mint(address indexed sender, uint amount0, uint amount1)`: liquidity added, never a trade. */
export const UNISWAP_V2_MINT_TOPIC = '0x4c209b5fc8ad50758f13e2e1088ba56a560dff690a1c6fef26394f4c03821c4f';
/** `Burn(address indexed sender, uint amount0, uint amount1, address indexed to)`: liquidity removed. */
export const UNISWAP_V2_BURN_TOPIC = '0xdccd412f0b1252819cb1fd330b93224ca42612892bb3f4f789976e6d81936496';
/** Factory `PairCreated(address indexed token0, address indexed token1, address pair, uint)`. */
export const UNISWAP_V2_PAIR_CREATED_TOPIC = '0x0d3648bd0f6ba80134a33ba9275ac585d9d315f0ad8355cddefde31afa28d0e9';
/** ERC-20 / TRC-20 `Transfer(address indexed from, address indexed to, uint value)`. */
export const ERC20_TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** Address (lowercase 0x + 40 hex) held in a 32-byte topic. */
export function topicToAddress(topic: string): string {
  return '0x' + topic.slice(-40).toLowerCase();
}
