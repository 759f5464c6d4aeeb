import { HistoryError, isHistoryError, type HistoryErrorCode } from '../../core/errors.js';

/** The HTTP status of each code a client may see (only here: the rest of the service decides on codes). */
const STATUS: Partial<Record<HistoryErrorCode, number>> = {
  invalid_address: 400,
  unknown_chain: 400,
  invalid_limit: 400,
  invalid_cursor: 400,
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  internal: 500,
  upstream_unavailable: 502,
  overloaded: 503,
  store_unavailable: 503,
};

/** Codes a client may see; transport codes surface as upstream_unavailable. */
const PUBLIC_CODE: Partial<Record<HistoryErrorCode, HistoryErrorCode>> = {
  rpc_http_error: 'upstream_unavailable',
  rpc_rate_limited: 'upstream_unavailable',
  rpc_timeout: 'upstream_unavailable',
  rpc_malformed_response: 'upstream_unavailable',
  rpc_error: 'upstream_unavailable',
  invalid_position: 'upstream_unavailable',
  config_invalid: 'internal',
};

const TITLES: Partial<Record<HistoryErrorCode, string>> = {
  invalid_address: 'Invalid address',
  unknown_chain: 'Unknown chain',
  invalid_limit: 'Invalid limit',
  invalid_cursor: 'Invalid cursor',
  invalid_request: 'Invalid request',
  unauthorized: 'Unauthorized',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  rate_limited: 'Too many requests',
  upstream_unavailable: 'Upstream unavailable',
  overloaded: 'Overloaded',
  internal: 'Internal error',
};

/** An RFC 9457 problem response with a stable machine-readable `code`. */
export function problemResponse(error: unknown, extraHeaders: Record<string, string> = {}): Response {
  const e = isHistoryError(error) ? error : new HistoryError('internal', 'The server failed to handle this request.', { cause: error });
  const code = PUBLIC_CODE[e.code] ?? e.code;
  const status = STATUS[code] ?? 500;
  // Upstream messages can carry endpoint details; clients get a generic sentence for those.
  // Our own failures are logged with their cause; the client gets a generic sentence.
  if (code === 'internal') console.error('internal error:', e.message, e.cause ?? '');
  const detail =
    code === e.code
      ? e.message
      : code === 'upstream_unavailable'
        ? 'The chain RPC failed before any trade could be returned; retry later.'
        : 'The server failed to handle this request.';
  const headers: Record<string, string> = { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...extraHeaders };
  if (code === 'unauthorized') headers['www-authenticate'] = 'Bearer realm="wallet-history"';
  if (code === 'method_not_allowed') headers.allow = (e.context.allow as string) ?? 'GET';
  if ((code === 'rate_limited' || code === 'overloaded' || code === 'store_unavailable') && !headers['retry-after'])
    headers['retry-after'] = String(Math.ceil(e.retryAfter ?? 1));
  const body = { type: `urn:wallet-history:problem:${code}`, title: TITLES[code] ?? code, status, code, detail };
  return new Response(JSON.stringify(body), { status, headers });
}
