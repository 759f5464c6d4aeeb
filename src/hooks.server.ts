import type { Handle, ServerInit } from '@sveltejs/kit';
import { env } from '$env/dynamic/private';
import { loadConfig } from '$lib/server/config.js';
import { createServer, type Server } from '$lib/server/create-server.js';
import { defaultSourceFactory } from '$lib/server/sources.js';
import { preflight, withApiHeaders } from '$lib/server/api/api-headers.js';
import { observe } from '$lib/server/metrics.js';
import { answerClientErrorsOnNextServer } from '$lib/server/http/client-errors.js';
import { problemResponse } from '$lib/server/api/problem.js';
import { undecodablePath } from '$lib/server/api/undecodable-path.js';
import { HistoryError } from '$lib/core/errors.js';

/** The server this process started (none when EMBEDDED=1: each request brings its own). */
let own: Server | undefined;

export const init: ServerInit = async () => {
  const config = loadConfig(env);
  if (config.embedded) return;
  // adapter-node creates its HTTP server right after this hook: what Node's parser refuses on it
  // gets a problem too.
  answerClientErrorsOnNextServer();
  const s = (own = await createServer({ config, sources: defaultSourceFactory }));
  // On SIGTERM/SIGINT adapter-node stops accepting connections and waits for requests to drain:
  // open streams end now with their final line (a client resumes from its cursor elsewhere)
  // instead of holding the process for up to the stream budget.
  for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => s.api.beginShutdown());
  // adapter-node emits this once requests have drained: stop loaders at a batch boundary, close the store.
  process.once('sveltekit:shutdown' as 'beforeExit', () => void s.close());
};

/** What a worker (ROLE=worker) answers: its health and metrics, nothing a client reads. */
const WORKER_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export const handle: Handle = async ({ event, resolve }) => {
  const server = event.platform?.server ?? own;
  if (!server) throw new HistoryError('internal', 'EMBEDDED=1: the program embedding the app passes each request its server as platform.server.');
  event.locals.server = server;
  if (server.role === 'worker' && !WORKER_PATHS.has(event.url.pathname)) {
    return problemResponse(
      new HistoryError('not_found', 'This instance is a worker (ROLE=worker): it walks wallets and serves only /healthz, /readyz and /metrics.'),
    );
  }
  const api = event.url.pathname === '/v1' || event.url.pathname.startsWith('/v1/');
  if (api && event.request.method === 'OPTIONS') return preflight();
  const undecodable = api ? undecodablePath(event.url.pathname) : null;
  const response = undecodable ? problemResponse(undecodable) : await resolve(event);
  if (api) {
    await observe(server.api.metrics, event.url.pathname, response);
    return withApiHeaders(response);
  }
  try {
    response.headers.set('x-content-type-options', 'nosniff');
  } catch {
    // a response with immutable headers (a redirect made by Response.redirect) goes as it is
  }
  return response;
};
