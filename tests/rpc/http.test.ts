import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryError, redactUrl } from '../../src/lib/core/errors.js';
import { createHttpJsonClient } from '../../src/lib/rpc/http-json.js';
import { createRpcTransport } from '../../src/lib/rpc/json-rpc.js';
import { sleep } from '../../src/lib/core/wait.js';

/** The shared HTTP layer (src/lib/rpc/http.ts) under a real local server: statuses, retries, timeouts, cut bodies, credentials. */
type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;
let server: Server | undefined;
const seen: IncomingMessage[] = [];

async function serve(h: Handler): Promise<string> {
  let n = 0;
  server = createServer((req, res) => {
    seen.push(req);
    h(req, res, n++);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
  seen.length = 0;
});

const ok = (res: ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** A client whose retry waits are recorded instead of slept. */
function client(url: string, extra: Partial<Parameters<typeof createHttpJsonClient>[0]> = {}) {
  const waits: number[] = [];
  const c = createHttpJsonClient({ url, timeoutMs: 300, random: () => 0.5, sleep: async (ms) => void waits.push(ms), ...extra });
  return { c, waits };
}

describe('the shared HTTP layer', () => {
  it('retries 429 waiting at least Retry-After, and 429 without it after a backoff', async () => {
    const url = await serve((_q, res, n) => {
      if (n === 0) return void res.writeHead(429, { 'retry-after': '3' }).end('slow down');
      if (n === 1) return void res.writeHead(429).end('slow down');
      ok(res, { n });
    });
    const { c, waits } = client(url);
    expect(await c.get('/x')).toEqual({ n: 2 });
    expect(waits[0]).toBe(3000);
    expect(waits[1]).toBeGreaterThan(0);
    expect(waits[1]).toBeLessThan(3000);
    expect(c.stats).toMatchObject({ httpRequests: 3, retries: 2 });
  });

  it('retries 5xx and a body cut short, then succeeds', async () => {
    const url = await serve((_q, res, n) => {
      if (n === 0) return void res.writeHead(503).end('down');
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"data":[1,2');
        return void res.destroy();
      }
      ok(res, { data: [1, 2, 3] });
    });
    const { c } = client(url);
    expect(await c.get('/x')).toEqual({ data: [1, 2, 3] });
    expect(c.stats.httpRequests).toBe(3);
  });

  it('fails at once on 401 and 403 (a wrong key), but retries a 403 whose body names a rate limit', async () => {
    for (const status of [401, 403]) {
      const url = await serve((_q, res) => void res.writeHead(status).end('{"Error":"invalid api key"}'));
      const { c } = client(url);
      const e = (await c.get('/x').catch((x) => x)) as HistoryError;
      expect(e).toMatchObject({ code: 'rpc_http_error', retryable: false });
      expect(c.stats.httpRequests).toBe(1);
      server!.close();
    }
    const url = await serve((_q, res, n) =>
      n === 0 ? void res.writeHead(403).end('{"Error":"request rate exceeded the allowed_rps(15)"}') : ok(res, { fine: true }),
    );
    const { c } = client(url);
    expect(await c.get('/x')).toEqual({ fine: true });
    expect(c.stats).toMatchObject({ httpRequests: 2, retries: 1 });
  });

  it('times out a silent endpoint as rpc_timeout, retried up to the limit', async () => {
    const url = await serve(() => {
      /* never answers */
    });
    const { c } = client(url, { timeoutMs: 100, maxRetries: 2 });
    const e = (await c.get('/x').catch((x) => x)) as HistoryError;
    expect(e).toMatchObject({ code: 'rpc_timeout', retryable: true });
    expect(e.context.attempts).toBe(3);
  });

  it('rejects with the abort reason while waiting', async () => {
    const url = await serve(() => {});
    const { c } = client(url, { timeoutMs: 10_000 });
    const ac = new AbortController();
    const p = c.get('/x', {}, { signal: ac.signal });
    await sleep(50);
    ac.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
  });

  it('sends credentials written in the URL as Authorization: Basic, and never shows them', async () => {
    const port = new URL(await serve((q, res) => ok(res, q.url === '/rpc' ? { jsonrpc: '2.0', id: 1, result: 1 } : { ok: 1 }))).port;
    const { c } = client(`http://alice:s3cr%40t@127.0.0.1:${port}/base`);
    expect(await c.post('/wallet/x', { value: 1 })).toEqual({ ok: 1 });
    expect(seen[0].url).toBe('/base/wallet/x');
    expect(seen[0].headers.authorization).toBe(`Basic ${Buffer.from('alice:s3cr@t').toString('base64')}`);
    expect(seen[0].headers['content-type']).toBe('application/json');
    // The JSON-RPC client goes through the same transport.
    const rpc = createRpcTransport({ url: `http://bob:pw@127.0.0.1:${port}/rpc` });
    await rpc.call('x', []);
    expect(seen[1].headers.authorization).toBe(`Basic ${Buffer.from('bob:pw').toString('base64')}`);
    server!.close();
    const down = (await createHttpJsonClient({ url: `http://alice:s3cret@127.0.0.1:${port}/k/${'a'.repeat(32)}?api-key=zzz`, maxRetries: 0 })
      .get('/x')
      .catch((x) => x)) as HistoryError;
    expect(down.message).not.toMatch(/alice|s3cret|zzz|aaaa/);
    expect(down.message).toContain(`http://127.0.0.1:${port}/k/…?…`);
  });

  it('redacts URLs readably', () => {
    expect(redactUrl('https://user:pass@rpc.example.com/v2/AbCdEfGhIjKlMnOpQrStUvWx?api-key=1')).toBe('https://rpc.example.com/v2/…?…');
    expect(redactUrl('https://api.trongrid.io')).toBe('https://api.trongrid.io');
    expect(redactUrl('not a url')).toBe('<invalid url>');
  });
});
