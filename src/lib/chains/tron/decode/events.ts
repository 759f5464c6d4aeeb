/**
 * Events of the venues only Tron has. Topics are keccak-256 of the canonical signatures, checked
 * in tests/tron/events.test.ts and against the real logs in tests/fixtures/tron/. SunSwap V2
 * pairs and V3 pools emit the Uniswap V2/V3 events (chains/shared/).
 */

/** SunSwap V1 (JustSwap) exchange `TokenPurchase(address indexed buyer, uint256 indexed trx_sold, uint256 indexed tokens_bought)`: all in topics. */
export const SUNSWAP_V1_TOKEN_PURCHASE_TOPIC = '0xcd60aa75dea3072fbc07ae6d7d856b5dc5f4eee88854f5b4abf7b680ef8bc50f';
/** SunSwap V1 `TrxPurchase(address indexed buyer, uint256 indexed tokens_sold, uint256 indexed trx_bought)`. */
export const SUNSWAP_V1_TRX_PURCHASE_TOPIC = '0xdad9ec5c9b9c82bf6927bf0b64293dcdd1f82c92793aef3c5f26d7b93a4a5306';
/**
 * SunSwap V4 PoolManager `Swap(bytes32 indexed id, address indexed sender, int128 amount0,
 * int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee, uint16 ...)`:
 * Uniswap V4's event with one more field, so its own topic.
 */
export const SUNSWAP_V4_SWAP_TOPIC = '0x04206ad2b7c0f463bff3dd4f33c5735b0f2957a351e4f79763a4fa9e775dd237';
/** SunPump launchpad `TokenPurchased(address indexed token, address indexed buyer, uint256 trxAmount, uint256 fee, uint256 tokenAmount, uint256 tokenReserve)`. */
export const SUNPUMP_TOKEN_PURCHASED_TOPIC = '0x63abb62535c21a5d221cf9c15994097b8880cc986d82faf80f57382b998dbae5';
/** SunPump `TokenSold(address indexed token, address indexed seller, uint256 trxAmount, uint256 fee, uint256 tokenAmount)`. */
export const SUNPUMP_TOKEN_SOLD_TOPIC = '0x9387a595ac4be9038bbb9751abad8baa3dcf219dd9e19abb81552bd521fe3546';
