/**
 * What every `/v1` answer carries, in the app (hooks.server.ts) and in the test harness alike.
 *
 * CORS: the API is called with a Bearer key, never a cookie, so any origin may call it (the key is
 * the credential, and a page cannot read another site's key): `Access-Control-Allow-Origin: *`
 * without `Allow-Credentials`, the `Authorization` header allowed, the headers a client reads
 * (Retry-After, X-Usage-Trades, X-Decoder-Version) exposed. A preflight is answered 204 here, before any handler.
 * `X-Content-Type-Options: nosniff` on every answer; `no-store` is set by the handlers (the
 * OpenAPI document alone may be cached).
 */
const CORS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'retry-after, x-usage-trades, x-decoder-version, content-type',
};

/** The 204 answer to a CORS preflight of a /v1 route. */
export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-max-age': '600',
      'x-content-type-options': 'nosniff',
    },
  });
}

/** The same answer with the API's CORS and content-type-sniffing headers. */
export function withApiHeaders(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const [k, v] of Object.entries(CORS)) headers.set(k, v);
  headers.set('x-content-type-options', 'nosniff');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
