import { ERC20_TRANSFER_TOPIC, UNISWAP_V2_SWAP_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import { UNISWAP_V3_SWAP_TOPIC } from '../../shared/uniswap-v3-events.js';
import type { EvmChainConfig, EvmDexKind } from '../registry.js';
import { BALANCER_V2_SWAP_TOPIC, balancerHops } from './balancer.js';
import { NATIVE_CURRENCY, V4_SWAP_TOPIC, v4Hops, type V4PoolKey } from './v4.js';
import { dataWord } from './words.js';

/**
 * Turns one transaction receipt into the wallet's trades (decisions.md, "Trades"):
 *  - only a transaction the wallet sent, or an ERC-4337 operation whose `sender` is the wallet
 *    (then only the logs of that operation count);
 *  - a pool is any contract that emitted a Uniswap-V2/V3-shaped `Swap` in those logs;
 *  - the token amount is the wallet's own net `Transfer` flow of a token that went through a pool
 *    (so fee-on-transfer tokens come out as what reached or left the wallet);
 *  - the native amount is the wrapped-native flow into (buy) or out of (sell) the pools, i.e. the
 *    venue's own figure: refunds of excess ETH, gas and router dust never enter it;
 *  - venues that keep all their pools' tokens (a Uniswap V4 PoolManager, the Balancer V2 Vault)
 *    give their native figure from their own events instead: V4 native ETH moves with no log at
 *    all, and the Vault wraps ETH itself;
 *  - a swap between two non-native tokens is a sell and a buy: the sell's amountSol is the native
 *    amount its venues paid out, the buy's what its venues took in (equal unless something was
 *    taken between the legs), or null for a route with no native leg.
 */

/** PancakeSwap V3 adds two protocol-fee fields: `Swap(...,int24,uint128,uint128)`. */
export const PANCAKESWAP_V3_SWAP_TOPIC = '0x19b47279256b2a23a1665c810c8d55a1758940ee09377d4f8d26497a3577dc83';
/** Solidly-style pools (Aerodrome, Velodrome): `Swap(address,address,uint256,uint256,uint256,uint256)`. */
export const SOLIDLY_SWAP_TOPIC = '0xb3e2773606abfd36b5bd91394b3a54d1398336c65005baf7bf7a05efeffaf75b';
/** ERC-4337 `UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)` (EntryPoint 0.6 to 0.8). */
export const USER_OPERATION_EVENT_TOPIC = '0x49628fd1471006c1482da88028e9ce4dbb080b815c9b0344d39e5a8e6ec1419f';
/** ERC-4337 `BeforeExecution()`: the EntryPoint's marker between validation and execution. */
export const BEFORE_EXECUTION_TOPIC = '0xbb47ee3e183a558b1a2ff0874b079f3fc5478b7454eacf2bfc5af2ff5878f972';

const SWAP_KIND: Record<string, EvmDexKind> = {
  [UNISWAP_V2_SWAP_TOPIC]: 'v2',
  [SOLIDLY_SWAP_TOPIC]: 'v2',
  [UNISWAP_V3_SWAP_TOPIC]: 'v3',
  [PANCAKESWAP_V3_SWAP_TOPIC]: 'v3',
  [V4_SWAP_TOPIC]: 'v4',
  [BALANCER_V2_SWAP_TOPIC]: 'balancer-v2',
};

/** Venue kinds whose native side comes from their own events, not from wrapped-native transfers. */
const EVENT_ACCOUNTED: ReadonlySet<EvmDexKind> = new Set(['v4', 'balancer-v2']);

export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  transactionIndex: string;
  logIndex?: string;
  /** Not standard JSON-RPC, but anvil, reth and recent geth add it. */
  blockTimestamp?: string;
}

export interface RpcReceipt {
  transactionHash: string;
  transactionIndex: string;
  blockNumber: string;
  from: string;
  to: string | null;
  status?: string;
  logs: RpcLog[];
}

export interface DecodedTrade {
  side: 'buy' | 'sell';
  /** Token address, lowercase. */
  token: string;
  amountRaw: bigint;
  /** Wrapped-native amount in wei, or null when the route has no native leg. */
  nativeRaw: bigint | null;
  /**
   * The pool that delivered (buy) or took (sell) the token, and its event shape; for V4 and
   * Balancer the PoolManager or Vault (the venue is that contract).
   */
  pool: string;
  poolKind: EvmDexKind;
}

