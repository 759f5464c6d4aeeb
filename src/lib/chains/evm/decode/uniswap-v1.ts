import { ERC20_TRANSFER_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import type { RpcLog } from './rpc-types.js';

/**
 * Uniswap V1 exchanges (Uniswap/v1-contracts, uniswap_exchange.vy): one per token, holding ETH and
 * the token, paying and taking ETH with the call (no log moves it). Every field of their swap
 * events is indexed: `TokenPurchase(address indexed buyer, uint256 indexed eth_sold, uint256
 * indexed tokens_bought)` and `EthPurchase(address indexed buyer, uint256 indexed tokens_sold,
 * uint256 indexed eth_bought)`. The token is the one the exchange sent (or took) in the same logs.
 */
export const UNISWAP_V1_TOKEN_PURCHASE_TOPIC = '0xcd60aa75dea3072fbc07ae6d7d856b5dc5f4eee88854f5b4abf7b680ef8bc50f';
export const UNISWAP_V1_ETH_PURCHASE_TOPIC = '0x7f4091b46c33e918a0f3aa42307641d17bb67029427a5369e54b353984238705';

export interface UniswapV1Swap {
  exchange: string;
  token: string;
  /** True when the exchange took ETH and paid the token. */
  tokenBought: boolean;
  eth: bigint;
  tokens: bigint;
}

export function uniswapV1Swaps(logs: readonly RpcLog[]): UniswapV1Swap[] {
  const out: UniswapV1Swap[] = [];
  for (const l of logs) {
    const t0 = l.topics[0]?.toLowerCase();
    if ((t0 !== UNISWAP_V1_TOKEN_PURCHASE_TOPIC && t0 !== UNISWAP_V1_ETH_PURCHASE_TOPIC) || l.topics.length !== 4) continue;
    const exchange = l.address.toLowerCase();
    const tokenBought = t0 === UNISWAP_V1_TOKEN_PURCHASE_TOPIC;
    const tokens = BigInt(tokenBought ? l.topics[3] : l.topics[2]);
    const eth = BigInt(tokenBought ? l.topics[2] : l.topics[3]);
    // The token the exchange paid out (a purchase) or took in (a sale).
    const moved = logs.filter(
      (t) =>
        t.topics.length === 3 &&
        t.topics[0].toLowerCase() === ERC20_TRANSFER_TOPIC &&
        topicToAddress(tokenBought ? t.topics[1] : t.topics[2]) === exchange &&
        t.address.toLowerCase() !== exchange,
    );
    const token = (moved.find((t) => BigInt(t.data.slice(0, 66)) === tokens) ?? moved[0])?.address.toLowerCase();
    if (token) out.push({ exchange, token, tokenBought, eth, tokens });
  }
  return out;
}
