import { notFound } from '$lib/server/api/not-found.js';
import { respond } from '$lib/server/api/respond.js';
import type { RequestHandler } from './$types';

export const fallback: RequestHandler = ({ request }) => respond(() => notFound(request));
