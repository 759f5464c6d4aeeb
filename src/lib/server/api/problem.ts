import { HistoryError, isHistoryError, isTransportFault, type HistoryErrorCode } from '../../core/errors.js';

/** The HTTP status of each code a client may see (only here: the rest of the service decides on codes). */
const STATUS: Partial<Record<HistoryErrorCode, number>> = {
  invalid_address: 400,
  unknown_chain: 400,
  invalid_limit: 400,
  invalid_cursor: 400,
  invalid_parameter: 400,
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  history_incomplete: 409,
  not_configured: 501,
  internal: 500,
  upstream_unavailable: 502,
  overloaded: 503,
  store_unavailable: 503,
};

/** The code a client sees: transport codes surface as upstream_unavailable, a configuration fault as internal. */
function publicCode(code: HistoryErrorCode): HistoryErrorCode {
  if (isTransportFault(code)) return 'upstream_unavailable';
  return code === 'config_invalid' ? 'internal' : code;
}

const TITLES: Partial<Record<HistoryErrorCode, string>> = {
  invalid_address: 'Invalid address',
  unknown_chain: 'Unknown chain',
  invalid_limit: 'Invalid limit',
  invalid_cursor: 'Invalid cursor',
  invalid_parameter: 'Invalid parameter',
  invalid_request: 'Invalid request',
  unauthorized: 'Unauthorized',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  rate_limited: 'Too many requests',
  upstream_unavailable: 'Upstream unavailable',
  overloaded: 'Overloaded',
  history_incomplete: 'History incomplete',
  not_configured: 'Not configured',
  internal: 'Internal error',
};

/** An RFC 9457 problem response with a stable machine-readable `code`. */
export function problemResponse(error: unknown, extraHeaders: Record<string, string> = {}): Response {
  const e = isHistoryError(error) ? error : new HistoryError('internal', 'The server failed to handle this request.', { cause: error });
  const code = publicCode(e.code);
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
  if ((code === 'rate_limited' || code === 'overloaded' || code === 'store_unavailable' || code === 'history_incomplete') && !headers['retry-after'])
    headers['retry-after'] = String(Math.ceil(e.retryAfter ?? 1));
  const body = { type: `urn:wallet-history:problem:${code}`, title: TITLES[code] ?? code, status, code, detail };
  return new Response(JSON.stringify(body), { status, headers });
}

/** What each transport failure means, in words, for a stream's final line (the endpoint named by its host only). */
const UPSTREAM_REASON: Partial<Record<HistoryErrorCode, string>> = {
  rpc_http_error: 'could not be reached or answered with an HTTP error',
  rpc_rate_limited: 'kept refusing with rate limits',
  rpc_timeout: 'did not answer in time',
  rpc_malformed_response: 'answered with something other than the JSON expected',
  rpc_error: 'answered with an error',
  invalid_position: 'answered with a transaction at another place than before',
};

/**
 * Why a stream ended without its history (decisions.md): `{ code, detail }` for the final line. A
 * transport failure says the chain and the RPC's host, never its path or query, where providers
 * put their keys; other codes keep their own message, as a problem's detail would.
 */
export function streamError(error: unknown, chain: string): { code: HistoryErrorCode; detail: string } {
  const e = isHistoryError(error) ? error : new HistoryError('internal', 'The server failed to load this history.', { cause: error });
  const code = publicCode(e.code);
  if (code !== 'upstream_unavailable') return { code, detail: code === e.code ? e.message : 'The server failed to load this history.' };
  let host: string | null = null;
  try {
    if (typeof e.context.url === 'string') host = new URL(e.context.url).host;
  } catch {
    host = null;
  }
  const reason = UPSTREAM_REASON[e.code];
  // Not a transport failure (a source's own error): no RPC to blame.
  if (!reason) return { code, detail: `Loading this ${chain} history stopped on an error of its source; it resumes from the cursor.` };
  const who = host ? `The ${chain} RPC at ${host}` : `The ${chain} RPC`;
  const status = typeof e.context.status === 'number' ? ` (HTTP ${e.context.status})` : '';
  return { code, detail: `${who} ${reason}${status}; loading stopped here and resumes from the cursor.` };
}
