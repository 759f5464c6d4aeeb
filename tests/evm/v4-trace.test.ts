import { describe, expect, it } from 'vitest';
import { silentHookManagers, hookMayTakeDelta, V4_HOOK_FEE_TOPIC, V4_SWAP_TOPIC } from '../../src/lib/chains/evm/decode/v4.js';
import { INFINITY_CL_SWAP_TOPIC } from '../../src/lib/chains/evm/decode/infinity.js';
import type { V4PoolKey } from '../../src/lib/chains/evm/decode/pool-key.js';
import type { RpcLog } from '../../src/lib/chains/evm/decode/rpc-types.js';
import type { CallFrame } from '../../src/lib/chains/evm/rpc-methods.js';
import { nativeHops, silentHookVenues } from '../../src/lib/chains/evm/enrich/silent-hooks.js';
import { routeNativeIntoVenue } from '../../src/lib/chains/evm/enrich/trace-native.js';
import { word } from '../support/evm-words.js';

/**
 * The call-trace figure for V4 (and PancakeSwap Infinity) hooks that may move a swapper's amounts
 * without saying so. Traces and logs here are built by hand in the call tracer's and the
 * managers' shapes; the figures are worked out by hand from the moves each trace shows.
 */
const PM = '0x000000000004444c5dc75cb358380d2e3de08a90';
const ROUTER = '0x66a9893cc07d91d95644aedd05d03f95e1dba8af';
const WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const HOOK = '0x3333000000000000000000000000000000000044';
const NATIVE = '0x0000000000000000000000000000000000000000';
const TOKEN = '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9';
const ID_A = '0x' + 'aa'.repeat(32);
const ID_B = '0x' + 'bb'.repeat(32);

const swapLog = (id: string, a0: bigint, a1: bigint): RpcLog => ({
  address: PM,
  topics: [V4_SWAP_TOPIC, id, '0x' + ROUTER.slice(2).padStart(64, '0')],
  data: '0x' + [a0, a1, 1n << 96n, 1000n, 0n, 3000n].map(word).join(''),
  blockNumber: '0x1',
  transactionHash: '0x' + '11'.repeat(32),
  transactionIndex: '0x0',
});
const key = (hooks: string): V4PoolKey => ({ currency0: NATIVE, currency1: TOKEN, fee: 3000, tickSpacing: 60, hooks });
const E18 = 10n ** 18n;

describe('hook permissions', () => {
  it('knows the two swap-delta flags from the address', () => {
    expect(hookMayTakeDelta('0x0000000000000000000000000000000000000044')).toBe(true); // after-swap returns delta
    expect(hookMayTakeDelta('0x0000000000000000000000000000000000000088')).toBe(true); // before-swap returns delta
    expect(hookMayTakeDelta('0x00000000000000000000000000000000000000c0')).toBe(false); // before and after swap, no deltas
    expect(hookMayTakeDelta(NATIVE)).toBe(false);
  });
});

describe('silentHookManagers', () => {
  it('names a manager whose one native hop went through a silent delta hook', () => {
    const keys = new Map([[ID_A, key(HOOK)]]);
    expect([...silentHookManagers([swapLog(ID_A, 2n * E18, -E18)], keys)]).toEqual([PM]);
  });

  it('not when the hook emitted HookFee for that pool, nor for a hook without delta flags', () => {
    const fee: RpcLog = { ...swapLog(ID_A, 0n, 0n), topics: [V4_HOOK_FEE_TOPIC, ID_A, '0x' + '0'.repeat(64)], data: '0x' + word(1n) + word(0n) };
    expect(silentHookManagers([swapLog(ID_A, 2n * E18, -E18), fee], new Map([[ID_A, key(HOOK)]])).size).toBe(0);
    expect(silentHookManagers([swapLog(ID_A, 2n * E18, -E18)], new Map([[ID_A, key('0x00000000000000000000000000000000000000c0')]])).size).toBe(0);
  });

  it('not when the manager has two native hops (the trace cannot tell them apart)', () => {
    const keys = new Map([
      [ID_A, key(HOOK)],
      [ID_B, key(NATIVE)],
    ]);
    expect(silentHookManagers([swapLog(ID_A, 2n * E18, -E18), swapLog(ID_B, -E18, 3n * E18)], keys).size).toBe(0);
  });
});

