import { describe, expect, it } from 'vitest';
import { createScriptedSource } from '../support/scripted-source.js';
import { createTestDatabase, OTHER_KEY, randomWallet, readStream, startTestServer, TEST_KEY } from '../support/test-server.js';
import { appRespond } from '../support/app.js';

describe('upstream failures', () => {
  it('answers 502 upstream_unavailable when the RPC fails before any trade, in both modes, and counts nothing', async () => {
    const s = createScriptedSource({ transactions: 50, failImmediately: true });
    const srv = await startTestServer({ sources: { sol: s } });
    try {
      const w = randomWallet();
      for (const path of [`/v1/wallets/${w}/history`, `/v1/wallets/${w}/history?limit=10`]) {
        const res = await srv.get(path);
        expect(res.status).toBe(502);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        const body = await res.json();
        expect(body.code).toBe('upstream_unavailable');
        // The upstream's own message (which may name the endpoint) is not passed on.
        expect(body.detail).not.toContain('scripted');
      }
      expect((await (await srv.get('/v1/usage')).json()).trades).toBe(0);
      // The RPC comes back: the same wallet loads whole.
      s.setFailure({});
      const { final } = await readStream(await srv.get(`/v1/wallets/${w}/history`));
      expect(final).toMatchObject({ complete: true, tradeCount: s.expected(w).length });
    } finally {
      await srv.close();
    }
  });

  it('ends a started stream with complete:false and a cursor that loses nothing, and a page keeps what it fetched', async () => {
    const s = createScriptedSource({ transactions: 100, batchSize: 10, failAfterBatches: 3 });
    const srv = await startTestServer({ sources: { sol: s } });
    try {
      const w = randomWallet();
      const first = await readStream(await srv.get(`/v1/wallets/${w}/history`));
      expect(first.final.complete).toBe(false);
      expect(first.final.cursor).toBeTruthy();
      // The final line says why it ended (the scripted source's error carries no URL: the chain only).
      expect(first.final.error).toEqual({
        code: 'upstream_unavailable',
        detail: 'The sol RPC could not be reached or answered with an HTTP error; loading stopped here and resumes from the cursor.',
      });
      const got = first.batches.flatMap((b) => b.trades);
      expect(got.length).toBe(s.expected(w).slice(0, got.length).length);
      expect(got.length).toBeGreaterThan(0);
      // A page beyond what was stored, while the RPC still fails: what is stored, complete:false, a cursor.
      const page = await (await srv.get(`/v1/wallets/${w}/history?limit=1000`)).json();
      expect(page.complete).toBe(false);
      expect(page.trades.length).toBe(got.length);
      expect(page.cursor).toBeTruthy();
      s.setFailure({});
      const rest = await readStream(await srv.get(`/v1/wallets/${w}/history?cursor=${encodeURIComponent(first.final.cursor)}`));
      expect(rest.final.complete).toBe(true);
      const all = [...got, ...rest.batches.flatMap((b) => b.trades)].map((t) => `${t.signature}/${t.side}`);
      expect(all).toEqual(s.expected(w).map((t) => `${t.signature}/${t.side}`));
      expect((await (await srv.get('/v1/usage')).json()).trades).toBe(all.length);
    } finally {
      await srv.close();
    }
  });
  it('a stream whose RPC refuses every connection ends with the reason, naming the host and not the key in its URL', async () => {
    // A port nothing listens on: bound, then closed.
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const srv = await startTestServer({
      sources: 'default',
      env: { RPC_URL_SOL: `http://user:pa55word@127.0.0.1:${port}/v2/abcdefghijklmnopqrstuvwxyz012345?api-key=S3CRET` },
    });
    try {
      const res = await srv.get(`/v1/wallets/${randomWallet()}/history`);
      // The headers left after 1.5 s with an empty line; the RPC was retried for longer than that.
      expect(res.status).toBe(200);
      const text = await res.text();
      const final = JSON.parse(text.trim().split('\n').at(-1)!);
      expect(final.complete).toBe(false);
      expect(final.error.code).toBe('upstream_unavailable');
      expect(final.error.detail).toContain(`The sol RPC at 127.0.0.1:${port} could not be reached`);
      for (const secret of ['pa55word', 'user', 'abcdefghijklmnop', 'S3CRET', 'api-key', '/v2']) expect(text).not.toContain(secret);
    } finally {
      await srv.close();
    }
  });
});

