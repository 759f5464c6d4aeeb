import type { Api } from './create-api.js';
import { parseHistoryRequest } from './history.js';
import { handleUnexplained } from './unexplained.js';

/** `GET /v1/wallets/{address}/unexplained`: validated at the boundary as history is, then one page (unexplained.ts). */
export async function getUnexplained(api: Api, request: Request, address: string): Promise<Response> {
  const principal = await api.authenticate(request);
  const target = parseHistoryRequest(api.history, address, new URL(request.url), 'unexplained');
  return api.admit(() => handleUnexplained(api.history, target), principal.accountId);
}
