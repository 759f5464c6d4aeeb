import type { RpcLog } from './rpc-types.js';
import { dataWord, wordToAddress } from './words.js';

/**
 * four.meme's bonding curve (TokenManager2 on BNB Chain). Neither event indexes anything:
 * `TokenPurchase(address token, address account, uint256 price, uint256 amount, uint256 cost,
 * uint256 fee, uint256 offers, uint256 funds)` and `TokenSale(...)` of the same shape. `amount` is
 * tokens, `cost` the quote the curve took or paid for them (amount x price, the trading fee
 * apart, as decisions.md wants a venue's own figure), `offers` and `funds` the curve's state after.
 */
export const FOURMEME_PURCHASE_TOPIC = '0x7db52723a3b2cdd6164364b3b766e65e540d7be48ffa89582956d8eaebe62942';
export const FOURMEME_SALE_TOPIC = '0x0a5575b3648bae2210cee56bf33254cc1ddfbc7bf637c0af2ac18b14fb1bae19';

export interface FourMemeTrade {
  manager: string;
  side: 'buy' | 'sell';
  token: string;
  /** Tokens bought or sold (word 3). */
  amount: bigint;
  /** The quote the curve exchanged (word 4). */
  cost: bigint;
}

export function fourMemeTrades(logs: readonly RpcLog[], managers: ReadonlySet<string>): FourMemeTrade[] {
  const out: FourMemeTrade[] = [];
  for (const l of logs) {
    const t0 = l.topics[0]?.toLowerCase();
    if (t0 !== FOURMEME_PURCHASE_TOPIC && t0 !== FOURMEME_SALE_TOPIC) continue;
    const manager = l.address.toLowerCase();
    if (!managers.has(manager) || l.topics.length !== 1 || l.data.length < 2 + 8 * 64) continue;
    out.push({
      manager,
      side: t0 === FOURMEME_PURCHASE_TOPIC ? 'buy' : 'sell',
      token: wordToAddress(dataWord(l.data, 0)),
      amount: dataWord(l.data, 3),
      cost: dataWord(l.data, 4),
    });
  }
  return out;
}
