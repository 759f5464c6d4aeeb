import type { PoolKey } from '../../shared/pool-key.js';
import { keccak256 } from 'viem';
import type { NativeMove, TokenFlow } from '../../shared/route-trades.js';
import { toInternalHex } from '../address.js';
import { SUNSWAP_V4_SWAP_TOPIC } from './events.js';

/**
 * SunSwap V4 (sun-protocol/sunswap-v4-core, a fork of PancakeSwap Infinity's CL pools whose
 * PoolManager is also the vault: tokens and TRX move in and out of the manager itself). One
 * manager holds every pool; a pool is named by its id, the keccak-256 of its key. Its `Swap`
 * carries the swapper's deltas, negative for what the swapper paid into the pool, as the real
 * single-hop sale c9628c03 shows (amount0 +105,375 sun of TRX out, amount1 -2e18 SUN in).
 *
 * TRX is the currency 0x0 and sorts first, so only a key's currency0 can be TRX.
 */

/** TVjuTE3V5bMVdpfNhid8kD2v35T2k1u1Br, the PoolManager on mainnet (sunswap-v4-core README). */
export const SUNSWAP_V4_POOL_MANAGER = '0xd8de75898a30b097da826464e932934a512c7be3';

/** The zero address: TRX as a pool key's currency, and a key's hooks when the pool has none. */
export const TRX_CURRENCY = '0x0000000000000000000000000000000000000000';

/** The manager's public `poolIdToPoolKey(bytes32)` mapping getter (keccak-256 of the signature, first 4 bytes). */
export const POOL_ID_TO_POOL_KEY_SELECTOR = '0e2d484a';

/**
 * `HookFee(bytes32 indexed id, address indexed sender, uint128 feeAmount0, uint128 feeAmount1)`,
 * the hooks' community standard (OpenZeppelin uniswap-hooks `IHookEvents`): a fee the swapper
 * paid the hook on top of the pool's swap.
 */
export const HOOK_FEE_TOPIC = '0x444083dce778da1269b63671912c00569a2a58fa85827911902301f91793ffd7';

/**
 * A pool's key in the shape the EVM family caches V4 keys (so one store kind serves both):
 * addresses lowercase `0x` + 40 hex, TRX as `0x000…0`; `tickSpacing` from the CL parameters.
 */
export type TronPoolKey = PoolKey;

/** Call data of `poolIdToPoolKey(id)`, without `0x`. */
export function poolIdToPoolKeyCallData(id: string): string {
  return POOL_ID_TO_POOL_KEY_SELECTOR + id.replace(/^0x/, '').toLowerCase().padStart(64, '0');
}

const wordsOf = (hex: string): string[] => {
  const h = hex.replace(/^0x/, '');
  const out: string[] = [];
  for (let i = 0; i + 64 <= h.length; i += 64) out.push(h.slice(i, i + 64).toLowerCase());
  return out;
};
const addressOf = (w: string) => '0x' + w.slice(24);

/**
 * Layouts a `poolIdToPoolKey` answer may have, as word indexes: the fields that hash to the id,
 * and where fee and parameters are. The deployed manager's key has five fields (currency0,
 * currency1, hooks, fee, parameters: the hash of those is the real pool id of c9628c03, and the
 * Universal Router's calldata there carries the key so); an older ABI of the repository lists a
 * poolManager word before fee, which the id leaves out; PancakeSwap Infinity hashes all six.
 */
const LAYOUTS = [
  { hashed: [0, 1, 2, 3, 4], fee: 3, parameters: 4 },
  { hashed: [0, 1, 2, 4, 5], fee: 4, parameters: 5 },
  { hashed: [0, 1, 2, 3, 4, 5], fee: 4, parameters: 5 },
];

/**
 * The key `poolIdToPoolKey` answered for `id`, or null. The answer is accepted only when the
 * keccak-256 of its ABI-encoded fields is the id, which is how a pool id is made: an unknown id
 * answers zeros, and a wrong answer hashes to something else.
 */