/** Pools (emitters of a Swap-shaped event) in a receipt, lowercase, with their event kind. */
export function swapPools(logs: readonly RpcLog[]): Map<string, EvmDexKind> {
  const m = new Map<string, EvmDexKind>();
  for (const l of logs) {
    const k = l.topics.length > 0 ? SWAP_KIND[l.topics[0].toLowerCase()] : undefined;
    if (k && !m.has(l.address.toLowerCase())) m.set(l.address.toLowerCase(), k);
  }
  return m;
}

/**
 * The log ranges that belong to the wallet: the whole receipt when the wallet sent the
 * transaction, else the execution logs of each successful ERC-4337 operation whose sender is the
 * wallet (logs after the previous UserOperationEvent or BeforeExecution of that EntryPoint).
 */
function walletSegments(receipt: RpcReceipt, wallet: string, entryPoints: ReadonlySet<string>): RpcLog[][] {
  if (receipt.from?.toLowerCase() === wallet) return [receipt.logs];
  const out: RpcLog[][] = [];
  let start = 0;
  receipt.logs.forEach((l, i) => {
    const t0 = l.topics[0]?.toLowerCase();
    const ep = l.address.toLowerCase();
    if (!entryPoints.has(ep)) return;
    if (t0 === BEFORE_EXECUTION_TOPIC) {
      start = i + 1;
    } else if (t0 === USER_OPERATION_EVENT_TOPIC && l.topics.length === 4) {
      const success = dataWord(l.data, 1) === 1n;
      if (success && topicToAddress(l.topics[2]) === wallet) out.push(receipt.logs.slice(start, i));
      start = i + 1;
    }
  });
  return out;
}

interface Flow {
  token: string;
  from: string;
  to: string;
  value: bigint;
}

/** V4 pool keys by pool id (lowercase), as looked up by the source. */
export type PoolKeys = ReadonlyMap<string, V4PoolKey>;

