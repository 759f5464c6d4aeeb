import { HistoryError } from '../../core/errors.js';
import { deleteWebhook as removeWebhook } from '../store/webhooks.js';
import type { Api } from './create-api.js';

/** `DELETE /v1/webhooks/{id}`: the webhook and its pending deliveries go; its wallets are no longer followed for it. */
export async function deleteWebhook(api: Api, request: Request, id: string): Promise<Response> {
  const principal = await api.authenticate(request);
  const gone = await removeWebhook(api.db, principal.accountId, id);
  if (!gone) throw new HistoryError('not_found', `No webhook ${id} for this key's account.`);
  api.webhooks?.follows?.unfollow(id);
  return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
}
