import type { Api } from './create-api.js';
import { handlePnl, parsePnlRequest } from './pnl.js';

/** `GET /v1/wallets/{address}/pnl`: validated at the boundary as history is, then the wallet's PnL (pnl.ts). */
export async function getPnl(api: Api, request: Request, address: string): Promise<Response> {
  const principal = await api.authenticate(request);
  const target = parsePnlRequest(api.history, address, new URL(request.url));
  return api.admit(() => handlePnl(api.history, principal, target), principal.accountId);
}
