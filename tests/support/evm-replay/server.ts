import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RpcLog, RpcReceipt } from '../../../src/lib/chains/evm/decode/rpc-types.js';

/**
 * A JSON-RPC node of our own for receipts that no local chain can produce (venues that ship no
 * deployable bytecode, real mainnet transactions): it serves a fixed set of receipts, the logs in
 * them, their transactions and block headers, and contract-call answers, over a real socket, as a
 * node would. `eth_getLogs` applies the filter rules of the JSON-RPC spec (address or list,
 * positional topics, null wildcards, OR lists, block range or block hash). Anything else is
 * "method not found".
 */
export interface EvmReplayOptions {
  chainId: number;
  receipts: RpcReceipt[];
  /** Block number -> unix seconds, for blocks not in `blocks` (a block in neither gets 1,700,000,000 + its number). */
  timestamps?: ReadonlyMap<number, number>;
  /** `${to}:${data}` (lowercase) -> hex result. */
  calls?: ReadonlyMap<string, string>;
  /** Answers a call `calls` does not list: a hex result, or undefined for a revert (a missing method). */
  call?: (to: string, data: string) => string | undefined;
  /** `eth_getTransactionByHash` answers (the node's own objects). */
  transactions?: ReadonlyArray<{ hash: string }>;
  /**
   * The recorded headers (`eth_getBlockByNumber` / `eth_getBlockByHash` answers). When given, the
   * head is the newest of them (a tag names it) and a block not recorded is "header not found",
   * as a node answers for a block it lacks, rather than a header made up here.
   */
  blocks?: ReadonlyArray<{ number: string; hash: string; timestamp: string }>;
  /** Head block number (default: the newest recorded block, else the newest receipt's block + 2). */
  head?: number;
  /** `eth_getCode` answers by address (lowercase); others are `0x`. */
  code?: ReadonlyMap<string, string>;
  /**
   * `debug_traceTransaction` (call tracer) answers by transaction hash (lowercase); `null` for a
   * transaction the node cannot trace (answered as a node without the state to replay it, so the
   * source falls back for that transaction only). Without this option the method is "not
   * found", as on a node without the debug namespace.
   */
  traces?: ReadonlyMap<string, unknown>;
}

export interface EvmReplay {
  url: string;
  /** Calls answered, by method (every element of a batch counts). */
  seen: Record<string, number>;
  /** `eth_call`s that reverted for want of an answer, by `to:selector`. */
  reverted: Record<string, number>;
  /** HTTP requests served. */
  readonly httpRequests: number;
  /** Zeroes `seen`, `reverted` and the request count (a test measuring one walk). */
  resetCounts(): void;
  close(): Promise<void>;
}

interface Req {
  id: unknown;
  method: string;
  params?: unknown[];
}

interface LogFilter {
  address?: string | string[];
  topics?: (string | string[] | null)[];
  fromBlock?: string;
  toBlock?: string;
  blockHash?: string;
}

const hex = (n: number) => '0x' + n.toString(16);
const TAGS = new Set(['latest', 'safe', 'finalized', 'pending']);

function matches(l: RpcLog & { blockHash?: string }, f: LogFilter, head: number): boolean {
  if (f.blockHash !== undefined) {
    if (l.blockHash?.toLowerCase() !== f.blockHash.toLowerCase()) return false;
  } else {
    const block = Number(BigInt(l.blockNumber));
    const bound = (tag: string | undefined, dflt: number) => (tag === undefined || TAGS.has(tag) ? dflt : tag === 'earliest' ? 0 : Number(BigInt(tag)));
    if (block < bound(f.fromBlock, head) || block > bound(f.toBlock, head)) return false;
  }
  if (f.address) {
    const list = (Array.isArray(f.address) ? f.address : [f.address]).map((a) => a.toLowerCase());
    if (!list.includes(l.address.toLowerCase())) return false;
  }
  return (f.topics ?? []).every((want, i) => {
    if (want === null) return true;
    const have = l.topics[i]?.toLowerCase();
    return have !== undefined && (Array.isArray(want) ? want.map((w) => w.toLowerCase()) : [want.toLowerCase()]).includes(have);
  });
}

const blockNo = (r: RpcReceipt) => Number(BigInt(r.blockNumber));
const txIndex = (r: RpcReceipt) => Number(BigInt(r.transactionIndex));

