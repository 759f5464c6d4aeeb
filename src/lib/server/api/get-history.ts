import type { Api } from './create-api.js';
import { handleHistory, parseHistoryRequest } from './history.js';

/** `GET /v1/wallets/{address}/history`: validated at the boundary, then a stream or a page (history.ts). */
export async function getHistory(api: Api, request: Request, address: string): Promise<Response> {
  const principal = await api.authenticate(request);
  const target = parseHistoryRequest(api.history, address, new URL(request.url));
  return api.admit(() => handleHistory(api.history, principal, target, request.signal), principal.accountId, target.follow ? 'follow' : 'history');
}
