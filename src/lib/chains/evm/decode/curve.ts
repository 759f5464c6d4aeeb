import { ERC20_TRANSFER_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import type { RpcLog } from './rpc-types.js';
import { dataWord } from './words.js';

/**
 * Curve pools (curvefi/curve-contract, curve-crypto-contract, tricrypto-ng, stableswap-ng, the
 * Vyper sources' event declarations): every pool kind states its swaps as `TokenExchange` (and a
 * metapool's or lending pool's exchange of underlying coins as `TokenExchangeUnderlying`), by coin
 * index: `(buyer indexed, sold_id, tokens_sold, bought_id, tokens_bought, ...)`. The coins behind
 * the indexes are not in the event; the pool's own transfers tell them, and a side no transfer
 * shows is the native coin (pools that hold ETH take and pay it with the call's value).
 */

/** Stableswap (and stableswap-ng) `TokenExchange(address indexed buyer, int128 sold_id, uint256 tokens_sold, int128 bought_id, uint256 tokens_bought)`. */
export const CURVE_TOKEN_EXCHANGE_TOPIC = '0x8b3e96f2b889fa771c53c981b40daf005f63f637f1869f707052d15a3dd97140';
/** Metapools and lending pools: `TokenExchangeUnderlying` with the same fields. */
export const CURVE_TOKEN_EXCHANGE_UNDERLYING_TOPIC = '0xd013ca23e77a65003c2c659c5442c00c805371b7fc1ebd4c206c41d1536bd90b';
/** Cryptoswap `TokenExchange(address indexed buyer, uint256 sold_id, uint256 tokens_sold, uint256 bought_id, uint256 tokens_bought)`. */
export const CURVE_CRYPTO_EXCHANGE_TOPIC = '0xb2e76ae99761dc136e598d4a629bb347eccb9532a5f8bbd72e18467c3c34cc98';
/** Tricrypto-ng / twocrypto-ng: the cryptoswap fields plus `uint256 fee, uint256 packed_price_scale`. */
export const CURVE_NG_EXCHANGE_TOPIC = '0x143f1f8e861fbdeddd5b46e844b7d3ac7b86a122f36e8c463859ee6811b1f29c';

const ZERO = '0x0000000000000000000000000000000000000000';

const CURVE_TOPICS = new Set([CURVE_TOKEN_EXCHANGE_TOPIC, CURVE_TOKEN_EXCHANGE_UNDERLYING_TOPIC, CURVE_CRYPTO_EXCHANGE_TOPIC, CURVE_NG_EXCHANGE_TOPIC]);

export interface CurveExchange {
  pool: string;
  /** Token addresses (lowercase), or null for the native coin. */
  sold: string | null;
  tokensSold: bigint;
  bought: string | null;
  tokensBought: bigint;
}

interface PoolTransfer {
  token: string;
  value: bigint;
}

/**
 * The coin a pool took (or paid) for `amount`: the token of a transfer into (out of) the pool of
 * exactly that amount, else the token it took (paid) most of (a token that rounds its transfers,
 * as stETH does by a wei or two), else the native coin.
 */
function coinOf(transfers: readonly PoolTransfer[], amount: bigint): string | null {
  const exact = transfers.find((t) => t.value === amount);
  if (exact) return exact.token;
  let best: PoolTransfer | null = null;
  for (const t of transfers) if (!best || t.value > best.value) best = t;
  return best ? best.token : null;
}

export function curveExchanges(logs: readonly RpcLog[]): CurveExchange[] {
  const pools = new Set<string>();
  for (const l of logs) if (l.topics.length === 2 && CURVE_TOPICS.has(l.topics[0].toLowerCase())) pools.add(l.address.toLowerCase());
  if (pools.size === 0) return [];
  const into = new Map<string, PoolTransfer[]>();
  const outOf = new Map<string, PoolTransfer[]>();
  for (const l of logs) {
    if (l.topics.length !== 3 || l.topics[0].toLowerCase() !== ERC20_TRANSFER_TOPIC) continue;
    const from = topicToAddress(l.topics[1]);
    const to = topicToAddress(l.topics[2]);
    const t = { token: l.address.toLowerCase(), value: dataWord(l.data, 0) };
    // A base pool's LP token minted to a metapool is the metapool's doing, not a coin the buyer paid
    // (exchange_underlying may state its amount sold in it).
    if (pools.has(to) && from !== ZERO) into.set(to, [...(into.get(to) ?? []), t]);
    if (pools.has(from)) outOf.set(from, [...(outOf.get(from) ?? []), t]);
  }
  const out: CurveExchange[] = [];
  for (const l of logs) {
    if (l.topics.length !== 2 || !CURVE_TOPICS.has(l.topics[0].toLowerCase())) continue;
    const pool = l.address.toLowerCase();
    const tokensSold = dataWord(l.data, 1);
    const tokensBought = dataWord(l.data, 3);
    // A pool's own LP token minted or burnt by it is not a coin it traded.
    const notOwn = (t: PoolTransfer) => t.token !== pool;
    out.push({
      pool,
      sold: coinOf((into.get(pool) ?? []).filter(notOwn), tokensSold),
      tokensSold,
      bought: coinOf((outOf.get(pool) ?? []).filter(notOwn), tokensBought),
      tokensBought,
    });
  }
  return out;
}
