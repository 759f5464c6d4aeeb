import { deleteWebhook } from '$lib/server/api/delete-webhook.js';
import { getWebhook } from '$lib/server/api/get-webhook.js';
import { methodNotAllowed, respond } from '$lib/server/api/respond.js';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = ({ locals, request, params }) => respond(() => getWebhook(locals.server.api, request, params.id));
export const DELETE: RequestHandler = ({ locals, request, params }) => respond(() => deleteWebhook(locals.server.api, request, params.id));
export const fallback = methodNotAllowed('GET, DELETE');
