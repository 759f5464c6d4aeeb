import { HistoryError } from '../../core/errors.js';
import { getWebhook, rotateWebhook as replaceSecret } from '../store/webhooks.js';
import { newWebhookSecret } from '../webhooks/secrets.js';
import type { Api } from './create-api.js';
import { json } from './respond.js';
import { webhookView } from './webhook-request.js';

/** `POST /v1/webhooks/{id}/rotate`: a new signing secret (in this answer only); the old one also signs for 24 h. */
export async function rotateWebhook(api: Api, request: Request, id: string): Promise<Response> {
  const principal = await api.authenticate(request);
  const sealer = api.webhooks?.sealer;
  if (!sealer) throw new HistoryError('not_configured', 'Webhooks need WEBHOOK_SECRET_KEY on this server.');
  const secret = newWebhookSecret();
  if (!(await replaceSecret(api.db, principal.accountId, id, sealer.seal(secret))))
    throw new HistoryError('not_found', `No webhook ${id} for this key's account.`);
  return json({ ...webhookView((await getWebhook(api.db, principal.accountId, id))!, api.chains), secret });
}
