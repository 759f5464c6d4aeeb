import { getReady } from '$lib/server/api/get-health.js';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = ({ locals }) => getReady(locals.server);
