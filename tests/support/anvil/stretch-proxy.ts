import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC proxy that makes a short real chain look as long as Ethereum's: real block r is
 * served as block r×K, with K-1 empty blocks between (their headers made up, their logs none).
 * Block numbers are mapped in both directions on the methods the EVM source uses (heads and
 * block tags, eth_getBlockByNumber, eth_getLogs ranges, receipts and logs, Otterscan's
 * ots_searchTransactionsBefore); anything else passes through. It counts what it is asked.
 */
export interface StretchProxy {
  url: string;
  factor: number;
  seen: { calls: number; httpRequests: number; byMethod: Record<string, number> };
  close(): Promise<void>;
}

interface Req {
  jsonrpc: string;
  id: unknown;
  method: string;
  params?: unknown[];
}

const hex = (n: number) => '0x' + n.toString(16);
const num = (h: string) => Number(BigInt(h));
const TAGS = new Set(['latest', 'safe', 'finalized', 'earliest', 'pending']);

export async function startStretchProxy(target: string, factor: number, { latencyMs = 0 } = {}): Promise<StretchProxy> {
  const seen = { calls: 0, httpRequests: 0, byMethod: {} as Record<string, number> };
  let id = 0;
  async function upstream(method: string, params: unknown[]): Promise<{ result?: any; error?: unknown }> {
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    return (await res.json()) as { result?: any; error?: unknown };
  }
  const up = (n: string | undefined) => (n === undefined || n === null ? n : hex(num(n) * factor));
  const stretchLog = (l: any) => ({ ...l, blockNumber: up(l.blockNumber) });
  const stretchReceipt = (r: any) => (r ? { ...r, blockNumber: up(r.blockNumber), logs: (r.logs ?? []).map(stretchLog) } : r);
  const stretchBlock = (b: any) => (b ? { ...b, number: up(b.number) } : b);

  async function handle(r: Req): Promise<unknown> {
    seen.calls += 1;
    seen.byMethod[r.method] = (seen.byMethod[r.method] ?? 0) + 1;
    const p = r.params ?? [];
    const answer = (a: { result?: unknown; error?: unknown }) => ({
      jsonrpc: '2.0',
      id: r.id,
      ...('error' in a && a.error ? { error: a.error } : { result: a.result }),
    });
    switch (r.method) {
      case 'eth_blockNumber': {
        const a = await upstream('eth_blockNumber', []);
        return answer(a.error ? a : { result: up(a.result) });
      }
      case 'eth_getBlockByNumber': {
        const tag = p[0] as string;
        if (TAGS.has(tag)) {
          const a = await upstream(r.method, p);
          return answer(a.error ? a : { result: stretchBlock(a.result) });
        }
        const n = num(tag);
        if (n % factor === 0) {
          const a = await upstream(r.method, [hex(n / factor), false]);
          return answer(a.error ? a : { result: stretchBlock(a.result) });
        }
        // A block between two real ones: empty, at the time of the real one below it.
        const below = await upstream(r.method, [hex(Math.floor(n / factor)), false]);
        if (!below.result) return answer({ result: null });
        return answer({ result: { number: hex(n), timestamp: below.result.timestamp, hash: '0x' + n.toString(16).padStart(64, '0'), transactions: [] } });
      }
      case 'eth_getLogs': {
        const f = { ...(p[0] as Record<string, unknown>) };
        const from = typeof f.fromBlock === 'string' && !TAGS.has(f.fromBlock) ? Math.ceil(num(f.fromBlock) / factor) : undefined;
        const to = typeof f.toBlock === 'string' && !TAGS.has(f.toBlock) ? Math.floor(num(f.toBlock) / factor) : undefined;
        if (from !== undefined && to !== undefined && from > to) return answer({ result: [] });
        if (from !== undefined) f.fromBlock = hex(from);
        if (to !== undefined) f.toBlock = hex(to);
        const a = await upstream(r.method, [f]);
        return answer(a.error ? a : { result: (a.result as any[]).map(stretchLog) });
      }
      case 'eth_getTransactionReceipt': {
        const a = await upstream(r.method, p);
        return answer(a.error ? a : { result: stretchReceipt(a.result) });
      }
      case 'ots_searchTransactionsBefore': {
        const b = Number(p[1]);
        // Real blocks r with r×K < b: r below ceil(b/K).
        const a = await upstream(r.method, [p[0], b === 0 ? 0 : Math.ceil(b / factor), p[2]]);
        if (a.error) return answer(a);
        const page = a.result;
        return answer({
          result: { ...page, txs: page.txs.map((t: any) => ({ ...t, blockNumber: up(t.blockNumber) })), receipts: page.receipts.map(stretchReceipt) },
        });
      }
      default:
        return answer(await upstream(r.method, p));
    }
  }

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      seen.httpRequests += 1;
      // A hosted provider's round trip, so a walk's round trips show in its time.
      if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
      try {
        const body = JSON.parse(raw) as Req | Req[];
        const out = Array.isArray(body) ? await Promise.all(body.map(handle)) : await handle(body);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(out));
      } catch (e) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(e) }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, factor, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}
