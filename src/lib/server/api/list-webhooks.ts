import { listWebhooks as readWebhooks } from '../store/webhooks.js';
import type { Api } from './create-api.js';
import { json } from './respond.js';
import { webhookView } from './webhook-request.js';

/** `GET /v1/webhooks`: the account's webhooks with their status and pending deliveries. */
export async function listWebhooks(api: Api, request: Request): Promise<Response> {
  const principal = await api.authenticate(request);
  const rows = await readWebhooks(api.db, principal.accountId);
  return json({ webhooks: rows.map((w) => webhookView(w, api.chains)) });
}
