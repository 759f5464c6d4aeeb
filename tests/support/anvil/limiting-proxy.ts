import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC proxy in front of a node that refuses `eth_getLogs` the way hosted providers do:
 * ranges over `maxRange` blocks ("block range too large", naming the limit) and answers over
 * `maxResults` logs ("query returned more than N results", suggesting a range that fits, as
 * Infura and Alchemy do). Everything else, batches included, passes through. Counts refusals.
 */
export interface LimitingProxy {
  url: string;
  refusals: { range: number; results: number };
  /** Calls and HTTP requests that reached the proxy. */
  seen: { calls: number; httpRequests: number };
  close(): Promise<void>;
}

interface Req {
  jsonrpc: string;
  id: unknown;
  method: string;
  params?: unknown[];
}

export async function startLimitingProxy(target: string, opts: { maxRange?: number; maxResults?: number } = {}): Promise<LimitingProxy> {
  const maxRange = opts.maxRange ?? 1000;
  const maxResults = opts.maxResults ?? 50;
  const refusals = { range: 0, results: 0 };
  const seen = { calls: 0, httpRequests: 0 };

  async function forward(body: unknown): Promise<unknown> {
    const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return res.json();
  }

  async function handle(r: Req): Promise<unknown> {
    seen.calls += 1;
    if (r.method !== 'eth_getLogs') return forward(r);
    const f = (r.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string };
    const isNum = (x?: string) => typeof x === 'string' && /^0x[0-9a-f]+$/i.test(x);
    if (isNum(f.fromBlock) && isNum(f.toBlock)) {
      const from = Number(BigInt(f.fromBlock!));
      const to = Number(BigInt(f.toBlock!));
      if (to - from + 1 > maxRange) {
        refusals.range += 1;
        return {
          jsonrpc: '2.0',
          id: r.id,
          error: { code: -32005, message: `block range is too large: ${to - from + 1} blocks requested, maximum block range is ${maxRange}` },
        };
      }
    }
    const answer = (await forward(r)) as { result?: Array<{ blockNumber: string }> };
    if (Array.isArray(answer.result) && answer.result.length > maxResults) {
      refusals.results += 1;
      const from = Number(BigInt(f.fromBlock ?? '0x0'));
      const blocks = answer.result.map((l) => Number(BigInt(l.blockNumber))).sort((a, b) => a - b);
      const end = Math.max(from, blocks[maxResults] - 1);
      return {
        jsonrpc: '2.0',
        id: r.id,
        error: {
          code: -32005,
          message: `query returned more than ${maxResults} results. Try with this block range [0x${from.toString(16)}, 0x${end.toString(16)}].`,
        },
      };
    }
    return answer;
  }

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      seen.httpRequests += 1;
      try {
        const body = JSON.parse(raw) as Req | Req[];
        const out = Array.isArray(body) ? await Promise.all(body.map(handle)) : await handle(body);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(out));
      } catch (e) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: String(e) } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refusals,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
