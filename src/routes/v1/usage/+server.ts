import { getUsage } from '$lib/server/api/get-usage.js';
import { methodNotAllowed, respond } from '$lib/server/api/respond.js';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = ({ locals, request }) => respond(() => getUsage(locals.server.api, request));
export const fallback = methodNotAllowed('GET, HEAD');
