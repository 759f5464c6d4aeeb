import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNISWAP_V3_SWAP_TOPIC } from '../../src/lib/chains/shared/uniswap-v3-events.js';
import {
  BEFORE_EXECUTION_TOPIC,
  PANCAKESWAP_V3_SWAP_TOPIC,
  SOLIDLY_SWAP_TOPIC,
  USER_OPERATION_EVENT_TOPIC,
  decodeReceipt,
} from '../../src/lib/chains/evm/decode/decode-receipt.js';
import type { RpcLog, RpcReceipt } from '../../src/lib/chains/evm/decode/rpc-types.js';
import { ERC20_TRANSFER_TOPIC, UNISWAP_V2_SWAP_TOPIC } from '../../src/lib/chains/shared/uniswap-v2-events.js';
import { topic, word } from '../support/evm-words.js';

/** Synthetic receipts for shapes the anvil scenario does not produce. */
const A = (n: number) => '0x' + n.toString(16).padStart(40, '0');
const WALLET = A(0xaaa);
const WETH = A(0xeee);
const TOKEN = A(0x111);
const TOKEN2 = A(0x222);
const POOL = A(0x501);
const POOL2 = A(0x502);
const ROUTER = A(0x600);
const EP = A(0x4337);
const chain = { wrappedNative: WETH, entryPoints: [EP] };

function log(address: string, topics: string[], data = '0x'): RpcLog {
  return { address, topics, data, blockNumber: '0x1', transactionHash: '0x' + '1'.repeat(64), transactionIndex: '0x0' };
}
const transfer = (token: string, from: string, to: string, v: bigint) => log(token, [ERC20_TRANSFER_TOPIC, topic(from), topic(to)], '0x' + word(v));
const v2swap = (pool: string) => log(pool, [UNISWAP_V2_SWAP_TOPIC, topic(ROUTER), topic(WALLET)], '0x' + word(0n).repeat(4));
const receipt = (from: string, logs: RpcLog[], status = '0x1'): RpcReceipt => ({
  transactionHash: '0x' + '1'.repeat(64),
  transactionIndex: '0x0',
  blockNumber: '0x1',
  from,
  to: ROUTER,
  status,
  logs,
});

