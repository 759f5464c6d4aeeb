/**
 * The v1 route table for the test harness: the same handlers the SvelteKit route files in
 * src/routes/v1/ call, dispatched by the same paths, so suites served over node:http
 * (serve-node.ts) exercise the code the built app runs. tests/e2e/contract.spec.ts runs the shared
 * contract checks against the built app (`node build`) too.
 */
import type { Api } from '../../src/lib/server/api/create-api.js';
import { decodeAddressSegment, getHistory } from '../../src/lib/server/api/get-history.js';
import { getChains } from '../../src/lib/server/api/get-chains.js';
import { getOpenApi } from '../../src/lib/server/api/get-openapi.js';
import { getUsage } from '../../src/lib/server/api/get-usage.js';
import { notFound } from '../../src/lib/server/api/not-found.js';
import { methodNotAllowed, respond } from '../../src/lib/server/api/respond.js';
import { preflight, withApiHeaders } from '../../src/lib/server/api/api-headers.js';
import { observe } from '../../src/lib/server/metrics.js';

/** Handles a request under /v1 as the route files do; null outside /v1 (as SvelteKit would serve a page). */
export function handleV1(api: Api, request: Request): Promise<Response> | null {
  const url = new URL(request.url);
  // SvelteKit redirects a trailing slash away (trailingSlash 'never'); the table matches without it.
  const path = url.pathname.replace(/(.)\/+$/, '$1');
  if (path !== '/v1' && !path.startsWith('/v1/')) return null;
  // As hooks.server.ts does for every /v1 request.
  if (request.method === 'OPTIONS') return Promise.resolve(preflight());
  return route(api, request, path).then(async (res) => {
    await observe(api.metrics, path, res);
    return withApiHeaders(res);
  });
}

function route(api: Api, request: Request, path: string): Promise<Response> {
  const m = request.method;
  const get = m === 'GET' || m === 'HEAD';
  const history = /^\/v1\/wallets\/([^/]+)\/history$/.exec(path);
  if (history) return respond(() => (m === 'GET' ? getHistory(api, request, decodeAddressSegment(history[1])) : methodNotAllowed('GET')({ request })));
  if (path === '/v1/usage') return respond(() => (get ? getUsage(api, request) : methodNotAllowed('GET, HEAD')({ request })));
  if (path === '/v1/chains') return respond(() => (get ? getChains(api) : methodNotAllowed('GET, HEAD')({ request })));
  if (path === '/v1/openapi.json') return respond(() => (get ? getOpenApi(api) : methodNotAllowed('GET, HEAD')({ request })));
  return respond(() => notFound(request));
}
