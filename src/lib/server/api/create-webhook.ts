import { HistoryError } from '../../core/errors.js';
import { getOrCreateWallet } from '../store/wallets.js';
import { createWebhook as insertWebhook } from '../store/webhooks.js';
import { newWebhookSecret } from '../webhooks/secrets.js';
import type { Api } from './create-api.js';
import { json } from './respond.js';
import { newWebhookId, parseWebhookBody, webhookView } from './webhook-request.js';

/** `POST /v1/webhooks`: a webhook of the given wallets; its signing secret is in this answer only. */
export async function createWebhook(api: Api, request: Request): Promise<Response> {
  const principal = await api.authenticate(request);
  const hooks = api.webhooks;
  if (!hooks?.sealer)
    throw new HistoryError('not_configured', 'Webhooks need WEBHOOK_SECRET_KEY on this server (its signing secrets are kept encrypted under it).');
  const body = await parseWebhookBody(request, api.chains, hooks);
  const wallets: { id: number; chain: string; address: string }[] = [];
  for (const w of body.wallets) wallets.push({ id: (await getOrCreateWallet(api.db, w.chain, w.stored)).id, chain: w.chain, address: w.stored });
  const secret = newWebhookSecret();
  const row = await insertWebhook(api.db, {
    id: newWebhookId(),
    accountId: principal.accountId,
    url: body.url,
    secretEnc: hooks.sealer.seal(secret),
    wallets,
    max: hooks.maxPerAccount,
  });
  if (!row) throw new HistoryError('rate_limited', `This account already has ${hooks.maxPerAccount} webhooks (MAX_WEBHOOKS_PER_ACCOUNT); delete one first.`);
  hooks.follows?.follow(row.id, row.wallets);
  return json({ ...webhookView(row, api.chains), secret }, { location: `/v1/webhooks/${row.id}` }, 201);
}
