import { ERC20_TRANSFER_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import type { RpcLog } from './rpc-types.js';
import { isTransferLog, ZERO_ADDRESS } from './transfer-log.js';
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
    if (pools.has(to) && from !== ZERO_ADDRESS) into.set(to, [...(into.get(to) ?? []), t]);
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

/**
 * `AddLiquidity(address indexed provider, uint256[N] token_amounts, ...)` as the pool kinds declare
 * it: stableswap with N = 2, 3, 4 (`..., uint256[N] fees, uint256 invariant, uint256 token_supply`),
 * cryptoswap with N = 2, 3 (`..., uint256 fee, uint256 token_supply`), stableswap-ng with dynamic
 * arrays. Topic -> N, 0 for the dynamic form.
 */
const ADD_LIQUIDITY_TOPICS: ReadonlyMap<string, number> = new Map([
  ['0x26f55a85081d24974e85c6c00045d0f0453991e95873f52bff0d21af4079a768', 2],
  ['0x423f6495a08fc652425cf4ed0d1f9e37e571d9b9529b1c1c23cce780b2e7df0d', 3],
  ['0x3f1915775e0c9a38a57a7bb7f1f9005f486fb904e1f84aa215364d567319a58d', 4],
  ['0x540ab385f9b5d450a27404172caade516b3ba3f4be88239ac56a2ad1de2a1f5a', 2],
  ['0x96b486485420b963edd3fdec0b0195730035600feb7de6f544383d7950fa97ee', 3],
  ['0x189c623b666b1b45b83d7178f39b8c087cb09774317ca2f53c2d3c3726f222a2', 0],
]);

/** The deposited amounts of an AddLiquidity event, by coin index. */
function depositedAmounts(l: RpcLog, n: number): bigint[] {
  if (n > 0) return Array.from({ length: n }, (_, i) => dataWord(l.data, i));
  const at = Number(dataWord(l.data, 0) / 32n);
  const len = Number(dataWord(l.data, at));
  return len > 0 && len <= 8 ? Array.from({ length: len }, (_, i) => dataWord(l.data, at + 1 + i)) : [];
}

/** A pool's deposit whose LP token is another contract: the coins it passed on to that token's mint. */
export interface CurveDeposit {
  pool: string;
  lpToken: string;
  coins: Array<{ token: string; amount: bigint }>;
}

/**
 * Deposits into Curve pools whose LP token is a contract of its own (the older pools: 3pool, the
 * sUSD and lending pools, most on Gnosis and Polygon): the pool takes the coins and the LP token's
 * contract mints to the provider, so the flow graph would see the pool as a sink and the LP token
 * as minted against nothing. Read from the pool's `AddLiquidity`: the LP token is the one minted to
 * its provider in the logs just before it (the pool mints, then emits), and each deposited coin is
 * the token of a transfer into the pool of that exact amount before the event (a coin with no such
 * transfer, a native deposit or a fee-on-transfer coin, is left out). LP tokens the provider burns
 * again in the transaction leave the deposit as it was (below). A pool that is its own LP
 * token (stableswap-ng, the newer crypto pools) mints from its own address: nothing to add.
 */

export function curveDeposits(logs: readonly RpcLog[]): CurveDeposit[] {
  const out: CurveDeposit[] = [];
  const claimed = new Set<number>();
  logs.forEach((l, i) => {
    const n = l.topics.length === 2 ? ADD_LIQUIDITY_TOPICS.get(l.topics[0].toLowerCase()) : undefined;
    if (n === undefined) return;
    const pool = l.address.toLowerCase();
    const provider = topicToAddress(l.topics[1]);
    let lpToken: string | null = null;
    let minted = 0n;
    for (let j = i - 1; j >= 0 && lpToken === null; j--) {
      const t = logs[j];
      if (claimed.has(j) || !isTransferLog(t)) continue;
      if (topicToAddress(t.topics[1]) === ZERO_ADDRESS && topicToAddress(t.topics[2]) === provider) {
        lpToken = t.address.toLowerCase();
        minted = dataWord(t.data, 0);
        claimed.add(j);
      }
    }
    if (lpToken === null || lpToken === pool) return;
    // LP tokens burnt again by the provider later in the transaction (add_liquidity then
    // remove_liquidity_one_coin: a swap through the pool's two faces): the pool's own net flow is
    // that swap, and the mint and burn cancel out.
    let burnt = 0n;
    for (let j = i + 1; j < logs.length; j++) {
      const t = logs[j];
      if (isTransferLog(t) && t.address.toLowerCase() === lpToken && topicToAddress(t.topics[1]) === provider && topicToAddress(t.topics[2]) === ZERO_ADDRESS)
        burnt += dataWord(t.data, 0);
    }
    if (burnt >= minted) return;
    const coins: CurveDeposit['coins'] = [];
    const used = new Set<number>();
    for (const amount of depositedAmounts(l, n)) {
      if (amount === 0n) continue;
      for (let j = i - 1; j >= 0; j--) {
        const t = logs[j];
        if (used.has(j) || !isTransferLog(t)) continue;
        if (topicToAddress(t.topics[2]) !== pool || dataWord(t.data, 0) !== amount || t.address.toLowerCase() === lpToken) continue;
        used.add(j);
        coins.push({ token: t.address.toLowerCase(), amount });
        break;
      }
    }
    if (coins.length) out.push({ pool, lpToken, coins });
  });
  return out;
}
