import { HistoryError } from '../../core/errors.js';
import { problemResponse } from './problem.js';

/**
 * Every v1 handler runs through here: whatever it throws becomes an RFC 9457 problem with its
 * stable code, so a route file never writes an error response of its own.
 */
export async function respond(handler: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await handler();
  } catch (e) {
    return problemResponse(e);
  }
}

/**
 * A handler for the methods a route does not serve: 405 problem+json with `Allow` (SvelteKit's own
 * 405 is plain text). History reads are metered and start loads, so that route does not offer HEAD.
 */
export function methodNotAllowed(allow: string): (event: { request: Request }) => Response {
  return ({ request }) =>
    problemResponse(new HistoryError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, { context: { allow } }));
}

/** A JSON answer of the API (no-store unless told otherwise). */
export function json(body: unknown, headers: Record<string, string> = {}, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}
