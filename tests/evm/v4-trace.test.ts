import { describe, expect, it } from 'vitest';
import {
  nativeIntoManager,
  silentHookManagers,
  hookMayTakeDelta,
  V4_HOOK_FEE_TOPIC,
  V4_SWAP_TOPIC,
  type CallFrame,
} from '../../src/lib/chains/evm/decode/v4.js';
import type { V4PoolKey } from '../../src/lib/chains/evm/decode/pool-key.js';
import type { RpcLog } from '../../src/lib/chains/evm/decode/rpc-types.js';
import { word } from '../support/evm-words.js';

/**
 * The call-trace fallback for V4 hooks that may move a swapper's amounts without saying so.
 * Traces and logs here are built by hand in the call tracer's and the PoolManager's shapes.
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

describe('nativeIntoManager', () => {
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
    expect(nativeIntoManager(trace, PM, new Set([HOOK]))).toBe(-(E18 * 198n) / 100n);
  });

  it('a buy: settle{value} into the manager counts, the hook paying in does not, a reverted frame and a DELEGATECALL do not', () => {
    const trace = call(WALLET, ROUTER, 2n * E18, [
      call(ROUTER, PM, 0n, [call(HOOK, PM, E18)]),
      call(ROUTER, PM, (E18 * 101n) / 100n),
      call(ROUTER, PM, 5n * E18, [], { error: 'execution reverted' }),
      { type: 'DELEGATECALL', from: ROUTER, to: PM, value: '0x' + (7n * E18).toString(16) },
      call(ROUTER, WALLET, (E18 * 99n) / 100n),
    ]);
    expect(nativeIntoManager(trace, PM, new Set([HOOK]))).toBe((E18 * 101n) / 100n);
  });
});