export function decodePoolKeyAnswer(id: string, answer: string | null): TronPoolKey | null {
  if (!answer) return null;
  const want = '0x' + id.replace(/^0x/, '').toLowerCase().padStart(64, '0');
  const w = wordsOf(answer);
  for (const layout of LAYOUTS) {
    if (w.length <= Math.max(...layout.hashed)) continue;
    if (keccak256(`0x${layout.hashed.map((i) => w[i]).join('')}`) !== want) continue;
    const parameters = BigInt('0x' + w[layout.parameters]);
    return {
      currency0: addressOf(w[0]),
      currency1: addressOf(w[1]),
      hooks: addressOf(w[2]),
      fee: Number(BigInt('0x' + w[layout.fee]) & 0xffffffn),
      // CL parameters: tick spacing in bits 16-39 (Infinity's CLPoolParametersHelper)
      tickSpacing: Number(BigInt.asIntN(24, parameters >> 16n)),
    };
  }
  return null;
}

/** A log as the decoder reads it: 20-byte hex address, topics and data with or without `0x`. */
interface Log {
  address: string;
  topics: string[];
  data?: string;
}

const topic0 = (l: Log) => '0x' + (l.topics[0] ?? '').toLowerCase().replace(/^0x/, '');
const poolIdOf = (t: string) => '0x' + t.toLowerCase().replace(/^0x/, '').padStart(64, '0');
const dataWord = (data: string | undefined, i: number): bigint => {
  const w = (data ?? '').replace(/^0x/, '').slice(i * 64, i * 64 + 64);
  return w.length === 64 ? BigInt('0x' + w) : 0n;
};

/** One SunSwap V4 swap: the swapper's deltas (negative: paid into the pool) and the hook's stated fee. */
export interface SunswapV4Swap {
  manager: string;
  id: string;
  amount0: bigint;
  amount1: bigint;
  hookFee0: bigint;
  hookFee1: bigint;
}

/** The V4 swaps of a transaction in log order, each HookFee of a pool folded into its first swap without one. */
export function sunswapV4Swaps(logs: readonly Log[]): SunswapV4Swap[] {
  const swaps: SunswapV4Swap[] = [];
  const fees: { id: string; f0: bigint; f1: bigint }[] = [];
  for (const l of logs) {
    const t0 = topic0(l);
    if (t0 === SUNSWAP_V4_SWAP_TOPIC && l.topics.length === 3) {
      swaps.push({
        manager: toInternalHex(l.address),
        id: poolIdOf(l.topics[1]),
        amount0: BigInt.asIntN(256, dataWord(l.data, 0)),
        amount1: BigInt.asIntN(256, dataWord(l.data, 1)),
        hookFee0: 0n,
        hookFee1: 0n,
      });
    } else if (t0 === HOOK_FEE_TOPIC && l.topics.length === 3) {
      fees.push({ id: poolIdOf(l.topics[1]), f0: dataWord(l.data, 0), f1: dataWord(l.data, 1) });
    }
  }
  for (const f of fees) {
    const s = swaps.find((x) => x.id === f.id && x.hookFee0 === 0n && x.hookFee1 === 0n);
    if (s) {
      s.hookFee0 = f.f0;
      s.hookFee1 = f.f1;
    }
  }
  return swaps;
}

/**
 * Pool ids whose keys the decoder needs, with their manager: those of managers that swapped
 * twice or more in the transaction. One swap needs none: the TRX the route exchanged with the
 * manager is its hop's (see sunswapV4Native).
 */
export function poolIdsNeedingKeys(logs: readonly Log[]): Map<string, string> {
  const byManager = new Map<string, SunswapV4Swap[]>();
  for (const s of sunswapV4Swaps(logs)) byManager.set(s.manager, [...(byManager.get(s.manager) ?? []), s]);
  const out = new Map<string, string>();
  for (const [m, swaps] of byManager) if (swaps.length >= 2) for (const s of swaps) out.set(s.id, m);
  return out;
}

/** A movement of TRX (a call's value or an internal transaction), in the decoder's address form. */
export interface TrxMove {
  from: string;
  to: string;
  value: bigint;
}

