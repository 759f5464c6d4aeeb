import { HistoryError } from '../../core/errors.js';
import { getWebhook as readWebhook } from '../store/webhooks.js';
import type { Api } from './create-api.js';
import { json } from './respond.js';
import { webhookView } from './webhook-request.js';

/** `GET /v1/webhooks/{id}`: status, last error, pending count. */
export async function getWebhook(api: Api, request: Request, id: string): Promise<Response> {
  const principal = await api.authenticate(request);
  const row = await readWebhook(api.db, principal.accountId, id);
  if (!row) throw new HistoryError('not_found', `No webhook ${id} for this key's account.`);
  return json(webhookView(row, api.chains));
}
