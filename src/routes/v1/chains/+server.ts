import { getChains } from '$lib/server/api/get-chains.js';
import { methodNotAllowed, respond } from '$lib/server/api/respond.js';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = ({ locals }) => respond(() => getChains(locals.server.api));
export const fallback = methodNotAllowed('GET, HEAD');
