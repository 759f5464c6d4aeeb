import type { Server } from '../create-server.js';
import { json } from './respond.js';

/** `GET /healthz`: the process is up and serving (for a load balancer's liveness check). No key, no store. */
export function getHealth(): Response {
  return json({ status: 'ok' });
}

/**
 * `GET /readyz`: the store answers and its migrations are done, so requests can be served (a load
 * balancer's readiness check). 503 with Retry-After while not.
 */
export async function getReady(server: Pick<Server, 'db'>): Promise<Response> {
  try {
    const rows = await server.db.query<{ version: number }>('SELECT max(version)::int AS version FROM schema_migrations');
    return json({ status: 'ready', schemaVersion: Number(rows[0]?.version ?? 0) });
  } catch {
    return json({ status: 'unavailable', reason: 'the store does not answer' }, { 'retry-after': '5' }, 503);
  }
}
