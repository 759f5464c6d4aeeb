import { describe, expect, it } from 'vitest';
import { routeOf } from '../../src/lib/server/metrics.js';
import { createScriptedSource } from '../support/scripted-source.js';
import { randomWallet, readStream, startTestServer } from '../support/test-server.js';

describe('GET /metrics', () => {
  it('counts answers by route and status, problems by code, trades delivered, streams and loaders', async () => {
    const s = createScriptedSource({ transactions: 30, batchSize: 10 });
    const srv = await startTestServer({ sources: { sol: s } });
    try {
      const w = randomWallet();
      const { final } = await readStream(await srv.get(`/v1/wallets/${w}/history`));
      expect(final.complete).toBe(true);
      const page = await (await srv.get(`/v1/wallets/${w}/history?limit=7`)).json();
      expect(page.trades).toHaveLength(7);
      expect((await srv.get('/v1/usage', null)).status).toBe(401);
      expect((await srv.get(`/v1/wallets/nope/history`)).status).toBe(400);

      const text = await srv.server.metricsText();
      const value = (series: string) => {
        const line = text.split('\n').find((l) => l.startsWith(series + ' '));
        return line === undefined ? undefined : Number(line.slice(series.length + 1));
      };
      expect(value('wth_http_requests_total{route="/v1/wallets/{address}/history",status="200"}')).toBe(2);
      expect(value('wth_http_requests_total{route="/v1/usage",status="401"}')).toBe(1);
      expect(value('wth_problems_total{code="unauthorized"}')).toBe(1);
      expect(value('wth_problems_total{code="invalid_address"}')).toBe(1);
      expect(value('wth_trades_delivered_total')).toBe(final.tradeCount + 7);
      expect(value('wth_open_streams')).toBe(0);
      expect(value('wth_loaders')).toBe(1);
      expect(value('wth_trades_stored_total')).toBe(final.tradeCount);
      expect(text).toContain('# TYPE wth_http_requests_total counter');
      // No wallet address in any label.
      expect(text).not.toContain(w);
    } finally {
      await srv.close();
    }
  });

  it('labels a path by its route, never by the wallet in it', () => {
    expect(routeOf('/v1/wallets/0xabc/history')).toBe('/v1/wallets/{address}/history');
    expect(routeOf('/v1/usage')).toBe('/v1/usage');
    expect(routeOf('/v1/wallets/x')).toBe('other');
  });
});
