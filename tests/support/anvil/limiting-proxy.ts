import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC proxy in front of a node that refuses `eth_getLogs` the way hosted providers do:
 * ranges over `maxRange` blocks ("block range too large", naming the limit) and answers over
 * `maxResults` logs ("query returned more than N results", suggesting a range that fits, as
 * Infura and Alchemy do), and hides Otterscan's `ots_` namespace on demand, as most providers
 * do. Everything else, batches included, passes through. Counts refusals.
 */
export interface LimitingProxy {
  url: string;
  refusals: { range: number; results: number };
  /** Faults injected, by kind. */
  faults: Record<string, number>;
  /** Calls and HTTP requests that reached the proxy. */
  seen: { calls: number; httpRequests: number; debug: number };
  close(): Promise<void>;
}

interface Req {
  jsonrpc: string;
  id: unknown;
  method: string;
  params?: unknown[];
}

export interface LimitingProxyOptions {
  maxRange?: number;
  maxResults?: number;
  /** `hidden`: ots_ methods answer "method not found" (a node without Otterscan's index); `refuseAfter`: they do after that many calls. */
  ots?: 'hidden' | { refuseAfter: number };
  /**
   * `hidden`: debug_ methods answer "method not found", as most hosted providers' free tiers do;
   * `failFirst`: the first that many answer `error` (a transient refusal: a tracer timeout, a node
   * behind), the rest pass through. Counts the calls in `seen.debug`.
   */
  debug?: 'hidden' | { failFirst: number; error: { code: number; message: string } };
  /** `hidden`: eth_getLogs answers "method not found" (a node that serves no logs). */
  logs?: 'hidden';
  /**
   * A share of HTTP requests answered with a fault instead (seeded, so a run repeats). Every kind
   * is also given once early (every third request, in the order listed; a refused batch at the
   * next batch), so each is exercised however many requests a walk makes.
   */
  faults?: { rate: number; kinds: ProxyFault[]; seed?: number; hangMs?: number };
}

/** What a hosted provider does wrong now and then. `batch-refused`: a batch array answered with one error object. */
export type ProxyFault = '429' | '429-retry-after' | '5xx' | 'timeout' | 'truncate' | 'reset' | 'batch-refused';

export async function startLimitingProxy(target: string, opts: LimitingProxyOptions = {}): Promise<LimitingProxy> {
  const maxRange = opts.maxRange ?? 1000;
  const maxResults = opts.maxResults ?? 50;
  const refusals = { range: 0, results: 0 };
  const seen = { calls: 0, httpRequests: 0, debug: 0 };

  async function forward(body: unknown): Promise<unknown> {
    const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return res.json();
  }

  let otsCalls = 0;
  async function handle(r: Req): Promise<unknown> {
    seen.calls += 1;
    if (r.method.startsWith('ots_') && opts.ots) {
      otsCalls++;
      if (opts.ots === 'hidden' || otsCalls > opts.ots.refuseAfter) {
        return { jsonrpc: '2.0', id: r.id, error: { code: -32601, message: `the method ${r.method} does not exist/is not available` } };
      }
    }
    if (r.method.startsWith('debug_')) {
      seen.debug += 1;
      if (opts.debug === 'hidden')
        return { jsonrpc: '2.0', id: r.id, error: { code: -32601, message: `the method ${r.method} does not exist/is not available` } };
      if (opts.debug && seen.debug <= opts.debug.failFirst) return { jsonrpc: '2.0', id: r.id, error: opts.debug.error };
    }
    if (r.method !== 'eth_getLogs') return forward(r);
    if (opts.logs === 'hidden') return { jsonrpc: '2.0', id: r.id, error: { code: -32601, message: 'the method eth_getLogs does not exist/is not available' } };
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

  const faults: Record<string, number> = {};
  let rng = opts.faults?.seed ?? 1;
  // mulberry32, seeded: the same faults at the same requests on every run
  const random = () => {
    rng = (rng + 0x6d2b79f5) >>> 0;
    let t = rng;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      seen.httpRequests += 1;
      const f = opts.faults;
      const isBatch = raw.trimStart().startsWith('[');
      let kind: ProxyFault | null = null;
      if (f && f.kinds.some((k) => !faults[k]) && seen.httpRequests % 3 === 0) {
        kind = f.kinds.find((k) => !faults[k] && (k !== 'batch-refused' || isBatch)) ?? null;
      } else if (f && random() < f.rate) {
        kind = f.kinds[Math.floor(random() * f.kinds.length)];
      }
      if (f && kind) {
        if (kind !== 'batch-refused' || isBatch) {
          faults[kind] = (faults[kind] ?? 0) + 1;
          const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
            res.writeHead(status, { 'content-type': 'application/json', ...headers });
            res.end(JSON.stringify(body));
          };
          if (kind === '429') return json(429, { jsonrpc: '2.0', id: null, error: { code: 429, message: 'Too many requests' } });
          if (kind === '429-retry-after') return json(429, { error: 'rate limited' }, { 'retry-after': '1' });
          if (kind === '5xx') return json(502, { error: 'bad gateway' });
          if (kind === 'batch-refused') return json(200, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large for this plan' } });
          if (kind === 'reset') return req.socket.destroy();
          if (kind === 'timeout') {
            setTimeout(() => req.socket.destroy(), f.hangMs ?? 20_000).unref();
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('[{"jsonrpc":"2.0","id":1,"result":{"blockNum');
        }
      }
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
    faults,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
