import { HistoryError } from '../../core/errors.js';
import { enableWebhook as reenable, getWebhook } from '../store/webhooks.js';
import type { Api } from './create-api.js';
import { json } from './respond.js';
import { webhookView } from './webhook-request.js';

/** `POST /v1/webhooks/{id}/enable`: a `failing` webhook is active again and its pending deliveries are due now. */
export async function enableWebhook(api: Api, request: Request, id: string): Promise<Response> {
  const principal = await api.authenticate(request);
  if (!(await reenable(api.db, principal.accountId, id))) throw new HistoryError('not_found', `No webhook ${id} for this key's account.`);
  api.webhooks?.wakeSender?.();
  return json(webhookView((await getWebhook(api.db, principal.accountId, id))!, api.chains));
}
