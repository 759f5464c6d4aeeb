import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/lib/core/chain-source.js';
import { createRpcTransport } from '../../src/lib/rpc/json-rpc.js';
import type { RpcLog, RpcReceipt } from '../../src/lib/chains/evm/decode/rpc-types.js';
import { createLogsRange } from '../../src/lib/chains/evm/discovery/logs-range.js';
import { isSettlerRegistryRead, type SettlerRegistryRead } from '../../src/lib/chains/evm/enrich/settler-kind.js';
import { builtInSettlers, predictSettler, SETTLER_REGISTRY, settlersNamedBy } from '../../src/lib/chains/evm/enrich/settler-registry.js';
import { createZeroExSettlers } from '../../src/lib/chains/evm/enrich/settlers.js';

/**
 * 0x's Settlers from its deployer registry (enrich/settlers.ts): which addresses the registry's
 * Transfers name, the built-in list computed from its addressing (checked against real
 * transactions sent to Settlers), and how often the registry's logs are read (counted on a local
 * JSON-RPC server of ours).
 */

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const topic = (a: string) => '0x' + a.slice(2).padStart(64, '0');
const A = '0x' + 'a1'.repeat(20);
const B = '0x' + 'b2'.repeat(20);
const C = '0x' + 'c3'.repeat(20);
const ZERO = '0x' + '0'.repeat(40);

const registryLog = (from: string, to: string, feature: number, block = 1, address = SETTLER_REGISTRY): RpcLog => ({
  address,
  topics: [TRANSFER, topic(from), topic(to), '0x' + feature.toString(16).padStart(64, '0')],
  data: '0x',
  blockNumber: '0x' + block.toString(16),
  transactionHash: '0x' + '11'.repeat(32),
  transactionIndex: '0x0',
});

describe("the registry's record", () => {
  it('names both sides of each of its ERC-721 Transfers, not the zero address, not other contracts or shapes', () => {
    const logs = [
      registryLog(ZERO, A, 2), // deploy: the first instance of feature 2
      registryLog(A, B, 2), // deploy: the next one
      registryLog(B, A, 2), // remove: B paused, A is the owner again
      registryLog(ZERO, C, 3, 1, '0x' + 'ee'.repeat(20)), // another ERC-721
      { ...registryLog(ZERO, C, 3), topics: registryLog(ZERO, C, 3).topics.slice(0, 3) }, // an ERC-20 shape
    ];
    expect(settlersNamedBy(logs)).toEqual(new Set([A, B]));
  });

  it('computes the Settlers of real transactions from (feature, chain id, nonce), as Create3.predict does', () => {
    // Each address is the `to` (or a hop) of a real transaction in ../shared/fixtures/evm-mainnet,
    // a Settler by 0x's registry (and rotki's 0x Settler lists); the nonce is the feature's n-th deployment.
    const real: Array<[chainId: number, nonce: number, settler: string, seenIn: string]> = [
      [1, 6, '0x70bf6634ee8cb27d04478f184b9b8bb13e5f4710', 'eth 0x5871cd5d… (a CoW solver routing through it, 2024-12-05)'],
      [1, 7, '0x0d0e364aa7852291883c162b22d6d81f6355428f', "eth 0xcd6afacf… (Rainbow's router → AllowanceHolder → Settler, 2025-03-12)"],
      [1, 16, '0xf48a3f7c0575c85cf4529aa220caf3c055773f1c', 'eth 0x5938e7bb… (sent straight to it, 2026-04-05)'],
      [42161, 9, '0xb254ee265261675528bddb0796741c0c65a4c158', 'arbitrum 0x4b83d253… (sent to it, 2025-03-20)'],
      [10, 9, '0x402867b638339ad8bec6e5373cfa95da0b462c85', 'optimism 0x8b5e0f8a… (sent to it, 2025-03-20)'],
      [137, 8, '0x7f20a7a526d1bab092e3be0733d96287e93cef59', 'polygon 0xf09d96ec… (sent to it, 2025-03-20)'],
    ];
    for (const [chainId, nonce, settler, seenIn] of real) {
      expect(predictSettler(chainId, 2, nonce), seenIn).toBe(settler);
      expect(builtInSettlers(chainId).has(settler), seenIn).toBe(true);
    }
    // Per chain: an eth Settler is not polygon's, and 0x's fixed contracts are not Settlers.
    expect(builtInSettlers(137).has('0xf48a3f7c0575c85cf4529aa220caf3c055773f1c')).toBe(false);
    expect(builtInSettlers(1).has('0x0000000000001ff3684f28c67538d4d072c22734')).toBe(false); // AllowanceHolder
    expect(builtInSettlers(1).has('0xdef1c0ded9bec7f1a1670819833240f027b25eff')).toBe(false); // Exchange Proxy
    // Features 2-5, nonces 1-128, two shims.
    expect(builtInSettlers(56).size).toBe(1024);
  });

  it('keeps a read in the store only in its own shape', () => {
    expect(isSettlerRegistryRead({ through: 10, instances: [A], whole: true })).toBe(true);
    expect(isSettlerRegistryRead({ through: -1, instances: [], whole: false })).toBe(true);
    expect(isSettlerRegistryRead({ through: 10, instances: ['0xABC'], whole: true })).toBe(false);
    expect(isSettlerRegistryRead({ through: 1.5, instances: [], whole: true })).toBe(false);
    expect(isSettlerRegistryRead({ through: 10, instances: [] })).toBe(false);
    expect(isSettlerRegistryRead(null)).toBe(false);
  });
});

