import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRpcTransport } from '../../src/lib/rpc/json-rpc.js';
import { isHistoryError } from '../../src/lib/core/errors.js';
import { V4_SWAP_TOPIC } from '../../src/lib/chains/evm/decode/v4.js';
import { INFINITY_CL_SWAP_TOPIC } from '../../src/lib/chains/evm/decode/infinity.js';
import type { V4PoolKey } from '../../src/lib/chains/evm/decode/pool-key.js';
import type { RpcLog, RpcReceipt } from '../../src/lib/chains/evm/decode/rpc-types.js';
import type { EvmChainConfig } from '../../src/lib/chains/evm/registry.js';
import type { CallFrame } from '../../src/lib/chains/evm/rpc-methods.js';
import { createCallTraces, traceRefusal } from '../../src/lib/chains/evm/enrich/call-traces.js';
import { word } from '../support/evm-words.js';

/**
 * When a call trace is asked for and what a refusal means (enrich/call-traces.ts): a transient
 * refusal is sent again until served, only a node without the method falls back to the Swap
 * event's figure (per source, said once), against JSON-RPC servers of ours scripted per attempt.
 */

const PM = '0x000000000004444c5dc75cb358380d2e3de08a90';
const ROUTER = '0x66a9893cc07d91d95644aedd05d03f95e1dba8af';
const WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const HOOK = '0x3333000000000000000000000000000000000044'; // AFTER_SWAP | AFTER_SWAP_RETURNS_DELTA
const TREASURY = '0x7777000000000000000000000000000000000077';
const NATIVE = '0x0000000000000000000000000000000000000000';
const TOKEN = '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9';
const ID = '0x' + 'aa'.repeat(32);
const E18 = 10n ** 18n;
const hash = (n: number) => '0x' + n.toString(16).padStart(64, '0');

const swapLog = (tx: string, manager = PM, topic0 = V4_SWAP_TOPIC, words = [-2n * E18, E18, 1n << 96n, 1000n, 0n, 3000n]): RpcLog => ({
  address: manager,
  topics: [topic0, ID, '0x' + ROUTER.slice(2).padStart(64, '0')],
  data: '0x' + words.map(word).join(''),
  blockNumber: '0x10',
  transactionHash: tx,
  transactionIndex: '0x0',
});
const receipt = (tx: string, logs = [swapLog(tx)]): RpcReceipt => ({
  transactionHash: tx,
  transactionIndex: '0x0',
  blockNumber: '0x10',
  from: WALLET,
  to: ROUTER,
  status: '0x1',
  logs,
});
const keys = (hooks = HOOK): Map<string, V4PoolKey> => new Map([[ID, { currency0: NATIVE, currency1: TOKEN, fee: 3000, tickSpacing: 60, hooks }]]);

const call = (from: string, to: string, value: bigint, calls: CallFrame[] = []): CallFrame => ({
  type: 'CALL',
  from,
  to,
  value: '0x' + value.toString(16),
  calls,
});
/** A sell through the silent hook: the manager pays 1.98 ETH to the wallet and 0.02 to the hook's treasury; the route got 1.98. */
const sellTrace = (holder = PM, hook = HOOK) =>
  call(WALLET, ROUTER, 0n, [
    call(ROUTER, holder, 0n, [
      call(holder, hook, 0n, [call(hook, holder, 0n, [call(holder, TREASURY, E18 / 50n)])]),
      call(holder, WALLET, (E18 * 198n) / 100n),
    ]),
  ]);

type Answer = { result: unknown } | { error: { code: number; message: string } } | { http: number };
let server: Server | undefined;

/** A node answering debug_traceTransaction with `script(hash, attempt)` (an HTTP status fails the whole request), eth_call with `calls`. */
async function node(script: (tx: string, attempt: number) => Answer, calls: (to: string, data: string) => unknown = () => '0x') {
  const attempts = new Map<string, number>();
  const seen = { traces: 0, ethCalls: 0 };
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      const items: any[] = Array.isArray(body) ? body : [body];
      const out: unknown[] = [];
      for (const r of items) {
        if (r.method === 'eth_call') {
          seen.ethCalls++;
          out.push({ jsonrpc: '2.0', id: r.id, result: calls(r.params[0].to, r.params[0].data) });
          continue;
        }
        seen.traces++;
        const tx = r.params[0] as string;
        const n = attempts.get(tx) ?? 0;
        attempts.set(tx, n + 1);
        const a = script(tx, n);
        if ('http' in a) {
          res.writeHead(a.http, { 'content-type': 'text/plain' });
          return res.end('upstream unavailable');
        }
        out.push({ jsonrpc: '2.0', id: r.id, ...a });
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Array.isArray(body) ? out : out[0]));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, attempts, seen };
}

afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

const chain: Pick<EvmChainConfig, 'slug' | 'dexes'> = { slug: 'eth', dexes: [] };
const tracesOn = (url: string, lines: string[] = [], c = chain) =>
  createCallTraces({ rpc: createRpcTransport({ url, baseDelayMs: 1, maxRetries: 3 }), chain: c, log: (l) => lines.push(l), resendDelaysMs: [1, 1, 1] });

describe('how a refusal is read', () => {
  it.each([
    [-32601, 'the method debug_traceTransaction does not exist/is not available', 'no-method'], // geth, Infura, publicnode
    [-32600, 'Unsupported method: debug_traceTransaction on BASE_MAINNET. See available methods at https://docs.alchemy.com', 'no-method'], // Alchemy
    [-32000, 'debug_traceTransaction is not available on the Free tier - upgrade to Pay As You Go', 'no-method'],
    [-32000, 'required historical state unavailable (reexec=128)', 'no-state'], // geth, a pruned node
    [-32000, 'missing trie node 1f2e (path ) state 0x1f2e is not available', 'no-state'],
    [-32000, 'execution timeout', 'transient'], // geth's tracer deadline
    [-32000, 'transaction 0x4b83d2533c76e1840851e3fe7bd49eded1e3c40e81267850601850ab21afbf96 not found', 'transient'], // a node behind (was: traces off)
    [-32000, 'header not found', 'transient'],
    [-32005, 'daily request count exceeded, request rate limited', 'transient'],
    [-32602, 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix', 'other'],
  ])('%i %s: %s', (code, message, kind) => {
    expect(traceRefusal({ code, message })).toBe(kind);
  });
});

describe('a trace refused with a transient error', () => {
  it('is sent again until served (a -32000 timeout, a rate limit the transport resends, a 503), and its figure is the trace’s, with nothing logged', async () => {
    const n = await node((_tx, attempt) =>
      attempt === 0
        ? { error: { code: -32000, message: 'execution timeout' } }
        : attempt === 1
          ? { error: { code: -32005, message: 'request rate exceeded' } }
          : attempt === 2
            ? { http: 503 }
            : { result: sellTrace() },
    );
    const lines: string[] = [];
    const traces = tracesOn(n.url, lines);
    const tx = hash(1);
    const out = await traces([receipt(tx)], keys());
    // The Swap event says 2 ETH; the route got 1.98 (the treasury's 0.02 is the hook's).
    expect(out.get(tx)?.native).toEqual(new Map([[PM, -(E18 * 198n) / 100n]]));
    expect(n.attempts.get(tx)).toBe(4);
    expect(lines).toEqual([]);
  });

  it('"transaction not found" (a node behind the one that served the receipt) no longer turns traces off', async () => {
    const n = await node((tx, attempt) =>
      tx === hash(1) && attempt < 2 ? { error: { code: -32000, message: `transaction ${tx} not found` } } : { result: sellTrace() },
    );
    const traces = tracesOn(n.url);
    expect((await traces([receipt(hash(1))], keys())).size).toBe(1);
    expect((await traces([receipt(hash(2))], keys())).size).toBe(1);
    expect(n.attempts.get(hash(2))).toBe(1);
  });

  it('still refused after the resends: the batch fails as a retryable RPC error, no fallback stored', async () => {
    const n = await node(() => ({ error: { code: -32000, message: 'execution timeout' } }));
    const e = await tracesOn(n.url)([receipt(hash(1))], keys()).catch((x) => x);
    expect(isHistoryError(e, 'rpc_error')).toBe(true);
    expect(e.retryable).toBe(true);
    // The first try and three resends.
    expect(n.attempts.get(hash(1))).toBe(4);
  });

  it('any other refusal is an RPC error, as for any other method', async () => {
    const n = await node(() => ({ error: { code: -32602, message: 'invalid argument 0: hex string of odd length' } }));
    const e = await tracesOn(n.url)([receipt(hash(1))], keys()).catch((x) => x);
    expect(isHistoryError(e, 'rpc_error')).toBe(true);
    expect(n.attempts.get(hash(1))).toBe(1);
  });
});

describe('a node that lacks the method', () => {
  it('falls back to the Swap figure for this source, asked once and said once; another source (another endpoint) asks for itself', async () => {
    const n = await node(() => ({ error: { code: -32601, message: 'the method debug_traceTransaction does not exist/is not available' } }));
    const lines: string[] = [];
    const traces = tracesOn(n.url, lines);
    expect((await traces([receipt(hash(1)), receipt(hash(2))], keys())).size).toBe(0);
    expect(n.seen.traces).toBe(2);
    expect((await traces([receipt(hash(3))], keys())).size).toBe(0);
    expect(n.seen.traces).toBe(2);
    expect(lines).toEqual([expect.stringMatching(/^eth: the RPC does not serve debug_traceTransaction \(the method .* code -32601\)/)]);
    expect((await tracesOn(n.url)([receipt(hash(3))], keys())).size).toBe(0);
    expect(n.seen.traces).toBe(3);
  });

  it('a node without the state of an old block (pruned): that transaction falls back, said once; others are still traced', async () => {
    const n = await node((tx) =>
      tx === hash(1) ? { error: { code: -32000, message: 'required historical state unavailable (reexec=128)' } } : { result: sellTrace() },
    );
    const lines: string[] = [];
    const traces = tracesOn(n.url, lines);
    const out = await traces([receipt(hash(1)), receipt(hash(2))], keys());
    expect([...out.keys()]).toEqual([hash(2)]);
    expect((await traces([receipt(hash(3))], keys())).size).toBe(1);
    expect(lines).toEqual([expect.stringContaining('eth: the RPC keeps no state to trace some transactions')]);
  });
});

describe('which swaps ask for a trace', () => {
  it('none for a hook without delta permissions, for a pool without a hook, or for a failed transaction', async () => {
    const n = await node(() => ({ result: sellTrace() }));
    const traces = tracesOn(n.url);
    expect((await traces([receipt(hash(1))], keys('0x00000000000000000000000000000000000000c0'))).size).toBe(0);
    expect((await traces([receipt(hash(1))], keys(NATIVE))).size).toBe(0);
    expect((await traces([{ ...receipt(hash(1)), status: '0x0' }], keys())).size).toBe(0);
    expect(n.seen.traces).toBe(0);
  });

  it('PancakeSwap Infinity: a hook whose registration bitmap may return swap deltas (read once) gets the trace of its Vault', async () => {
    const CL = '0x969d90ac74a1a5228b66440f8c8326a8da47a5f6';
    const VAULT = '0x238a358808379702088667322f80ac48bad5e6c4';
    const IHOOK = '0x4444000000000000000000000000000000000001';
    const QUIET = '0x5555000000000000000000000000000000000001';
    const bitmaps: Record<string, number> = { [IHOOK]: (1 << 7) | (1 << 11), [QUIET]: (1 << 6) | (1 << 7) };
    const n = await node(
      () => ({ result: sellTrace(VAULT, IHOOK) }),
      (to, data) => (data === '0xf961d1f4' ? '0x' + word(BigInt(bitmaps[to] ?? 0)) : '0x'),
    );
    const bsc = { slug: 'bsc', dexes: [{ name: 'pancakeswap-infinity', kind: 'infinity' as const, vault: VAULT, poolManagers: [CL] }] };
    const traces = tracesOn(n.url, [], bsc);
    const clReceipt = (tx: string) => receipt(tx, [swapLog(tx, CL, INFINITY_CL_SWAP_TOPIC, [-2n * E18, E18, 1n << 96n, 1000n, 0n, 2500n, 0n])]);
    const out = await traces([clReceipt(hash(1)), clReceipt(hash(2))], keys(IHOOK));
    // Keyed by the manager that emitted the Swap; the coins moved through the Vault.
    expect(out.get(hash(1))?.native).toEqual(new Map([[CL, -(E18 * 198n) / 100n]]));
    expect(n.seen.ethCalls).toBe(1);
    // A hook whose bitmap returns no delta: no trace.
    expect((await traces([clReceipt(hash(3))], keys(QUIET))).size).toBe(0);
    expect(n.seen.traces).toBe(2);
    expect(n.seen.ethCalls).toBe(2);
  });
});
