import { randomBytes } from 'node:crypto';
import { HistoryError } from '../../core/errors.js';
import { validateAddress, type ChainRegistry } from '../../chains/registry.js';
import type { WebhookRow } from '../store/webhooks.js';
import { addressesOf, urlProblem } from '../webhooks/deliver.js';
import { isRefusedAddress } from '../webhooks/address-policy.js';
import type { SecretSealer } from '../webhooks/secrets.js';

/** What the webhook operations share (decisions.md "Following a wallet live"). */
export interface WebhookSettings {
  /** Null without WEBHOOK_SECRET_KEY: webhooks cannot be created (`501 not_configured`). */
  sealer: SecretSealer | null;
  allowHttp: boolean;
  allowPrivate: boolean;
  maxPerAccount: number;
  lookup: (host: string) => Promise<string[]>;
}

export const MAX_WALLETS_PER_WEBHOOK = 1_000;

/** A webhook as the API shows it (never its secret). */
export function webhookView(w: WebhookRow, chains: ChainRegistry) {
  return {
    id: w.id,
    url: w.url,
    status: w.status,
    wallets: w.wallets.map((x) => {
      const chain = chains.get(x.chain);
      return { chain: x.chain, address: chain ? validateAddress(chain, x.address).shown : x.address };
    }),
    pending: w.pending,
    lastError: w.lastError,
    lastErrorAt: w.lastErrorAt,
    createdAt: w.createdAt,
  };
}

export const newWebhookId = () => `wh_${randomBytes(12).toString('base64url')}`;

/**
 * The body of `POST /v1/webhooks`: `{ url, wallets: [{ chain, address }] }`, checked at the
 * boundary: the URL's form, and its host when it is a literal address or a name that resolves now
 * (one that does not resolve yet is accepted: each attempt checks again); 1 to 1,000 wallets, each
 * valid on its chain.
 */
export async function parseWebhookBody(request: Request, chains: ChainRegistry, s: WebhookSettings) {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new HistoryError('invalid_request', 'The body must be JSON: {"url": "https://...", "wallets": [{"chain": "sol", "address": "..."}]}.');
  }
  const b = body as { url?: unknown; wallets?: unknown };
  if (!b || typeof b !== 'object' || typeof b.url !== 'string') throw new HistoryError('invalid_parameter', 'url must be a string.');
  const problem = urlProblem(b.url, s.allowHttp);
  if (problem) throw new HistoryError('invalid_parameter', `${problem}.`);
  if (!s.allowPrivate) {
    const addresses = await addressesOf(new URL(b.url), s.lookup).catch(() => [] as string[]);
    if (addresses.some(isRefusedAddress))
      throw new HistoryError('invalid_parameter', 'url points to a loopback, private, link-local or otherwise refused address.');
  }
  if (!Array.isArray(b.wallets) || b.wallets.length === 0 || b.wallets.length > MAX_WALLETS_PER_WEBHOOK) {
    throw new HistoryError('invalid_parameter', `wallets must be a list of 1 to ${MAX_WALLETS_PER_WEBHOOK} {chain, address}.`);
  }
  const wallets = b.wallets.map((w: unknown, i: number) => {
    const { chain: slug, address } = (w ?? {}) as { chain?: unknown; address?: unknown };
    if (typeof slug !== 'string' || typeof address !== 'string')
      throw new HistoryError('invalid_parameter', `wallets[${i}] must be {chain, address}, both strings.`);
    const chain = chains.get(slug);
    if (!chain) throw new HistoryError('unknown_chain', `wallets[${i}]: unknown chain "${slug}".`);
    return { chain: chain.slug, stored: validateAddress(chain, address).stored };
  });
  return { url: b.url, wallets };
}
