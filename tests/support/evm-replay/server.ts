import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RpcLog, RpcReceipt } from '../../../src/lib/chains/evm/decode/rpc-types.js';

/**
 * A JSON-RPC node of our own for receipts that no local chain can produce (venues that ship no
 * deployable bytecode): it serves a fixed set of receipts, the logs in them, block headers and a
 * table of contract-call answers, over a real socket, as a node would. `eth_getLogs` applies the
 * filter rules of the JSON-RPC spec (address or list, positional topics, null wildcards, OR lists,
 * block range). Anything else is "method not found".
 */
export interface EvmReplayOptions {
  chainId: number;
  receipts: RpcReceipt[];
  /** Block number -> unix seconds. */
  timestamps: ReadonlyMap<number, number>;
  /** `${to}:${data}` (lowercase) -> hex result. A call not listed reverts. */
  calls: ReadonlyMap<string, string>;
}

export interface EvmReplay {
  url: string;
  /** Calls answered, by method. */
  seen: Record<string, number>;
  close(): Promise<void>;
}

interface Req {
  id: unknown;
  method: string;
  params?: unknown[];
}

const hex = (n: number) => '0x' + n.toString(16);

function matches(
  l: RpcLog,
  f: { address?: string | string[]; topics?: (string | string[] | null)[]; fromBlock?: string; toBlock?: string },
  head: number,
): boolean {
  const block = Number(BigInt(l.blockNumber));
  const bound = (tag: string | undefined, dflt: number) =>
    tag === undefined || tag === 'latest' || tag === 'safe' || tag === 'finalized' ? dflt : tag === 'earliest' ? 0 : Number(BigInt(tag));
  if (block < bound(f.fromBlock, head) || block > bound(f.toBlock, head)) return false;
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

export async function startEvmReplay(o: EvmReplayOptions): Promise<EvmReplay> {
  const head = Math.max(0, ...o.receipts.map((r) => Number(BigInt(r.blockNumber)))) + 2;
  const byHash = new Map(o.receipts.map((r) => [r.transactionHash.toLowerCase(), r]));
  const seen: Record<string, number> = {};

  function answer(r: Req): unknown {
    seen[r.method] = (seen[r.method] ?? 0) + 1;
    const ok = (result: unknown) => ({ jsonrpc: '2.0', id: r.id, result });
    const p = r.params ?? [];
    switch (r.method) {
      case 'eth_chainId':
        return ok(hex(o.chainId));
      case 'eth_blockNumber':
        return ok(hex(head));
      case 'eth_getBlockByNumber': {
        const tag = String(p[0]);
        const n = tag === 'latest' || tag === 'safe' || tag === 'finalized' ? head : Number(BigInt(tag));
        if (n > head) return ok(null);
        return ok({ number: hex(n), timestamp: hex(o.timestamps.get(n) ?? 1_700_000_000 + n) });
      }
      case 'eth_getTransactionReceipt':
        return ok(byHash.get(String(p[0]).toLowerCase()) ?? null);
      case 'eth_getLogs': {
        const f = (p[0] ?? {}) as Parameters<typeof matches>[1];
        return ok(o.receipts.flatMap((rc) => rc.logs).filter((l) => matches(l, f, head)));
      }
      case 'eth_getCode':
        return ok('0x');
      case 'eth_call': {
        const c = (p[0] ?? {}) as { to?: string; data?: string };
        const result = o.calls.get(`${String(c.to).toLowerCase()}:${String(c.data).toLowerCase()}`);
        return result === undefined ? { jsonrpc: '2.0', id: r.id, error: { code: 3, message: 'execution reverted' } } : ok(result);
      }
      default:
        return { jsonrpc: '2.0', id: r.id, error: { code: -32601, message: `the method ${r.method} does not exist/is not available` } };
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
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
