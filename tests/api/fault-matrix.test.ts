import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLimitingProxy } from '../support/anvil/limiting-proxy.js';
import { buildScenario, type Scenario } from '../support/anvil/scenario.js';
import { startTestServer, streamAll } from '../support/test-server.js';

/**
 * The fault matrix for the families the other suites do not already fault (the Solana replay at
 * 10% in tests/sol/endpoint.test.ts, the Tron replay at 25% in tests/tron/): an EVM chain behind a
 * proxy that answers 10% of requests with 429 (with and without Retry-After), 502, a hang past the
 * timeout, a cut body, a reset connection or a refused batch, through the HTTP endpoint; and every
 * family's endpoint answering 401 or 403 (a wrong key): 502 at once, not after the retries.
 */
const WALLETS = {
  sol: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  eth: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  tron: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
};

describe('an upstream that refuses the key', () => {
  let deny: Server;
  let url = '';
  let hits = 0;
  beforeAll(async () => {
    deny = createServer((req, res) => {
      hits++;
      const forbidden = req.url?.includes('forbid');
      res.writeHead(forbidden ? 403 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: forbidden ? 'Forbidden: invalid API key' : 'Unauthorized' }));
    });
    await new Promise<void>((r) => deny.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(deny.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => deny.close(() => r())));

  it('gets 502 upstream_unavailable at once on every family, for 401 and for 403', async () => {
    for (const path of ['/k', '/forbid']) {
      const srv = await startTestServer({ sources: 'default', env: { RPC_URL_SOL: url + path, RPC_URL_ETH: url + path, RPC_URL_TRON: url + path } });
      try {
        for (const [chain, wallet] of Object.entries(WALLETS)) {
          hits = 0;
          const t0 = Date.now();
          const res = await srv.get(`/v1/wallets/${wallet}/history?chain=${chain}&limit=5`);
          expect(res.status, `${chain} ${path}`).toBe(502);
          expect((await res.json()).code).toBe('upstream_unavailable');
          // No retry of a refused key: a request or two (a source's first calls may go together).
          expect(hits, `${chain} ${path}`).toBeLessThanOrEqual(3);
          expect(Date.now() - t0).toBeLessThan(5_000);
        }
      } finally {
        await srv.close();
      }
    }
  });
});

describe('an EVM chain behind 10% faults of every kind, through the HTTP endpoint', () => {
  let s: Scenario;
  let dir: string;
  beforeAll(async () => {
    s = await buildScenario({ rounds: 8, gapBlocks: 200, clusterSize: 1, erc4337: false });
    dir = mkdtempSync(join(tmpdir(), 'wth-faults-'));
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Batches of 2 calls: many requests, so that 10% of them is a fault of most kinds. */
  async function run(rpcUrl: string) {
    const file = join(dir, `chains-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify([{ ...s.chainsFileEntry('devfault'), rpcUrl }]));
    const srv = await startTestServer({
      sources: 'default',
      env: { EVM_CHAINS_FILE: file, RPC_TIMEOUT_MS_DEVFAULT: '1000', RPC_DISCOVERY_DEVFAULT: 'logs', RPC_BATCH_SIZE_DEVFAULT: '2' },
    });
    try {
      const { trades } = await streamAll(srv, s.wallet, 'chain=devfault');
      const usage = (await (await srv.get('/v1/usage')).json()).trades;
      return { trades, usage };
    } finally {
      await srv.close();
    }
  }

  it('streams exactly what a fault-free run streams, and counts each trade once', async () => {
    const clean = await run(s.rpcUrl);
    expect(clean.trades.length).toBe(s.groundTruth.length);
    const proxy = await startLimitingProxy(s.rpcUrl, {
      maxRange: 1e12,
      maxResults: 1e9,
      faults: { rate: 0.1, kinds: ['429', '429-retry-after', '5xx', 'timeout', 'truncate', 'reset', 'batch-refused'], seed: 7, hangMs: 3_000 },
    });
    try {
      const faulty = await run(proxy.url);
      expect(faulty.trades).toEqual(clean.trades);
      expect(faulty.usage).toBe(clean.trades.length);
      console.log(`faults injected: ${JSON.stringify(proxy.faults)} in ${proxy.seen.httpRequests} requests`);
      // Every kind happened at least once (the proxy gives each early), on top of the 10%.
      expect(Object.keys(proxy.faults).sort()).toEqual(['429', '429-retry-after', '5xx', 'batch-refused', 'reset', 'timeout', 'truncate'].sort());
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