describe('server limits', () => {
  it('answers 429 rate_limited with Retry-After past the per-account rate', async () => {
    const srv = await startTestServer({ sources: { sol: createScriptedSource({ transactions: 1 }) }, env: { RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 5; i++) statuses.push((last = await srv.get('/v1/usage')).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await last!.json()).code).toBe('rate_limited');
    } finally {
      await srv.close();
    }
  });

  it('answers 503 overloaded past the concurrent request limit', async () => {
    const s = createScriptedSource({ transactions: 5, batchSize: 5, delayMs: 1_500 });
    const srv = await startTestServer({ sources: { sol: s }, env: { MAX_CONCURRENT_REQUESTS: '1' } });
    try {
      const slow = srv.get(`/v1/wallets/${randomWallet()}/history?limit=5`);
      await new Promise((r) => setTimeout(r, 300));
      const res = await srv.get(`/v1/wallets/${randomWallet()}/history?limit=5`);
      expect(res.status).toBe(503);
      expect((await res.json()).code).toBe('overloaded');
      expect(res.headers.get('retry-after')).toBeTruthy();
      expect((await slow).status).toBe(200);
    } finally {
      await srv.close();
    }
  });
});

describe('limits across instances', () => {
  it('holds the per-account rate over several instances on one PostgreSQL database', async () => {
    const db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '4' };
    const a = await startTestServer({ sources: { sol: createScriptedSource({ transactions: 1 }) }, env });
    const b = await startTestServer({ sources: { sol: createScriptedSource({ transactions: 1 }) }, env });
    try {
      // The window is the wall-clock minute: a run that straddles its turn is done again with the other key.
      let statuses: number[] = [];
      for (const key of [TEST_KEY, OTHER_KEY]) {
        const minute = Math.floor(Date.now() / 60_000);
        statuses = [];
        for (let i = 0; i < 8; i++) statuses.push((await (i % 2 ? b : a).get('/v1/usage', key)).status);
        if (Math.floor(Date.now() / 60_000) === minute) break;
      }
      // Four in the minute in total, alternating instances: not four on each.
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  });
});

describe('streams per key', () => {
  it('answers 429 rate_limited to a key past its concurrent requests, while another key is served', async () => {
    const s = createScriptedSource({ transactions: 5, batchSize: 5, delayMs: 1_500 });
    const srv = await startTestServer({ sources: { sol: s }, env: { MAX_STREAMS_PER_KEY: '1' } });
    try {
      const slow = srv.get(`/v1/wallets/${randomWallet()}/history?limit=5`);
      await new Promise((r) => setTimeout(r, 300));
      const res = await srv.get(`/v1/wallets/${randomWallet()}/history?limit=5`);
      expect(res.status).toBe(429);
      expect((await res.json()).code).toBe('rate_limited');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const other = await srv.get(`/v1/wallets/${randomWallet()}/history?limit=5`, OTHER_KEY);
      expect(other.status).toBe(200);
      expect((await slow).status).toBe(200);
      // the place is given back when the answer ends
      expect((await srv.get(`/v1/wallets/${randomWallet()}/history?limit=5`)).status).toBe(200);
    } finally {
      await srv.close();
    }
  });
});

