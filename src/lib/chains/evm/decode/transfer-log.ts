import { ERC20_TRANSFER_TOPIC } from '../../shared/uniswap-v2-events.js';
import type { RpcLog } from './rpc-types.js';

/** The zero address: a Transfer from it is a mint, to it a burn. */
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** A fungible `Transfer` log: three topics (ERC-721's has four, its tokenId indexed). */
export const isTransferLog = (l: RpcLog): boolean => l.topics.length === 3 && l.topics[0]?.toLowerCase() === ERC20_TRANSFER_TOPIC;
