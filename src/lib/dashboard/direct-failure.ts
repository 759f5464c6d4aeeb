import { isHistoryError } from '../core/errors.js';

/**
 * Direct mode in a browser: a fetch to an RPC that answers but sends no CORS header allowing this
 * page fails exactly as one to a port nothing listens on (a TypeError, no status), so the
 * transport can only say "connection failed". A `no-cors` request tells them apart where the
 * browser lets it: it resolves (with an opaque answer the page cannot read) when the endpoint
 * answers, and fails when nothing does. Returns the failure in words that say what to configure,
 * or null when the error is not such a failure.
 */
export async function explainDirectFailure(
  e: unknown,
  rpcUrl: string | undefined,
  origin: string,
  f: typeof fetch = fetch,
): Promise<{ code: string; message: string } | null> {
  if (!rpcUrl || !isHistoryError(e, 'rpc_http_error') || e.context.status !== undefined) return null;
  let probe: URL;
  try {
    probe = new URL(rpcUrl);
  } catch {
    return null;
  }
  const host = probe.host;
  // fetch refuses a URL with user:pass in it (the transport sends those as a Basic header): probe without.
  probe.username = '';
  probe.password = '';
  try {
    await f(probe.href, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: AbortSignal.timeout(5_000) });
  } catch {
    return {
      code: 'rpc_unreachable',
      message: `The RPC at ${host} could not be reached: nothing answers at that address (check the URL and port), or the network is down.`,
    };
  }
  return {
    code: 'rpc_cors',
    message:
      `The RPC at ${host} answers, but not to this page: it sends no CORS header allowing ${origin}. ` +
      'Use an endpoint that allows browsers, put a proxy in front that adds Access-Control-Allow-Origin, or load through this server’s API instead.',
  };
}