export async function startEvmReplay(o: EvmReplayOptions): Promise<EvmReplay> {
  // Logs come back in chain order, as a node gives them, whatever order the receipts were given in.
  const receipts = [...o.receipts].sort((a, b) => blockNo(a) - blockNo(b) || txIndex(a) - txIndex(b));
  const blocks = new Map((o.blocks ?? []).map((b) => [Number(BigInt(b.number)), b]));
  const blocksByHash = new Map((o.blocks ?? []).map((b) => [b.hash.toLowerCase(), b]));
  const head = o.head ?? (blocks.size ? Math.max(...blocks.keys()) : Math.max(0, ...receipts.map(blockNo)) + 2);
  const byHash = new Map(receipts.map((r) => [r.transactionHash.toLowerCase(), r]));
  const txs = new Map((o.transactions ?? []).map((t) => [t.hash.toLowerCase(), t]));
  const calls = o.calls ?? new Map<string, string>();
  let seen: Record<string, number> = {};
  let reverted: Record<string, number> = {};
  let httpRequests = 0;

  function header(n: number): unknown {
    if (n > head) return null;
    const b = blocks.get(n);
    if (b) return { ...b };
    if (blocks.size) return undefined;
    return { number: hex(n), timestamp: hex(o.timestamps?.get(n) ?? 1_700_000_000 + n) };
  }

  function ethCall(id: unknown, c: { to?: string; data?: string; input?: string }) {
    const to = String(c.to).toLowerCase();
    const data = String(c.data ?? c.input).toLowerCase();
    const result = calls.get(`${to}:${data}`) ?? o.call?.(to, data);
    if (result !== undefined) return { jsonrpc: '2.0', id, result };
    const key = `${to}:${data.slice(0, 10)}`;
    reverted[key] = (reverted[key] ?? 0) + 1;
    return { jsonrpc: '2.0', id, error: { code: 3, message: 'execution reverted' } };
  }

  function answer(r: Req): unknown {
    seen[r.method] = (seen[r.method] ?? 0) + 1;
    const ok = (result: unknown) => ({ jsonrpc: '2.0', id: r.id, result });
    const fail = (code: number, message: string) => ({ jsonrpc: '2.0', id: r.id, error: { code, message } });
    const p = r.params ?? [];
    switch (r.method) {
      case 'eth_chainId':
        return ok(hex(o.chainId));
      case 'eth_blockNumber':
        return ok(hex(head));
      case 'eth_getBlockByNumber': {
        const tag = String(p[0]);
        const h = header(TAGS.has(tag) ? head : tag === 'earliest' ? 0 : Number(BigInt(tag)));
        return h === undefined ? fail(-32000, 'header not found') : ok(h);
      }
      case 'eth_getBlockByHash':
        return ok(blocksByHash.get(String(p[0]).toLowerCase()) ?? null);
      case 'eth_getTransactionReceipt':
        return ok(byHash.get(String(p[0]).toLowerCase()) ?? null);
      case 'eth_getTransactionByHash':
        return ok(txs.get(String(p[0]).toLowerCase()) ?? null);
      case 'eth_getBlockReceipts': {
        const tag = String(p[0]);
        const n = TAGS.has(tag)
          ? head
          : /^0x[0-9a-f]{64}$/i.test(tag)
            ? Number(BigInt(blocksByHash.get(tag.toLowerCase())?.number ?? -1))
            : Number(BigInt(tag));
        if (blocks.size && !blocks.has(n)) return ok(null);
        // Only the recorded transactions of the block: a replay has no others.
        return ok(receipts.filter((rc) => blockNo(rc) === n));
      }
      case 'eth_getLogs': {
        const f = (p[0] ?? {}) as LogFilter;
        const bound = (tag: string | undefined, dflt: number) => (tag === undefined || TAGS.has(tag) ? dflt : tag === 'earliest' ? 0 : Number(BigInt(tag)));
        if (f.blockHash === undefined && bound(f.fromBlock, head) > bound(f.toBlock, head)) return fail(-32602, 'invalid block range params');
        return ok(receipts.flatMap((rc) => rc.logs).filter((l) => matches(l, f, head)));
      }
      case 'eth_getCode':
        return ok(o.code?.get(String(p[0]).toLowerCase()) ?? '0x');
      case 'eth_call':
        return ethCall(r.id, (p[0] ?? {}) as { to?: string; data?: string });
      case 'debug_traceTransaction': {
        if (!o.traces) return fail(-32601, `the method ${r.method} does not exist/is not available`);
        const h = String(p[0]).toLowerCase();
        const t = o.traces.get(h);
        if (t === undefined) return fail(-32000, `transaction ${h} not found`);
        return t === null ? fail(-32000, 'required historical state unavailable (replay: this transaction has no trace)') : ok(t);
      }
      default:
        return fail(-32601, `the method ${r.method} does not exist/is not available`);
    }
  }

  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => resolve(body));
      req.on('error', reject);
    });

  const server: Server = createServer(async (req, res) => {
    httpRequests++;
    let body: unknown;
    try {
      body = JSON.parse(await read(req));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const out = Array.isArray(body) ? body.map((b) => answer(b as Req)) : answer(body as Req);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get seen() {
      return seen;
    },
    get reverted() {
      return reverted;
    },
    get httpRequests() {
      return httpRequests;
    },
    resetCounts() {
      seen = {};
      reverted = {};
      httpRequests = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
