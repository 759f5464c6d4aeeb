import { createWebhook } from '$lib/server/api/create-webhook.js';
import { listWebhooks } from '$lib/server/api/list-webhooks.js';
import { methodNotAllowed, respond } from '$lib/server/api/respond.js';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = ({ locals, request }) => respond(() => listWebhooks(locals.server.api, request));
export const POST: RequestHandler = ({ locals, request }) => respond(() => createWebhook(locals.server.api, request));
export const fallback = methodNotAllowed('GET, POST');