// --- Reading it: a JSON-RPC server of ours that serves the registry's logs and counts the reads ---

interface Filter {
  address: string;
  fromBlock: string;
  toBlock: string;
  topics: string[];
}
let server: Server | undefined;

/** Serves eth_getLogs of the registry from `logs`; `refuseOver`: ranges longer are refused as Infura words it. */
async function registryNode(logs: RpcLog[], opts: { refuseOver?: number } = {}) {
  const asked: Filter[] = [];
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      const one = (r: any) => {
        const f = r.params[0] as Filter;
        asked.push(f);
        const from = Number(BigInt(f.fromBlock));
        const to = Number(BigInt(f.toBlock));
        if (opts.refuseOver && to - from + 1 > opts.refuseOver) {
          return { jsonrpc: '2.0', id: r.id, error: { code: -32005, message: `block range is too large, maximum block range is ${opts.refuseOver}` } };
        }
        const inRange = logs.filter((l) => l.address === f.address && Number(BigInt(l.blockNumber)) >= from && Number(BigInt(l.blockNumber)) <= to);
        return { jsonrpc: '2.0', id: r.id, result: inRange };
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Array.isArray(body) ? body.map(one) : one(body)));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, asked };
}

afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

const receiptAt = (block: number, logs = 1): RpcReceipt => ({
  transactionHash: '0x' + block.toString(16).padStart(64, '0'),
  transactionIndex: '0x0',
  blockNumber: '0x' + block.toString(16),
  from: '0x' + '01'.repeat(20),
  to: A,
  status: '0x1',
  logs: Array.from({ length: logs }, () => registryLog(ZERO, ZERO, 0, block, '0x' + 'dd'.repeat(20))),
});

function settlersOn(url: string, o: { cache?: ReturnType<typeof createMemoryCache<SettlerRegistryRead>>; logsRange?: number; lines?: string[] } = {}) {
  const rpc = createRpcTransport({ url });
  const range = createLogsRange({ chain: 'eth', logsRange: o.logsRange });
  return createZeroExSettlers({ rpc, chain: { slug: 'eth', chainId: 1 }, range, cache: o.cache, log: (l) => o.lines?.push(l) });
}