describe('EVM decoder on synthetic receipts', () => {
  it('decodes a V2 buy: token from the pool, native from the WETH paid into it', () => {
    const r = receipt(WALLET, [transfer(WETH, ROUTER, POOL, 5n), transfer(TOKEN, POOL, WALLET, 100n), v2swap(POOL)]);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([{ side: 'buy', token: TOKEN, amountRaw: 100n, nativeRaw: 5n, pool: POOL, poolKind: 'v2' }]);
  });

  it('ignores failed transactions, swaps sent by someone else, and 4-topic (ERC-721) transfers', () => {
    const logs = [transfer(WETH, ROUTER, POOL, 5n), transfer(TOKEN, POOL, WALLET, 100n), v2swap(POOL)];
    expect(decodeReceipt(receipt(WALLET, logs, '0x0'), WALLET, chain)).toEqual([]);
    expect(decodeReceipt(receipt(A(0xbbb), logs), WALLET, chain)).toEqual([]);
    const nft = log(TOKEN2, [ERC20_TRANSFER_TOPIC, topic(POOL), topic(WALLET), topic(A(7))]);
    expect(decodeReceipt(receipt(WALLET, [...logs, nft]), WALLET, chain).map((t) => t.token)).toEqual([TOKEN]);
  });

  it('finds no trade in a transfer during which a tax token swaps its own fees', () => {
    const r = receipt(WALLET, [
      transfer(TOKEN, WALLET, A(0xf00d), 95n),
      transfer(TOKEN, WALLET, TOKEN, 5n),
      transfer(TOKEN, TOKEN, POOL, 50n),
      transfer(WETH, POOL, TOKEN, 1n),
      v2swap(POOL),
    ]);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([]);
  });

  it('finds no trade when the wallet ends with what it started with (circular arbitrage)', () => {
    const r = receipt(WALLET, [
      transfer(TOKEN, WALLET, POOL, 10n),
      transfer(WETH, POOL, POOL2, 3n),
      transfer(TOKEN, POOL2, WALLET, 10n),
      v2swap(POOL),
      v2swap(POOL2),
    ]);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([]);
  });

  it('recognises V3, PancakeSwap V3 and Solidly swap shapes', () => {
    for (const [t0, kind] of [
      [UNISWAP_V3_SWAP_TOPIC, 'v3'],
      [PANCAKESWAP_V3_SWAP_TOPIC, 'v3'],
      [SOLIDLY_SWAP_TOPIC, 'v2'],
    ] as const) {
      const r = receipt(WALLET, [transfer(TOKEN, WALLET, POOL, 7n), transfer(WETH, POOL, ROUTER, 2n), log(POOL, [t0, topic(ROUTER), topic(ROUTER)], '0x')]);
      expect(decodeReceipt(r, WALLET, chain)).toEqual([{ side: 'sell', token: TOKEN, amountRaw: 7n, nativeRaw: 2n, pool: POOL, poolKind: kind }]);
    }
  });

  it('splits a token-to-token swap into a sell and a buy with the middle leg, or null for a direct pool', () => {
    const via = receipt(WALLET, [
      transfer(TOKEN, WALLET, POOL, 10n),
      transfer(WETH, POOL, POOL2, 4n),
      transfer(TOKEN2, POOL2, WALLET, 20n),
      v2swap(POOL),
      v2swap(POOL2),
    ]);
    expect(decodeReceipt(via, WALLET, chain)).toEqual([
      { side: 'sell', token: TOKEN, amountRaw: 10n, nativeRaw: 4n, pool: POOL, poolKind: 'v2' },
      { side: 'buy', token: TOKEN2, amountRaw: 20n, nativeRaw: 4n, pool: POOL2, poolKind: 'v2' },
    ]);
    const direct = receipt(WALLET, [transfer(TOKEN, WALLET, POOL, 10n), transfer(TOKEN2, POOL, WALLET, 20n), v2swap(POOL)]);
    expect(decodeReceipt(direct, WALLET, chain).map((t) => t.nativeRaw)).toEqual([null, null]);
  });

  it('attributes only the logs of the wallet’s own operation in an ERC-4337 bundle', () => {
    const opEvent = (sender: string, success: boolean) =>
      log(EP, [USER_OPERATION_EVENT_TOPIC, '0x' + '9'.repeat(64), topic(sender), topic(A(0))], '0x' + word(0n) + word(success ? 1n : 0n) + word(0n) + word(0n));
    const other = A(0xbbb);
    const r = receipt(A(0xb0b), [
      log(EP, [BEFORE_EXECUTION_TOPIC]),
      transfer(WETH, ROUTER, POOL, 9n),
      transfer(TOKEN2, POOL, other, 90n),
      v2swap(POOL),
      opEvent(other, true),
      transfer(WETH, ROUTER, POOL, 5n),
      transfer(TOKEN, POOL, WALLET, 100n),
      v2swap(POOL),
      opEvent(WALLET, true),
    ]);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([{ side: 'buy', token: TOKEN, amountRaw: 100n, nativeRaw: 5n, pool: POOL, poolKind: 'v2' }]);
    // The same bundle emitted by a contract that is not a configured EntryPoint attributes nothing.
    expect(decodeReceipt(r, WALLET, { ...chain, entryPoints: [A(1)] })).toEqual([]);
  });
});

describe('browser compatibility', () => {
  it('the EVM source, the shared chain code and the RPC layer import nothing but relative modules, viem and @solana/kit (they run in a Web Worker)', () => {
    const lib = path.resolve(__dirname, '../../src/lib');
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
      );
    for (const f of ['chains/evm', 'chains/shared', 'rpc'].flatMap((d) => files(path.join(lib, d)))) {
      const src = readFileSync(f, 'utf8');
      for (const m of src.matchAll(/from\s+'([^']+)'/g)) expect(m[1].startsWith('.') || m[1] === 'viem' || m[1] === '@solana/kit', `${f}: ${m[1]}`).toBe(true);
      expect(src, f).not.toMatch(/\bprocess\.|\bBuffer\b|require\(/);
    }
  });
});
