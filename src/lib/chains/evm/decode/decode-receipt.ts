import { ERC20_TRANSFER_TOPIC, UNISWAP_V2_SWAP_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import { UNISWAP_V3_SWAP_TOPIC } from '../../shared/uniswap-v3-events.js';
import type { EvmChainConfig, EvmDexKind } from '../registry.js';
import { BALANCER_V2_SWAP_TOPIC, balancerHops } from './balancer.js';
import { V4_SWAP_TOPIC, v4Hops } from './v4.js';
import { NATIVE_CURRENCY, type V4PoolKey } from './pool-key.js';
import type { RpcLog, RpcReceipt } from './rpc-types.js';
import { COW_TRADE_TOPIC, settlementTrades, UNISWAPX_FILL_TOPIC } from './settlements.js';
import { INFINITY_BIN_SWAP_TOPIC, INFINITY_CL_SWAP_TOPIC } from './infinity.js';
import { FOURMEME_PURCHASE_TOPIC, FOURMEME_SALE_TOPIC, fourMemeTrades } from './fourmeme.js';
import { dataWord } from './words.js';
import { routeTrades, type NativeMove, type RouteTrade, type TokenFlow } from '../../shared/route-trades.js';

/**
 * Turns one transaction receipt into the wallet's trades (decisions.md, "Trades"):
 *  - only a transaction the wallet sent, an ERC-4337 operation whose `sender` is the wallet, a
 *    Safe execution of the wallet's own Safe (then only the logs of that operation or execution
 *    count), or a relayer's call at the address of a wallet that delegated its code (EIP-7702);
 *    a settlement contract's trade for the wallet as owner (settlements.ts) is the one exception;
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
/** Safe `ExecutionSuccess(bytes32 indexed txHash, uint256 payment)` (Safe 1.3 to 1.4.1): the Safe executed a transaction its owners signed. */
export const SAFE_EXECUTION_SUCCESS_TOPIC = '0x442e715f626346e8c54381002da614f62bee8d27386535b2521ec8540898556e';
/** Safe `ExecutionFailure(bytes32 indexed txHash, uint256 payment)`. */
export const SAFE_EXECUTION_FAILURE_TOPIC = '0x23428b18acfb3ea64b08dc0c1d296ea9c09702c09083ca5272e64d115b687d23';

const SWAP_KIND: Record<string, EvmDexKind> = {
  [UNISWAP_V2_SWAP_TOPIC]: 'v2',
  [SOLIDLY_SWAP_TOPIC]: 'v2',
  [UNISWAP_V3_SWAP_TOPIC]: 'v3',
  [PANCAKESWAP_V3_SWAP_TOPIC]: 'v3',
  [V4_SWAP_TOPIC]: 'v4',
  [BALANCER_V2_SWAP_TOPIC]: 'balancer-v2',
  [INFINITY_CL_SWAP_TOPIC]: 'infinity',
  [INFINITY_BIN_SWAP_TOPIC]: 'infinity',
  [FOURMEME_PURCHASE_TOPIC]: 'fourmeme',
  [FOURMEME_SALE_TOPIC]: 'fourmeme',
};

/** Venue kinds whose native side comes from their own events, not from wrapped-native transfers. */
const EVENT_ACCOUNTED: ReadonlySet<EvmDexKind> = new Set(['v4', 'balancer-v2', 'infinity', 'fourmeme']);

/**
 * One trade of the wallet: for V4 and Balancer the `pool` is the PoolManager or Vault (the venue
 * is that contract); `nativeRaw` is in wei.
 */
export type DecodedTrade = RouteTrade<EvmDexKind>;

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
 * transaction, or when a relayer called the wallet's own address and the wallet delegated its
 * code (EIP-7702: the code runs as the wallet); else the execution logs of each successful
 * ERC-4337 operation whose sender is the wallet (logs after the previous UserOperationEvent or
 * BeforeExecution of that EntryPoint), and of each Safe execution the wallet (a Safe) reported
 * with its own ExecutionSuccess (logs after the previous Safe execution's event).
 */
function walletSegments(receipt: RpcReceipt, wallet: string, entryPoints: ReadonlySet<string>, delegated: boolean): RpcLog[][] {
  if (receipt.from?.toLowerCase() === wallet) return [receipt.logs];
  if (delegated && receipt.to?.toLowerCase() === wallet) return [receipt.logs];
  const out: RpcLog[][] = [];
  let start = 0;
  let safeStart = 0;
  receipt.logs.forEach((l, i) => {
    const t0 = l.topics[0]?.toLowerCase();
    const emitter = l.address.toLowerCase();
    if (t0 === SAFE_EXECUTION_SUCCESS_TOPIC || t0 === SAFE_EXECUTION_FAILURE_TOPIC) {
      if (t0 === SAFE_EXECUTION_SUCCESS_TOPIC && emitter === wallet) out.push(receipt.logs.slice(safeStart, i));
      safeStart = i + 1;
      return;
    }
    if (!entryPoints.has(emitter)) return;
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

/**
 * Whether a receipt can hold a trade of the wallet (trades-of.ts looks up V4 pool keys, delegation
 * and traces only for these): sent by it or to it, or naming it in an ERC-4337 operation, a Safe execution or a
 * settlement.
 */
export function mayHoldWalletTrade(receipt: RpcReceipt, wallet: string): boolean {
  if (receipt.from?.toLowerCase() === wallet || receipt.to?.toLowerCase() === wallet) return true;
  return receipt.logs.some((l) => {
    const t0 = l.topics[0]?.toLowerCase();
    return (
      t0 === USER_OPERATION_EVENT_TOPIC ||
      (t0 === SAFE_EXECUTION_SUCCESS_TOPIC && l.address.toLowerCase() === wallet) ||
      t0 === COW_TRADE_TOPIC ||
      t0 === UNISWAPX_FILL_TOPIC
    );
  });
}

/** V4 pool keys by pool id (lowercase), as looked up by enrich/pool-keys.ts. */
export type PoolKeys = ReadonlyMap<string, V4PoolKey>;

type DecodeChain = Pick<EvmChainConfig, 'wrappedNative' | 'entryPoints'> & { dexes?: EvmChainConfig['dexes'] };

/** The lookups the decoder makes in a chain's settings, built once per chain object. */
interface ChainTables {
  entryPoints: ReadonlySet<string>;
  /** PancakeSwap Infinity pool manager -> its Vault. */
  infinityVaults: ReadonlyMap<string, string>;
  /** Configured four.meme TokenManagers. */
  fourMeme: ReadonlySet<string>;
  /** CoW settlement contracts and UniswapX reactors, with their kind. */
  settlements: ReadonlyMap<string, EvmDexKind>;
}

const tablesOf = new WeakMap<DecodeChain, ChainTables>();

function chainTables(chain: DecodeChain): ChainTables {
  let t = tablesOf.get(chain);
  if (!t) {
    const infinityVaults = new Map<string, string>();
    const fourMeme = new Set<string>();
    const settlements = new Map<string, EvmDexKind>();
    for (const d of chain.dexes ?? []) {
      if (d.kind === 'infinity') for (const m of d.poolManagers) infinityVaults.set(m, d.vault);
      else if (d.kind === 'fourmeme') fourMeme.add(d.tokenManager);
      else if (d.kind === 'cow' || d.kind === 'uniswapx') settlements.set(d.settlement, d.kind);
    }
    t = { entryPoints: new Set(chain.entryPoints.map((a) => a.toLowerCase())), infinityVaults, fourMeme, settlements };
    tablesOf.set(chain, t);
  }
  return t;
}

/** What one receipt's decoding needs: the chain's tables and what enrich/ looked up for it. */
interface VenueContext extends ChainTables {
  wrapped: string | null;
  poolKeys: PoolKeys;
  traced: ReadonlyMap<string, bigint> | undefined;
}

function decodeSegment(logs: readonly RpcLog[], wallet: string, ctx: VenueContext): DecodedTrade[] {
  const { wrapped, poolKeys, traced } = ctx;
  const pools = swapPools(logs);
  for (const [a, k] of [...pools]) {
    // four.meme's events index nothing and anyone could emit them: configured managers only.
    if (k === 'fourmeme' && !ctx.fourMeme.has(a)) pools.delete(a);
    // Infinity's managers emit the swaps, its Vault moves the tokens: the Vault is the venue.
    const vault = k === 'infinity' ? ctx.infinityVaults.get(a) : undefined;
    if (vault) pools.set(vault, 'infinity');
  }
  if (pools.size === 0) return [];
  const flows: TokenFlow[] = [];
  for (const l of logs) {
    // 4 topics is ERC-721 Transfer (tokenId indexed): not a fungible amount.
    if (l.topics.length !== 3 || l.topics[0].toLowerCase() !== ERC20_TRANSFER_TOPIC) continue;
    flows.push({ token: l.address.toLowerCase(), from: topicToAddress(l.topics[1]), to: topicToAddress(l.topics[2]), value: dataWord(l.data, 0) });
  }

  // What each venue took in (+) or paid out (-) of the native coin.
  const native: NativeMove[] = [];
  const eventAccounted = (a: string) => EVENT_ACCOUNTED.has(pools.get(a)!);
  if (wrapped) {
    for (const f of flows) {
      if (f.token !== wrapped) continue;
      if (pools.has(f.to) && !eventAccounted(f.to)) native.push({ pool: f.to, value: f.value });
      if (pools.has(f.from) && !eventAccounted(f.from)) native.push({ pool: f.from, value: -f.value });
    }
  }
  // V4: the swapper's delta in the native (or wrapped) currency of each hop, hook fee included
  // (a hook's fee is paid by the swapper on top of what the pool swapped). A hook that may move
  // the amounts but emitted nothing: the call trace's figure when enrich/call-traces.ts could get one.
  const isNative = (c: string) => c === NATIVE_CURRENCY || c === wrapped;
  for (const h of v4Hops(logs)) {
    const key = poolKeys.get(h.id);
    const venue = h.family === 'infinity' ? ctx.infinityVaults.get(h.manager) : h.manager;
    if (!key || !venue) continue;
    const fromTrace = key.currency0 === NATIVE_CURRENCY && h.family === 'uniswap' ? traced?.get(h.manager) : undefined;
    if (fromTrace !== undefined) native.push({ pool: venue, value: fromTrace });
    else if (isNative(key.currency0)) native.push({ pool: venue, value: -h.amount0 + h.hookFee0 });
    else if (isNative(key.currency1)) native.push({ pool: venue, value: -h.amount1 + h.hookFee1 });
  }
  // four.meme: the curve's own figure when it trades against BNB (no log moves BNB). A curve
  // quoted in a token (a Transfer of another token to or from the manager) has no native leg.
  for (const t of fourMemeTrades(logs, ctx.fourMeme)) {
    const tokenQuote = flows.some((f) => f.token !== t.token && (f.from === t.manager || f.to === t.manager));
    if (!tokenQuote) native.push({ pool: t.manager, value: t.side === 'buy' ? t.cost : -t.cost });
  }
  // Balancer V2: the event's WETH side, whether the wallet paid WETH or ETH the Vault wrapped.
  if (wrapped) {
    for (const h of balancerHops(logs)) {
      if (h.tokenIn === wrapped) native.push({ pool: h.vault, value: h.amountIn });
      if (h.tokenOut === wrapped) native.push({ pool: h.vault, value: -h.amountOut });
    }
  }
  return routeTrades({ wallet, pools, flows, nativeTokens: new Set(wrapped ? [wrapped] : []), native });
}

export interface DecodeReceiptOptions {
  /** The wallet delegated its code (EIP-7702): a relayer's call at its address is its own. */
  delegated?: boolean;
  /**
   * Native coin paid into each V4 manager by the transaction (negative: paid out), from its call
   * trace, for the managers `silentHookManagers` names (one native hop through a hook that may
   * move the amounts and emitted no HookFee or HookSwap).
   */
  tracedNative?: ReadonlyMap<string, bigint>;
}

/** The wallet's trades in one receipt, in leg order (sells, then buys). `wallet` is lowercase. */
export function decodeReceipt(
  receipt: RpcReceipt,
  wallet: string,
  chain: DecodeChain,
  poolKeys: PoolKeys = new Map(),
  options: DecodeReceiptOptions = {},
): DecodedTrade[] {
  if (receipt.status !== undefined && receipt.status !== '0x1') return [];
  const tables = chainTables(chain);
  const out: DecodedTrade[] = [];
  const segments = walletSegments(receipt, wallet, tables.entryPoints, options.delegated ?? false);
  const ctx: VenueContext = { ...tables, wrapped: chain.wrappedNative, poolKeys, traced: options.tracedNative };
  for (const seg of segments) out.push(...decodeSegment(seg, wallet, ctx));
  if (segments.length === 0 && tables.settlements.size) out.push(...settlementTrades(receipt.logs, wallet, chain.wrappedNative, tables.settlements));
  return out;
}