describe('routeNativeIntoVenue', () => {
  const call = (from: string, to: string, value: bigint, calls: CallFrame[] = [], extra: Partial<CallFrame> = {}): CallFrame => ({
    type: 'CALL',
    from,
    to,
    value: '0x' + value.toString(16),
    calls,
    ...extra,
  });

  it('a sell: the manager paid the router 1.98 ETH and the hook 0.02 ETH; the route got 1.98', () => {
    const trace = call(WALLET, ROUTER, 0n, [
      call(ROUTER, PM, 0n, [call(PM, HOOK, E18 / 50n), call(PM, ROUTER, (E18 * 198n) / 100n)]),
      call(ROUTER, WALLET, (E18 * 198n) / 100n),
    ]);
    expect(routeNativeIntoVenue(trace, PM, new Set([HOOK]))).toBe(-(E18 * 198n) / 100n);
  });

  it('a buy: settle{value} into the manager counts, the hook paying in does not, a reverted frame and a DELEGATECALL do not', () => {
    const trace = call(WALLET, ROUTER, 2n * E18, [
      call(ROUTER, PM, 0n, [call(HOOK, PM, E18)]),
      call(ROUTER, PM, (E18 * 101n) / 100n),
      call(ROUTER, PM, 5n * E18, [], { error: 'execution reverted' }),
      { type: 'DELEGATECALL', from: ROUTER, to: PM, value: '0x' + (7n * E18).toString(16) },
      call(ROUTER, WALLET, (E18 * 99n) / 100n),
    ]);
    expect(routeNativeIntoVenue(trace, PM, new Set([HOOK]))).toBe((E18 * 101n) / 100n);
  });
});

describe("the route's side, not everyone but the hook (a hook's fee to a treasury is the venue's)", () => {
  const TREASURY = '0x7777000000000000000000000000000000000077';
  const EXECUTOR = '0x8888000000000000000000000000000000000088';
  const SPLITTER = '0x9999000000000000000000000000000000000099';
  const call = (from: string, to: string, value: bigint, calls: CallFrame[] = []): CallFrame => ({
    type: 'CALL',
    from,
    to,
    value: '0x' + value.toString(16),
    calls,
  });
  /** v4-core's shape: the router unlocks, the manager calls back, the swap calls the hook, which takes its fee to `feeTo`. */
  const swapWithFee = (feeTo: string, fee: bigint, settle: CallFrame[], take: CallFrame[]) =>
    call(WALLET, ROUTER, 0n, [
      call(ROUTER, PM, 0n, [
        call(PM, ROUTER, 0n, [call(ROUTER, PM, 0n, [call(PM, HOOK, 0n, [call(HOOK, PM, 0n, [call(PM, feeTo, fee)])])]), ...settle, ...take]),
      ]),
    ]);

  it('a sell: the pool pays 2 ETH out, the hook takes 0.02 to its treasury; the route got 1.98', () => {
    const trace = swapWithFee(TREASURY, E18 / 50n, [], [call(ROUTER, PM, 0n, [call(PM, WALLET, (E18 * 198n) / 100n)])]);
    // 1.98 reached the wallet from the manager; the 0.02 moved from the manager to a third address.
    expect(routeNativeIntoVenue(trace, PM, new Set([HOOK]))).toBe(-(E18 * 198n) / 100n);
  });

  it('an exact-output buy: the route settles 1.01 ETH, the hook takes 0.01 of it to its treasury; the route paid 1.01', () => {
    const trace = swapWithFee(TREASURY, E18 / 100n, [call(ROUTER, PM, (E18 * 101n) / 100n)], []);
    expect(routeNativeIntoVenue(trace, PM, new Set([HOOK]))).toBe((E18 * 101n) / 100n);
  });

  it('a pass-through off the call path counts with the route; a treasury forwarding its fee does not', () => {
    // The router has the manager pay an executor that forwards to the wallet; the treasury passes its fee to a splitter.
    const trace = swapWithFee(
      TREASURY,
      E18 / 50n,
      [],
      [call(ROUTER, PM, 0n, [call(PM, EXECUTOR, (E18 * 198n) / 100n)]), call(ROUTER, EXECUTOR, 0n, [call(EXECUTOR, WALLET, (E18 * 198n) / 100n)])],
    );
    trace.calls!.push(call(TREASURY, SPLITTER, E18 / 50n));
    expect(routeNativeIntoVenue(trace, PM, new Set([HOOK]))).toBe(-(E18 * 198n) / 100n);
  });

  it('a hook paying the wallet straight (a rebate) is the venue paying the route', () => {
    const trace = swapWithFee(TREASURY, 0n, [], [call(ROUTER, PM, 0n, [call(PM, WALLET, 2n * E18)])]);
    trace.calls![0].calls![0].calls![0].calls![0].calls!.push(call(HOOK, WALLET, E18 / 1000n));
    expect(routeNativeIntoVenue(trace, PM, new Set([HOOK]))).toBe(-(2n * E18 + E18 / 1000n));
  });
});

