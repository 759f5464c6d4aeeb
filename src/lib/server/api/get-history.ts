import { HistoryError } from '../../core/errors.js';
import type { Api } from './create-api.js';
import { handleHistory, parseHistoryRequest } from './history.js';

/** `GET /v1/wallets/{address}/history`: validated at the boundary, then a stream or a page (history.ts). */
export async function getHistory(api: Api, request: Request, address: string): Promise<Response> {
  const principal = await api.authenticate(request);
  const target = parseHistoryRequest(api.history, address, new URL(request.url));
  return api.admit(() => handleHistory(api.history, principal, target, request.signal), principal.accountId);
}

/** A path segment as the address it names; `%ZZ` and the like cannot be an address: 400 invalid_address rather than a 500. */
export function decodeAddressSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HistoryError('invalid_address', `The address in the path is not valid percent-encoding: "${segment}".`);
  }
}
