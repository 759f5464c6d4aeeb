import { ERC20_TRANSFER_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import type { DecodedTrade } from './decode-receipt.js';
import type { EvmDexKind } from '../registry.js';
import { dataWord, wordToAddress } from './words.js';

/**
 * Settlements for the wallet (decisions.md): a solver sends the transaction, and the wallet is
 * the order's owner. The one exception to "the wallet is the transaction's sender", so only
 * configured settlement contracts count (anyone can emit an event of the same shape).
 */

/** CoW Protocol `Trade(address indexed owner, address sellToken, address buyToken, uint256 sellAmount, uint256 buyAmount, uint256 feeAmount, bytes orderUid)`. */
export const COW_TRADE_TOPIC = '0xa07a543ab8a018198e99ca0184c93fe9050a79400a0a723441f84de1d972cc17';
/** UniswapX reactors' `Fill(bytes32 indexed orderHash, address indexed filler, address indexed swapper, uint256 nonce)`. */
export const UNISWAPX_FILL_TOPIC = '0x78ad7ec0e9f89e74012afa58738b6b661c024cb0fd185ee2f616c0a28924bd66';
/** The token address CoW orders use for native ETH bought (it cannot be sold). */
export const COW_NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
/**
 * CoW's ETH-flow contracts, the owner of every order that sells native ETH (the placer sends the
 * ETH with `createOrder`, in another transaction): the first deployment and the current one, the
 * latter at one address on every chain CoW serves (cowprotocol/ethflowcontract,
 * broadcast/Deploy.sol/<chain>/deployment.prod.json).
 */
export const COW_ETH_FLOW: ReadonlySet<string> = new Set(['0x40a50cf069e992aa4536211b23f286ef88752187', '0xba3cb449bd2b4adddbc894d8697f5170800eadec']);

interface SettlementLog {
  address: string;
  topics: string[];
  data: string;
}

/** The wallet's net Transfer flow per token over the whole receipt (positive: received). */
function walletNet(logs: readonly SettlementLog[], wallet: string): Map<string, bigint> {
  const net = new Map<string, bigint>();
  for (const l of logs) {
    if (l.topics.length !== 3 || l.topics[0].toLowerCase() !== ERC20_TRANSFER_TOPIC) continue;
    const from = topicToAddress(l.topics[1]);
    const to = topicToAddress(l.topics[2]);
    if (from === to) continue;
    const token = l.address.toLowerCase();
    const v = dataWord(l.data, 0);
    if (from === wallet) net.set(token, (net.get(token) ?? 0n) - v);
    if (to === wallet) net.set(token, (net.get(token) ?? 0n) + v);
  }
  return net;
}

/** What `from` transferred of `token` to `to` in these logs. */
function deliveredBy(logs: readonly SettlementLog[], token: string, from: string, to: string): bigint {
  let sum = 0n;
  for (const l of logs) {
    if (l.topics.length !== 3 || l.topics[0].toLowerCase() !== ERC20_TRANSFER_TOPIC || l.address.toLowerCase() !== token) continue;
    if (topicToAddress(l.topics[1]) === from && topicToAddress(l.topics[2]) === to) sum += dataWord(l.data, 0);
  }
  return sum;
}

/**
 * The wallet's trades settled for it in one receipt by the configured settlement contracts
 * (`settlements`: address -> kind), in leg order (sells, then buys).
 *  - CoW: each `Trade` whose owner is the wallet. The native side is WETH sold, or ETH (CoW's
 *    0xeeee… marker) or WETH bought, at the event's executed amounts (CoW's fee apart: like a
 *    router's, it is not the price); the token side is what left or reached the wallet when its
 *    Transfer shows it (a transfer tax included), else the event's amount (plus the fee on a sell).
 *  - UniswapX: a `Fill` whose swapper is the wallet; the reactor's event carries no amounts, so the
 *    trade is the wallet's net token flow in the transaction, WETH being the native side (native
 *    ETH paid out to a swapper leaves no log: such a sale's amountSol is null).
 */
export function settlementTrades(
  logs: readonly SettlementLog[],
  wallet: string,
  wrapped: string | null,
  settlements: ReadonlyMap<string, EvmDexKind>,
): DecodedTrade[] {
  const sells: DecodedTrade[] = [];
  const buys: DecodedTrade[] = [];
  let net: Map<string, bigint> | null = null;
  const netOf = (token: string) => (net ??= walletNet(logs, wallet)).get(token) ?? 0n;
  const isNative = (t: string) => t === COW_NATIVE || t === wrapped;

  for (const l of logs) {
    const kind = settlements.get(l.address.toLowerCase());
    const t0 = l.topics[0]?.toLowerCase();
    if (kind === 'cow' && t0 === COW_TRADE_TOPIC && l.topics.length === 2 && COW_ETH_FLOW.has(topicToAddress(l.topics[1]))) {
      // An ETH-flow order (ROUTES.md R6): the buy of the account the bought token reached (the
      // order's receiver, in practice its placer), for the executed sell amount the event states.
      const buyToken = wordToAddress(dataWord(l.data, 1));
      const pool = l.address.toLowerCase();
      const got = deliveredBy(logs, buyToken, pool, wallet);
      if (got > 0n && !isNative(buyToken)) buys.push({ side: 'buy', token: buyToken, amountRaw: got, nativeRaw: dataWord(l.data, 2), pool, poolKind: 'cow' });
    } else if (kind === 'cow' && t0 === COW_TRADE_TOPIC && l.topics.length === 2 && topicToAddress(l.topics[1]) === wallet) {
      const sellToken = wordToAddress(dataWord(l.data, 0));
      const buyToken = wordToAddress(dataWord(l.data, 1));
      const sellAmount = dataWord(l.data, 2);
      const buyAmount = dataWord(l.data, 3);
      const fee = dataWord(l.data, 4);
      const pool = l.address.toLowerCase();
      const soldAmount = () => (netOf(sellToken) < 0n ? -netOf(sellToken) : sellAmount + fee);
      const boughtAmount = () => (netOf(buyToken) > 0n ? netOf(buyToken) : buyAmount);
      if (isNative(sellToken) && !isNative(buyToken)) {
        buys.push({ side: 'buy', token: buyToken, amountRaw: boughtAmount(), nativeRaw: sellAmount, pool, poolKind: 'cow' });
      } else if (isNative(buyToken) && !isNative(sellToken)) {
        sells.push({ side: 'sell', token: sellToken, amountRaw: soldAmount(), nativeRaw: buyAmount, pool, poolKind: 'cow' });
      } else if (!isNative(sellToken) && !isNative(buyToken)) {
        sells.push({ side: 'sell', token: sellToken, amountRaw: soldAmount(), nativeRaw: null, pool, poolKind: 'cow' });
        buys.push({ side: 'buy', token: buyToken, amountRaw: boughtAmount(), nativeRaw: null, pool, poolKind: 'cow' });
      }
    } else if (kind === 'uniswapx' && t0 === UNISWAPX_FILL_TOPIC && l.topics.length === 4 && topicToAddress(l.topics[3]) === wallet) {
      const pool = l.address.toLowerCase();
      netOf(''); // computes the flows
      const flows = [...net!].filter(([t, v]) => v !== 0n && t !== wrapped);
      const weth = wrapped ? netOf(wrapped) : 0n;
      const sold = flows.filter(([, v]) => v < 0n);
      const bought = flows.filter(([, v]) => v > 0n);
      const tokenToToken = sold.length > 0 && bought.length > 0;
      for (const [token, v] of sold) {
        sells.push({ side: 'sell', token, amountRaw: -v, nativeRaw: !tokenToToken && weth > 0n ? weth : null, pool, poolKind: 'uniswapx' });
      }
      for (const [token, v] of bought) {
        buys.push({ side: 'buy', token, amountRaw: v, nativeRaw: !tokenToToken && weth < 0n ? -weth : null, pool, poolKind: 'uniswapx' });
      }
      break; // the flows are the transaction's: one Fill for the wallet is read once
    }
  }
  return [...sells, ...buys];
}
