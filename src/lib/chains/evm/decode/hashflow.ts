import type { RpcLog } from './rpc-types.js';
import { dataWord, wordToAddress } from './words.js';

/**
 * Hashflow pools (hashflownetwork/hashflow-contracts-evm, IHashflowPool.sol): a market maker's
 * pool fills a signed quote and states it as `Trade(address trader, bytes32 txid, address
 * baseToken, address quoteToken, uint256 baseTokenAmount, uint256 quoteTokenAmount)`: it took
 * `baseTokenAmount` of the base token and paid `quoteTokenAmount` of the quote token. A zero
 * address is the native coin, which the pool takes with the call (no log moves it).
 */
export const HASHFLOW_TRADE_TOPIC = '0x8cf3dec1929508e5677d7db003124e74802bfba7250a572205a9986d86ca9f1e';

export interface HashflowTrade {
  pool: string;
  baseToken: string;
  quoteToken: string;
  baseAmount: bigint;
  quoteAmount: bigint;
}

export function hashflowTrades(logs: readonly RpcLog[]): HashflowTrade[] {
  const out: HashflowTrade[] = [];
  for (const l of logs) {
    if (l.topics[0]?.toLowerCase() !== HASHFLOW_TRADE_TOPIC || l.topics.length !== 1 || l.data.length < 2 + 6 * 64) continue;
    out.push({
      pool: l.address.toLowerCase(),
      baseToken: wordToAddress(dataWord(l.data, 2)),
      quoteToken: wordToAddress(dataWord(l.data, 3)),
      baseAmount: dataWord(l.data, 4),
      quoteAmount: dataWord(l.data, 5),
    });
  }
  return out;
}