describe('silentHookVenues: Uniswap V4 and PancakeSwap Infinity alike', () => {
  const CL = '0x969d90ac74a1a5228b66440f8c8326a8da47a5f6';
  const BIN = '0xc697d2898e0d09264376196696c51d7abbbaa4a9';
  const VAULT = '0x238a358808379702088667322f80ac48bad5e6c4';
  const IHOOK = '0x4444000000000000000000000000000000000001';
  const clSwap = (id: string, manager = CL): RpcLog => ({
    ...swapLog(id, 2n * E18, -E18),
    address: manager,
    topics: [INFINITY_CL_SWAP_TOPIC, id, '0x' + ROUTER.slice(2).padStart(64, '0')],
    data: '0x' + [2n * E18, -E18, 1n << 96n, 1000n, 0n, 2500n, 0n].map(word).join(''),
  });
  const holderOf = (h: { family: string; manager: string }) =>
    h.family === 'infinity' ? ({ [CL]: VAULT, [BIN]: VAULT } as Record<string, string>)[h.manager] : h.manager;
  const ikey = (hooks: string): V4PoolKey => ({ currency0: NATIVE, currency1: TOKEN, fee: 2500, tickSpacing: 0, hooks });

  it("an Infinity hop through a hook whose bitmap may return deltas: the manager's figure from the Vault's moves", () => {
    const logs = [clSwap(ID_A)];
    const hops = nativeHops(logs, new Map([[ID_A, ikey(IHOOK)]]), holderOf);
    expect(silentHookVenues(hops, logs, () => true)).toEqual([{ manager: CL, holder: VAULT, hooks: new Set([IHOOK]) }]);
    expect(silentHookVenues(hops, logs, () => false)).toEqual([]);
  });

  it('two native hops on one Vault (a CL and a Bin manager), or a hop whose key is unknown: the trace cannot tell them apart', () => {
    const binHop = { ...clSwap(ID_B, BIN) };
    const logs = [clSwap(ID_A), binHop];
    // The Bin manager's Swap has its own topic; v4Hops reads it as another Infinity hop of the Vault.
    binHop.topics = ['0x3e8aae37f890eb1f9d63dd4d2062f3f0be757848a0f0760e4f3e53dad556e861', ID_B, binHop.topics[2]];
    binHop.data = '0x' + [-E18, 3n * E18, 8388608n, 2500n, 0n].map(word).join('');
    const keys = new Map([
      [ID_A, ikey(IHOOK)],
      [ID_B, ikey(NATIVE)],
    ]);
    expect(silentHookVenues(nativeHops(logs, keys, holderOf), logs, () => true)).toEqual([]);
    const v4 = [swapLog(ID_A, 2n * E18, -E18), swapLog(ID_B, -E18, 3n * E18)];
    expect(silentHookVenues(nativeHops(v4, new Map([[ID_A, key(HOOK)]]), holderOf), v4, () => true)).toEqual([]);
  });
});

describe('silentHookVenues: the V4 cases silentHookManagers covered, on the enrich stage’s own selection', () => {
  const holderOf = (h: { manager: string }) => h.manager;
  const venues = (logs: RpcLog[], keys: Map<string, V4PoolKey>) =>
    silentHookVenues(nativeHops(logs, keys, holderOf), logs, (h) => hookMayTakeDelta(h.key!.hooks));

  it('names a manager whose one native hop went through a silent delta hook', () => {
    expect(venues([swapLog(ID_A, 2n * E18, -E18)], new Map([[ID_A, key(HOOK)]]))).toEqual([{ manager: PM, holder: PM, hooks: new Set([HOOK]) }]);
  });

  it('not when the hook emitted HookFee for that pool, nor for a hook without delta flags', () => {
    const fee: RpcLog = { ...swapLog(ID_A, 0n, 0n), topics: [V4_HOOK_FEE_TOPIC, ID_A, '0x' + '0'.repeat(64)], data: '0x' + word(1n) + word(0n) };
    expect(venues([swapLog(ID_A, 2n * E18, -E18), fee], new Map([[ID_A, key(HOOK)]]))).toEqual([]);
    expect(venues([swapLog(ID_A, 2n * E18, -E18)], new Map([[ID_A, key('0x00000000000000000000000000000000000000c0')]]))).toEqual([]);
  });

  it('not when the manager has two native hops (the trace cannot tell them apart)', () => {
    const keys = new Map([
      [ID_A, key(HOOK)],
      [ID_B, key(NATIVE)],
    ]);
    expect(venues([swapLog(ID_A, 2n * E18, -E18), swapLog(ID_B, -E18, 3n * E18)], keys)).toEqual([]);
  });
});
