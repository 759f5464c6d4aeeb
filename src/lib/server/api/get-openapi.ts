import type { Api } from './create-api.js';
import { openApiDocument } from './openapi.js';
import { json } from './respond.js';

/** `GET /v1/openapi.json` (no key): the OpenAPI 3.1 document of the v1 surface; the one cacheable answer. */
export function getOpenApi(api: Api): Response {
  return json(openApiDocument(api.chains.list().map((c) => c.slug)), { 'cache-control': 'public, max-age=300' });
}
