import { HistoryError } from '../../core/errors.js';

/** Any other path under /v1: 404 problem+json pointing at the OpenAPI document. */
export function notFound(request: Request): never {
  throw new HistoryError('not_found', `No operation at ${new URL(request.url).pathname}. See /v1/openapi.json.`);
}
