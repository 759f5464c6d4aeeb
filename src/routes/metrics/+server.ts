import type { RequestHandler } from './$types';

/**
 * `GET /metrics`: Prometheus text format, no key (counts only: no wallet, key or URL appears in a
 * label). Point a scraper at it from inside your network; put it behind your proxy's access rules
 * if the server faces the internet.
 */
export const GET: RequestHandler = async ({ locals }) =>
  new Response(await locals.server.metricsText(), {
    headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' },
  });
