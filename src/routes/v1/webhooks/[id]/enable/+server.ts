import { enableWebhook } from '$lib/server/api/enable-webhook.js';
import { methodNotAllowed, respond } from '$lib/server/api/respond.js';
import type { RequestHandler } from './$types';

export const POST: RequestHandler = ({ locals, request, params }) => respond(() => enableWebhook(locals.server.api, request, params.id));
export const fallback = methodNotAllowed('POST');
