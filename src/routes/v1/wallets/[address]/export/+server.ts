import { getExport } from '$lib/server/api/get-export.js';
import { methodNotAllowed, respond } from '$lib/server/api/respond.js';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = ({ locals, request, params }) => respond(() => getExport(locals.server.api, request, params.address));
// A read starts the wallet's load, as history's does: no HEAD.
export const HEAD = methodNotAllowed('GET');
export const fallback = methodNotAllowed('GET');
