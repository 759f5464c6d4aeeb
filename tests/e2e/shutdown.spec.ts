import { expect, test } from '@playwright/test';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../support/throwaway-postgres.js';
import { API_KEY, startStack, type Stack } from './stack.js';

/**
 * SIGTERM while a stream is open, on the built server as an operator runs it: the stream ends
 * in-band with its final line and a cursor (a client resumes elsewhere, nothing lost), and the
 * process exits well within 10 s instead of holding on for the stream budget.
 */
for (const store of ['embedded', 'postgres'] as const) {
  test.describe(`on the ${store} store`, () => {
    let stack: Stack;
    let pg: ThrowawayPostgres | undefined;

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      // A PostgreSQL server of the test's own (never the machine's), the store an operator points
      // DATABASE_URL at.
      if (store === 'postgres') pg = await startThrowawayPostgres();
      // 3,000 trades behind 100 ms a request: the walk takes far longer than the test waits.
      stack = await startStack({ trades: 3_000, latencyMs: 100, env: pg ? { DATABASE_URL: pg.url } : {} });
    });

    test.afterAll(async () => {
      await stack?.stop().catch(() => {});
      await pg?.destroy();
    });

    test('SIGTERM ends an open stream with its final line and exits within 10 s', async () => {
      const res = await fetch(`${stack.baseUrl}/v1/wallets/${stack.wallet}/history`, { headers: { authorization: `Bearer ${API_KEY}` } });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      // Wait for the first batch line with trades: the stream is open and loading.
      while (!/"trades":\[\{/.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended early: ${text.slice(-300)}`);
        text += decoder.decode(value, { stream: true });
      }
      // Meanwhile GET /metrics shows the open stream, the walk and its RPC requests.
      const metrics = await (await fetch(`${stack.baseUrl}/metrics`)).text();
      expect(metrics).toMatch(/^wth_open_streams 1$/m);
      expect(metrics).toMatch(/^wth_loads_running 1$/m);
      expect(Number(/^wth_rpc_requests_total\{chain="sol"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
      // The server says which store it runs on: the one this run means.
      expect(stack.logs.join('')).toContain(store === 'postgres' ? 'Store: PostgreSQL at postgres://127.0.0.1:' : 'Store: embedded (PGlite)');
      const exit = stack.app.signal('SIGTERM');
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      const lines = text.trim().split('\n');
      const final = JSON.parse(lines.at(-1)!);
      expect(final.complete).toBe(false);
      expect(typeof final.cursor).toBe('string');
      expect((await exit).exitMs).toBeLessThan(10_000);
    });
  });
}