describe('reading the registry', () => {
  it('reads once for a walk (newest batch first), from block 0 to its newest transaction; the record alone names the Settlers', async () => {
    const node = await registryNode([registryLog(ZERO, A, 2, 100), registryLog(A, B, 2, 5_000), registryLog(ZERO, C, 3, 9_000)]);
    const cache = createMemoryCache<SettlerRegistryRead>();
    const extra = settlersOn(node.url, { cache });
    // Batches of one walk, newest first.
    const first = await extra([receiptAt(8_000), receiptAt(7_990)]);
    await extra([receiptAt(6_000)]);
    await extra([receiptAt(300)]);
    expect(node.asked).toEqual([{ address: SETTLER_REGISTRY, fromBlock: '0x0', toBlock: '0x1f40', topics: [TRANSFER] }]);
    // C was deployed after the newest transaction: not read yet, and not needed.
    expect(new Map(first)).toEqual(
      new Map([
        [A, '0x'],
        [B, '0x'],
      ]),
    );
    expect((await cache.get('eth', ['registry'])).get('registry')).toEqual({ through: 8_000, instances: [A, B], whole: true });
  });

  it('reads again only from where it stopped, when a newer transaction comes; a restart reads the store first', async () => {
    const node = await registryNode([registryLog(ZERO, A, 2, 100), registryLog(A, B, 2, 9_000)]);
    const cache = createMemoryCache<SettlerRegistryRead>();
    await cache.put('eth', new Map([['registry', { through: 8_000, instances: [A], whole: true }]]));
    const extra = settlersOn(node.url, { cache });
    // Older than the stored read: nothing asked.
    expect(new Map(await extra([receiptAt(7_000)]))).toEqual(new Map([[A, '0x']]));
    expect(node.asked).toEqual([]);
    // Newer: one read of what the store lacks.
    const after = await extra([receiptAt(9_500)]);
    expect(node.asked.map((f) => [f.fromBlock, f.toBlock])).toEqual([['0x1f41', '0x251c']]);
    expect(after.get(B)).toBe('0x');
    // A receipt without logs holds no trade: it asks for nothing.
    await extra([receiptAt(20_000, 0)]);
    expect(node.asked.length).toBe(1);
  });

  it('a record read whole that names no Settler (a chain without 0x, or a node answering [] for logs it pruned): the built-in list', async () => {
    const node = await registryNode([]);
    const m = await settlersOn(node.url)([receiptAt(500)]);
    expect(node.asked.length).toBe(1);
    expect(m.get('0xf48a3f7c0575c85cf4529aa220caf3c055773f1c')).toBe('0x');
  });

  it('batches decoded at once wait for one read', async () => {
    const node = await registryNode([registryLog(ZERO, A, 2, 100)]);
    const extra = settlersOn(node.url);
    const maps = await Promise.all([extra([receiptAt(500)]), extra([receiptAt(400)]), extra([receiptAt(450)])]);
    expect(node.asked.length).toBe(1);
    for (const m of maps) expect(m.get(A)).toBe('0x');
  });

  it('where the provider limits ranges: a refused read gives the built-in list (said once) and teaches the range; the next walk reads the newest blocks it takes', async () => {
    const node = await registryNode([registryLog(ZERO, A, 2, 100), registryLog(A, B, 2, 9_900)], { refuseOver: 1_000 });
    const lines: string[] = [];
    // maxRetries 0: a lone call's -32005 is retried by the transport today even with
    // retryItemErrors false (only batch items honour it); the lead's fix to json-rpc/call.ts makes
    // the default transport hand it back at once, as here.
    const rpc = createRpcTransport({ url: node.url, maxRetries: 0 });
    const range = createLogsRange({ chain: 'eth' });
    const extra = createZeroExSettlers({ rpc, chain: { slug: 'eth', chainId: 1 }, range, log: (l) => lines.push(l) });
    const refused = await extra([receiptAt(9_950)]);
    expect(node.asked.length).toBe(1);
    // The built-in list: eth's Settler of December 2024 is there, the record's are not (never read).
    expect(refused.get('0x70bf6634ee8cb27d04478f184b9b8bb13e5f4710')).toBe('0x');
    expect(refused.has(A)).toBe(false);
    expect(await range.cap()).toBe(1_000);
    // The rest of this walk: no read.
    await extra([receiptAt(9_000)]);
    expect(node.asked.length).toBe(1);
    // A later walk with a newer transaction: one read of the newest 1,000 blocks, the list beside it.
    const later = await extra([receiptAt(10_000)]);
    expect(node.asked.slice(1).map((f) => [Number(f.fromBlock), Number(f.toBlock)])).toEqual([[9_001, 10_000]]);
    expect(later.get(B)).toBe('0x');
    expect(later.get('0x70bf6634ee8cb27d04478f184b9b8bb13e5f4710')).toBe('0x');
    expect(lines).toEqual([expect.stringContaining("eth: 0x's Settler registry logs refused (block range is too large")]);
  });

  it('a range known up front (RPC_LOGS_RANGE_<SLUG>): the first read is already within it, nothing refused', async () => {
    const node = await registryNode([registryLog(A, B, 2, 9_900)], { refuseOver: 2_000 });
    const extra = settlersOn(node.url, { logsRange: 2_000 });
    const m = await extra([receiptAt(10_000)]);
    expect(node.asked.map((f) => [Number(f.fromBlock), Number(f.toBlock)])).toEqual([[8_001, 10_000]]);
    expect(m.get(A)).toBe('0x');
    expect(m.get(B)).toBe('0x');
  });
});
