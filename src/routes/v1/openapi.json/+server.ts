import { getOpenApi } from '$lib/server/api/get-openapi.js';
import { methodNotAllowed, respond } from '$lib/server/api/respond.js';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = ({ locals }) => respond(() => getOpenApi(locals.server.api));
export const fallback = methodNotAllowed('GET, HEAD');