function decodeSegment(logs: readonly RpcLog[], wallet: string, wrapped: string | null, poolKeys: PoolKeys): DecodedTrade[] {
  const pools = swapPools(logs);
  if (pools.size === 0) return [];
  const flows: Flow[] = [];
  for (const l of logs) {
    // 4 topics is ERC-721 Transfer (tokenId indexed): not a fungible amount.
    if (l.topics.length !== 3 || l.topics[0].toLowerCase() !== ERC20_TRANSFER_TOPIC) continue;
    flows.push({ token: l.address.toLowerCase(), from: topicToAddress(l.topics[1]), to: topicToAddress(l.topics[2]), value: dataWord(l.data, 0) });
  }

  // The venue side of the route: the pools and whoever paid into or was paid by them (routers,
  // aggregator executors). A token counts only when the wallet exchanged it with one of these:
  // a plain transfer to a friend during which a tax token swaps its fees is not a trade.
  const venue = new Set<string>(pools.keys());
  for (const f of flows) {
    if (pools.has(f.to)) venue.add(f.from);
    if (pools.has(f.from)) venue.add(f.to);
  }
  venue.delete(wallet);
  // A token contract is never the venue: tax tokens swap their collected fees from their own balance.
  for (const f of flows) if (!pools.has(f.token)) venue.delete(f.token);

  // Wallet's net flow per token (all of it: transfer fees and commissions included), first-seen order.
  const net = new Map<string, bigint>();
  const withVenue = new Set<string>();
  for (const f of flows) {
    if (f.token === wrapped || pools.has(f.token)) continue; // wrapped native is the native side; LP tokens are not traded
    if (f.from === wallet && f.to === wallet) continue;
    if (f.from === wallet) {
      net.set(f.token, (net.get(f.token) ?? 0n) - f.value);
      if (venue.has(f.to)) withVenue.add(f.token);
    } else if (f.to === wallet) {
      net.set(f.token, (net.get(f.token) ?? 0n) + f.value);
      if (venue.has(f.from)) withVenue.add(f.token);
    }
  }
  const sold: string[] = [];
  const bought: string[] = [];
  for (const [t, v] of net) {
    if (!withVenue.has(t) || v === 0n) continue;
    (v < 0n ? sold : bought).push(t);
  }
  if (sold.length === 0 && bought.length === 0) return [];

  // Native flows of the pools: into them minus out of them, and the gross amounts in and out.
  const wIn = new Map<string, bigint>();
  const wOut = new Map<string, bigint>();
  let netIn = 0n;
  let grossIn = 0n;
  let grossOut = 0n;
  const into = (pool: string, v: bigint) => {
    wIn.set(pool, (wIn.get(pool) ?? 0n) + v);
    netIn += v;
    grossIn += v;
  };
  const outOf = (pool: string, v: bigint) => {
    wOut.set(pool, (wOut.get(pool) ?? 0n) + v);
    netIn -= v;
    grossOut += v;
  };
  const eventAccounted = (a: string) => EVENT_ACCOUNTED.has(pools.get(a)!);
  if (wrapped) {
    for (const f of flows) {
      if (f.token !== wrapped) continue;
      if (pools.has(f.to) && !eventAccounted(f.to)) into(f.to, f.value);
      if (pools.has(f.from) && !eventAccounted(f.from)) outOf(f.from, f.value);
    }
  }
  // V4: the swapper's delta in the native (or wrapped) currency of each hop, hook fee included
  // (a hook's fee is paid by the swapper on top of what the pool swapped).
  const isNative = (c: string) => c === NATIVE_CURRENCY || c === wrapped;
  for (const h of v4Hops(logs)) {
    const key = poolKeys.get(h.id);
    if (!key) continue;
    let paid: bigint | null = null;
    if (isNative(key.currency0)) paid = -h.amount0 + h.hookFee0;
    else if (isNative(key.currency1)) paid = -h.amount1 + h.hookFee1;
    if (paid === null || paid === 0n) continue;
    if (paid > 0n) into(h.manager, paid);
    else outOf(h.manager, -paid);
  }
  // Balancer V2: the event's WETH side, whether the wallet paid WETH or ETH the Vault wrapped.
  if (wrapped) {
    for (const h of balancerHops(logs)) {
      if (h.tokenIn === wrapped) into(h.vault, h.amountIn);
      if (h.tokenOut === wrapped) outOf(h.vault, h.amountOut);
    }
  }
  const poolNetIn = (p: string) => (wIn.get(p) ?? 0n) - (wOut.get(p) ?? 0n);
  const positive = (v: bigint) => (v > 0n ? v : null);

  // The pool adjacent to the token: the one that sent it (buy) or received it (sell).
  const poolFor = (token: string, side: 'buy' | 'sell'): string => {
    const seq = flows.filter((f) => f.token === token && pools.has(side === 'buy' ? f.from : f.to));
    const f = side === 'buy' ? seq[seq.length - 1] : seq[0];
    return f ? (side === 'buy' ? f.from : f.to) : [...pools.keys()][0];
  };

  const trades: DecodedTrade[] = [];
  const tokenToToken = sold.length > 0 && bought.length > 0;
  for (const side of ['sell', 'buy'] as const) {
    const list = side === 'sell' ? sold : bought;
    for (const token of list) {
      const pool = poolFor(token, side);
      let nativeRaw: bigint | null;
      if (tokenToToken) nativeRaw = positive(side === 'sell' ? grossOut : grossIn);
      else if (list.length === 1) nativeRaw = positive(side === 'buy' ? netIn : -netIn);
      else nativeRaw = positive(side === 'buy' ? poolNetIn(pool) : -poolNetIn(pool));
      const v = net.get(token)!;
      trades.push({ side, token, amountRaw: v < 0n ? -v : v, nativeRaw, pool, poolKind: pools.get(pool)! });
    }
  }
  return trades;
}

/** The wallet's trades in one receipt, in leg order (sells, then buys). `wallet` is lowercase. */
export function decodeReceipt(
  receipt: RpcReceipt,
  wallet: string,
  chain: Pick<EvmChainConfig, 'wrappedNative' | 'entryPoints'>,
  poolKeys: PoolKeys = new Map(),
): DecodedTrade[] {
  if (receipt.status !== undefined && receipt.status !== '0x1') return [];
  const eps = new Set(chain.entryPoints.map((a) => a.toLowerCase()));
  const out: DecodedTrade[] = [];
  for (const seg of walletSegments(receipt, wallet, eps)) out.push(...decodeSegment(seg, wallet, chain.wrappedNative, poolKeys));
  return out;
}
