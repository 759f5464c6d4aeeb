import { getHistory } from '$lib/server/api/get-history.js';
import { methodNotAllowed, respond } from '$lib/server/api/respond.js';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = ({ locals, request, params }) => respond(() => getHistory(locals.server.api, request, params.address));
// Reads are metered and start loads: no HEAD here (SvelteKit would otherwise run GET for it).
export const HEAD = methodNotAllowed('GET');
export const fallback = methodNotAllowed('GET');
