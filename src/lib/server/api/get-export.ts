import type { Api } from './create-api.js';
import { handleExport, parseExportRequest } from './export.js';

/** `GET /v1/wallets/{address}/export`: validated at the boundary as history is, then the CSV (export.ts). */
export async function getExport(api: Api, request: Request, address: string): Promise<Response> {
  const principal = await api.authenticate(request);
  const target = parseExportRequest(api.history, address, new URL(request.url));
  return api.admit(() => handleExport(api.history, principal, target), principal.accountId);
}
