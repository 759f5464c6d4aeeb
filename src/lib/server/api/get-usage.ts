import { accountUsage } from '../store/accounts.js';
import type { Api } from './create-api.js';
import { json } from './respond.js';

/** `GET /v1/usage`: the account's counted trades. */
export async function getUsage(api: Api, request: Request): Promise<Response> {
  const principal = await api.authenticate(request);
  return json({ account: principal.account, trades: await accountUsage(api.db, principal.accountId) });
}