/**
 * The route's own accounts: the wallet, the contract it called, and every account joined to them
 * by a TRX or token movement, never through a venue. A hook that took a fee, or the treasury a
 * hook sent it to, received TRX from the manager only: it is not on the route.
 */
export function routeAccounts(p: {
  wallet: string;
  contract: string;
  venues: ReadonlySet<string> | ReadonlyMap<string, unknown>;
  trx: readonly TrxMove[];
  flows: readonly TokenFlow[];
}): Set<string> {
  const ok = (a: string) => !p.venues.has(a) && a !== TRX_CURRENCY;
  const route = new Set([p.wallet, p.contract].filter(ok));
  const edges = [...p.trx, ...p.flows];
  let size = -1;
  while (route.size !== size) {
    size = route.size;
    for (const e of edges) {
      if (route.has(e.from) && ok(e.to)) route.add(e.to);
      if (route.has(e.to) && ok(e.from)) route.add(e.from);
    }
  }
  return route;
}

/**
 * What each SunSwap V4 manager took in (+) or paid out (-) of TRX, for route-trades.ts.
 *
 * The TRX a manager exchanged with the route's own accounts (TRX by internal transaction or call
 * value, WTRX by Transfer) is the venue's figure with its hooks' fees inside it, wherever a hook
 * sent them (decisions.md: a hook's fee is part of the venue's price). That is every hop's figure
 * when the manager has one TRX hop. A route through two TRX hops of one manager (token -> TRX ->
 * token) moves no TRX outside it; there each hop's figure is its Swap's TRX delta (with its
 * HookFee), which needs the pools' keys to know which delta is TRX, and the TRX the route and the
 * manager exchanged beyond those deltas (a hook's take that no event states) goes to the one TRX
 * hop whose pool has a hook (with several hooked TRX hops it cannot be told apart: the Swap
 * figures stand). Without the keys the manager keeps the movement figure (no middle leg: null, as
 * before keys were read).
 */
export function sunswapV4Native(p: {
  managers: readonly string[];
  logs: readonly Log[];
  route: ReadonlySet<string>;
  trx: readonly TrxMove[];
  flows: readonly TokenFlow[];
  wtrx: string;
  poolKeys?: ReadonlyMap<string, TronPoolKey>;
}): NativeMove[] {
  const out: NativeMove[] = [];
  const swaps = sunswapV4Swaps(p.logs);
  const wrappedFlows = p.flows.filter((f) => f.token === p.wtrx);
  for (const m of p.managers) {
    const moves: NativeMove[] = [];
    for (const t of [...p.trx, ...wrappedFlows]) {
      if (t.value <= 0n) continue;
      if (t.to === m && p.route.has(t.from)) moves.push({ pool: m, value: t.value });
      if (t.from === m && p.route.has(t.to)) moves.push({ pool: m, value: -t.value });
    }
    const own = swaps.filter((s) => s.manager === m);
    const keys = own.map((s) => p.poolKeys?.get(s.id));
    const hops = own.flatMap((s, i) => {
      const k = keys[i];
      if (!k) return [];
      const isTrx = (c: string) => c === TRX_CURRENCY || c === p.wtrx;
      if (isTrx(k.currency0)) return [{ value: -s.amount0 + s.hookFee0, hooked: k.hooks !== TRX_CURRENCY }];
      if (isTrx(k.currency1)) return [{ value: -s.amount1 + s.hookFee1, hooked: k.hooks !== TRX_CURRENCY }];
      return [];
    });
    if (own.length < 2 || keys.some((k) => !k) || hops.length < 2) {
      out.push(...moves);
      continue;
    }
    const exchanged = moves.reduce((a, x) => a + x.value, 0n);
    const stated = hops.reduce((a, h) => a + h.value, 0n);
    const hooked = hops.filter((h) => h.hooked);
    if (exchanged !== stated && hooked.length === 1) hooked[0].value += exchanged - stated;
    for (const h of hops) if (h.value !== 0n) out.push({ pool: m, value: h.value });
  }
  return out;
}