describe('keys', () => {
  it('creates one key for a local account on a first start without keys, and prints it once', async () => {
    const { loadConfig } = await import('../../src/lib/server/config.js');
    const { createServer } = await import('../../src/lib/server/create-server.js');
    const dir = `memory://first-start`;
    const lines: string[] = [];
    const server = await createServer({
      config: loadConfig({ DATA_DIR: dir }),
      sources: () => createScriptedSource({ transactions: 1 }),
      log: (l) => lines.push(l),
    });
    try {
      const key = /wth_[A-Za-z0-9_-]{43}/.exec(lines.join('\n'))?.[0];
      expect(key).toBeTruthy();
      const res = await appRespond(server, new Request('http://x/v1/usage', { headers: { authorization: `Bearer ${key}` } }));
      expect(res!.status).toBe(200);
      expect((await res!.json()).account).toBe('local');
      // Stored as a hash only.
      const rows = await server.db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys');
      expect(rows).toHaveLength(1);
      expect(rows[0].key_hash).not.toContain(key!.slice(4));
    } finally {
      await server.close();
    }
  });

  it('bootstraps API_KEYS and refuses a malformed API_KEYS at start', async () => {
    const { loadConfig } = await import('../../src/lib/server/config.js');
    expect(() => loadConfig({ API_KEYS: 'nokey' })).toThrow(/API_KEYS entry 1/);
    expect(() => loadConfig({ API_KEYS: 'a:short' })).toThrow(/at least 16/);
    expect(loadConfig({ API_KEYS: `alice:${TEST_KEY}` }).apiKeys).toEqual([{ account: 'alice', key: TEST_KEY }]);
  });

  it('reads the per-chain RPC settings: limits, the learned log range, and TRON_API_KEY as a header', async () => {
    const { loadConfig } = await import('../../src/lib/server/config.js');
    const c = loadConfig({ RPC_MAX_IN_FLIGHT_ETH: '4', RPC_RPS_ETH: '10', RPC_LOGS_RANGE_ETH: '10000', TRON_API_KEY: ' k-123 ', RPC_RPS_TRON: '15' });
    expect(c.rpcOptions.eth).toEqual({ maxInFlight: 4, requestsPerSecond: 10, logsRange: 10_000 });
    expect(c.rpcOptions.tron).toEqual({ requestsPerSecond: 15, headers: { 'TRON-PRO-API-KEY': 'k-123' } });
    const d = loadConfig({
      RPC_DISCOVERY_BASE: 'explorer',
      EXPLORER_API_URL_BASE: 'https://api.etherscan.io/v2/api?chainid=8453',
      EXPLORER_API_KEY_BASE: 'ek',
    });
    expect(d.rpcOptions.base).toEqual({ discovery: 'explorer', explorer: { url: 'https://api.etherscan.io/v2/api?chainid=8453', key: 'ek' } });
    expect(() => loadConfig({ RPC_DISCOVERY_ETH: 'fast' })).toThrow(/RPC_DISCOVERY_ETH must be "auto", "ots", "explorer" or "logs"/);
    expect(() => loadConfig({ EXPLORER_API_URL_ETH: 'not a url' })).toThrow(/EXPLORER_API_URL_ETH must be a URL/);
    expect(() => loadConfig({ RPC_LOGS_RANGE_ETH: 'lots' })).toThrow(/RPC_LOGS_RANGE_ETH/);
  });

  it('reads the live settings: follow caps, webhooks, the Solana WebSocket', async () => {
    const { loadConfig } = await import('../../src/lib/server/config.js');
    expect(loadConfig({})).toMatchObject({
      followMaxSeconds: 3600,
      maxFollowStreams: 1000,
      maxFollowStreamsPerKey: 20,
      webhookAllowHttp: false,
      webhookAllowPrivate: false,
      maxWebhooksPerAccount: 20,
    });
    expect(loadConfig({}).webhookSecretKey).toBeUndefined();
    expect(loadConfig({ FOLLOW_MAX_SECONDS: '60', WEBHOOK_ALLOW_HTTP: 'TRUE', WEBHOOK_SECRET_KEY: ' k ' })).toMatchObject({
      followMaxSeconds: 60,
      webhookAllowHttp: true,
      webhookSecretKey: 'k',
    });
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE must be "true" or "false"/);
    expect(() => loadConfig({ MAX_FOLLOW_STREAMS: '0' })).toThrow(/MAX_FOLLOW_STREAMS/);
    expect(loadConfig({ RPC_WS_URL_SOL: 'wss://ws.example/abc' }).rpcOptions.sol).toMatchObject({ wsUrl: 'wss://ws.example/abc' });
    expect(loadConfig({ RPC_WS_URL_SOL: '' }).rpcOptions.sol).toMatchObject({ wsUrl: null });
    expect(() => loadConfig({ RPC_WS_URL_SOL: 'https://x' })).toThrow(/RPC_WS_URL_SOL must be a ws:\/\/ or wss:\/\/ URL/);
    // A fragment would be refused by the WebSocket when the stage connects: refused at start instead.
    expect(() => loadConfig({ RPC_WS_URL_BASE: 'wss://node.example/ws#key' })).toThrow(/RPC_WS_URL_BASE must be a ws:\/\/ or wss:\/\/ URL without a #fragment/);
  });

  it('reads ROLE, LEASE_SECONDS and DATABASE_POOL_SIZE; api and worker need DATABASE_URL', async () => {
    const { loadConfig } = await import('../../src/lib/server/config.js');
    expect(loadConfig({}).role).toBe('all');
    expect(loadConfig({}).leaseSeconds).toBe(30);
    expect(loadConfig({ ROLE: ' Worker ', DATABASE_URL: 'postgres://h/db', LEASE_SECONDS: '5' })).toMatchObject({ role: 'worker', leaseSeconds: 5 });
    expect(() => loadConfig({ ROLE: 'api' })).toThrow(/ROLE=api needs DATABASE_URL/);
    expect(() => loadConfig({ ROLE: 'both', DATABASE_URL: 'postgres://h/db' })).toThrow(/ROLE must be "all", "api" or "worker"/);
    expect(() => loadConfig({ LEASE_SECONDS: '0' })).toThrow(/LEASE_SECONDS must be a positive number/);
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: 'many' })).toThrow(/DATABASE_POOL_SIZE/);
  });
});
