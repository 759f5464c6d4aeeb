import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRpcTransport } from '../../src/lib/rpc/json-rpc.js';
import { createEvmSource } from '../../src/lib/chains/evm/source.js';
import { BUILT_IN_EVM_CHAINS } from '../../src/lib/chains/evm/registry.js';
import { createMemoryTokenCache } from '../../src/lib/core/chain-source.js';
import { HistoryError, isHistoryError } from '../../src/lib/core/errors.js';

type Handler = (body: any, n: number) => { status?: number; headers?: Record<string, string>; json?: unknown; text?: string };
let server: Server | undefined;

async function serve(h: Handler): Promise<string> {
  let n = 0;
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const out = h(JSON.parse(raw), n++);
      res.writeHead(out.status ?? 200, { 'content-type': 'application/json', ...(out.headers ?? {}) });
      res.end(out.text ?? JSON.stringify(out.json));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

const echo = (r: any) => ({ jsonrpc: '2.0', id: r.id, result: r.params[0] });

// The EVM source's needs of the shared JSON-RPC client (src/lib/rpc/json-rpc.ts).
describe('JSON-RPC client, as the EVM source uses it', () => {
  it('sends calls in batches of the configured size and counts calls and HTTP requests', async () => {
    const sizes: number[] = [];
    const url = await serve((b) => (sizes.push(b.length), { json: b.map(echo).reverse() }));
    const rpc = createRpcTransport({ url, batchSize: 4 });
    const out = await rpc.callManySettled(Array.from({ length: 10 }, (_, i) => ({ method: 'x', params: [i] })));
    expect(out.map((o) => (o.ok ? o.result : null))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(sizes.sort()).toEqual([2, 4, 4]);
    expect(rpc.stats).toMatchObject({ calls: 10, httpRequests: 3 });
  });

  it('falls back to smaller batches when the endpoint refuses a batch as a whole', async () => {
    const url = await serve((b) =>
      Array.isArray(b) && b.length > 2
        ? { json: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } } }
        : { json: Array.isArray(b) ? b.map(echo) : echo(b) },
    );
    const rpc = createRpcTransport({ url, batchSize: 8 });
    const out = await rpc.callManySettled(Array.from({ length: 5 }, (_, i) => ({ method: 'x', params: [i] })));
    expect(out.map((o) => (o.ok ? o.result : null))).toEqual([0, 1, 2, 3, 4]);
  });

  it('returns per-call errors in a batch and throws rpc_error for a single call', async () => {
    const url = await serve((b) => {
      const err = (r: any) => ({ jsonrpc: '2.0', id: r.id, error: { code: -32000, message: 'execution reverted' } });
      return { json: Array.isArray(b) ? b.map((r: any, i: number) => (i === 1 ? err(r) : echo(r))) : err(b) };
    });
    const rpc = createRpcTransport({ url });
    const out = await rpc.callManySettled([
      { method: 'a', params: [1] },
      { method: 'b', params: [2] },
    ]);
    expect(out[0]).toEqual({ ok: true, result: 1 });
    expect(out[1]).toMatchObject({ ok: false, error: { message: 'execution reverted' } });
    await expect(rpc.call('eth_call', [])).rejects.toMatchObject({ code: 'rpc_error', retryable: false });
  });

  it('retries 429 and 5xx, then reports rpc_rate_limited / rpc_http_error', async () => {
    let url = await serve((b, n) => (n < 2 ? { status: 429, text: 'slow down' } : { json: echo(b) }));
    expect(await createRpcTransport({ url, maxRetries: 2, baseDelayMs: 5 }).call('x', [7])).toBe(7);
    await new Promise<void>((r) => server!.close(() => r()));
    url = await serve(() => ({ status: 503, text: 'down' }));
    const rpc = createRpcTransport({ url, maxRetries: 1, baseDelayMs: 5 });
    const e = await rpc.call('x', []).catch((x) => x);
    expect(isHistoryError(e, 'rpc_http_error')).toBe(true);
    expect((e as HistoryError).retryable).toBe(true);
    expect(rpc.stats.httpRequests).toBe(2);
  });

  it('reports non-JSON answers and unreachable endpoints', async () => {
    const url = await serve(() => ({ text: '<html>' }));
    await expect(createRpcTransport({ url, maxRetries: 0 }).call('x', [])).rejects.toMatchObject({ code: 'rpc_malformed_response' });
    await expect(createRpcTransport({ url: 'http://127.0.0.1:9', maxRetries: 0 }).call('x', [])).rejects.toMatchObject({ code: 'rpc_http_error' });
  });
});

describe('EVM source errors', () => {
  it('validates the wallet before any network call', async () => {
    const source = createEvmSource({ chain: BUILT_IN_EVM_CHAINS[0], rpcUrl: 'http://127.0.0.1:9', tokens: createMemoryTokenCache() });
    const it = source.history({ wallet: '0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045' })[Symbol.asyncIterator]();
    await expect(it.next()).rejects.toMatchObject({ code: 'invalid_address' });
    expect(source.stats.httpRequests).toBe(0);
  });

  it('rejects a malformed position and fails with a transport error when the node is down', async () => {
    const source = createEvmSource({ chain: BUILT_IN_EVM_CHAINS[0], rpcUrl: 'http://127.0.0.1:9', tokens: createMemoryTokenCache() });
    const w = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
    await expect(source.history({ wallet: w, before: 'x' })[Symbol.asyncIterator]().next()).rejects.toMatchObject({ code: 'invalid_position' });
    const down = createEvmSource({
      chain: BUILT_IN_EVM_CHAINS[0],
      rpcUrl: 'http://127.0.0.1:9',
      tokens: createMemoryTokenCache(),
      transport: createRpcTransport({ url: 'http://127.0.0.1:9', maxRetries: 0 }),
    });
    await expect(down.history({ wallet: w })[Symbol.asyncIterator]().next()).rejects.toMatchObject({ code: 'rpc_http_error' });
  });
});

describe('per-call refusals inside a batch', () => {
  it('are resent until answered, when the caller lets item errors be retried', async () => {
    let refused = 0;
    const url = await serve((b) => ({
      json: b.map((r: any, i: number) =>
        i >= 2 && refused++ < 3 ? { jsonrpc: '2.0', id: r.id, error: { code: -32005, message: 'batch limit exceeded' } } : echo(r),
      ),
    }));
    const rpc = createRpcTransport({ url, baseDelayMs: 5 });
    const out = await rpc.callManySettled(Array.from({ length: 4 }, (_, i) => ({ method: 'x', params: [i] })));
    expect(out.map((o) => (o.ok ? o.result : null))).toEqual([0, 1, 2, 3]);
  });

  it('are handed back at once when the caller reads them (eth_getLogs range refusals)', async () => {
    const url = await serve((b) => ({
      json: b.map((r: any, i: number) =>
        i === 1 ? { jsonrpc: '2.0', id: r.id, error: { code: -32005, message: 'query returned more than 10000 results' } } : echo(r),
      ),
    }));
    const rpc = createRpcTransport({ url });
    const out = await rpc.callManySettled(
      [
        { method: 'eth_getLogs', params: [0] },
        { method: 'eth_getLogs', params: [1] },
      ],
      { retryItemErrors: false },
    );
    expect(out).toEqual([
      { ok: true, result: 0 },
      { ok: false, error: { code: -32005, message: 'query returned more than 10000 results', data: undefined } },
    ]);
    expect(rpc.stats.httpRequests).toBe(1);
  });
});
