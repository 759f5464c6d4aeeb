import { rotateWebhook } from '$lib/server/api/rotate-webhook.js';
import { methodNotAllowed, respond } from '$lib/server/api/respond.js';
import type { RequestHandler } from './$types';

export const POST: RequestHandler = ({ locals, request, params }) => respond(() => rotateWebhook(locals.server.api, request, params.id));
export const fallback = methodNotAllowed('POST');
