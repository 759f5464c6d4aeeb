import type { Database } from '../store/database.js';
import type { LoaderRegistry } from '../sync/loader-registry.js';
import type { Realtime } from '../sync/realtime/create-realtime.js';

/**
 * Webhooks' wallets are followed for as long as the webhook exists (issue 24): their chains'
 * realtime stages wake the walkers, whose commits write the deliveries. Each wallet's history is
 * loaded once (so its walker refreshes from a known head); trades older than the webhook are never
 * announced (the outbox takes only those after its creation).
 */
export interface WebhookFollows {
  follow(webhookId: string, wallets: readonly { chain: string; address: string }[]): void;
  unfollow(webhookId: string): void;
  /**
   * Follows every webhook's wallets as stored, and stops following deleted ones: at start, and
   * every 30 s on instances whose API is elsewhere (ROLE=worker learns of webhooks this way).
   */
  sync(): Promise<number>;
  close(): void;
}

export function createWebhookFollows(db: Database, loaders: LoaderRegistry, realtime: Realtime): WebhookFollows {
  const held = new Map<string, (() => void)[]>();
  const api: WebhookFollows = {
    follow(webhookId, wallets) {
      const offs = held.get(webhookId) ?? [];
      for (const w of wallets) {
        offs.push(realtime.follow(w.chain, w.address));
        void loaders
          .get(w.chain, w.address)
          .then((l) => l.wantAll())
          .catch(() => {});
      }
      held.set(webhookId, offs);
    },
    unfollow(webhookId) {
      for (const off of held.get(webhookId) ?? []) off();
      held.delete(webhookId);
    },
    async sync() {
      const rows = await db.query<{ webhook_id: string; chain: string; address: string }>('SELECT webhook_id, chain, address FROM webhook_wallets');
      const by = new Map<string, { chain: string; address: string }[]>();
      for (const r of rows) (by.get(r.webhook_id) ?? by.set(r.webhook_id, []).get(r.webhook_id)!).push({ chain: r.chain, address: r.address });
      for (const [id, wallets] of by) if (!held.has(id)) api.follow(id, wallets);
      for (const id of [...held.keys()]) if (!by.has(id)) api.unfollow(id);
      return by.size;
    },
    close() {
      for (const id of [...held.keys()]) api.unfollow(id);
    },
  };
  return api;
}
