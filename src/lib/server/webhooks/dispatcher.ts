import { validateAddress, type ChainRegistry } from '../../chains/registry.js';
import type { CursorCodec } from '../api/cursor.js';
import type { Database } from '../store/database.js';
import { meterRun } from '../store/usage.js';
import { claimDeliveries, deliveryTrades, settleDelivered, settleFailed, type ClaimedDelivery } from '../store/webhooks.js';
import { deliver, type DeliveryOptions } from './deliver.js';
import type { SecretSealer } from './secrets.js';

/**
 * Sends the outbox (issue 24): claims due deliveries (one in flight per webhook, in seq order,
 * each by one instance), POSTs them, settles them. At least once: a delivery is marked delivered
 * only after a 2xx, so a crash mid-send leaves it claimed until its claim runs out, then another
 * attempt (same `webhook-id`) goes out. Delivered trades are metered once per account.
 */
export interface WebhookDispatcher {
  /** Something was stored: look for due deliveries now rather than at the next poll. */
  wake(): void;
  close(): Promise<void>;
}

export interface WebhookDispatcherParameters {
  db: Database;
  chains: ChainRegistry;
  cursors: CursorCodec;
  sealer: SecretSealer;
  delivery: Pick<DeliveryOptions, 'allowHttp' | 'allowPrivate' | 'lookup' | 'timeoutMs'>;
  /** Polls for due deliveries this often when nothing wakes it (default 1,000 ms). */
  pollMs?: number;
  /** Deliveries (so webhooks) sent at once (default 16). */
  batch?: number;
  /** How long a claim holds; past it, another instance may send the delivery again (default 30 s: three timeouts). */
  claimMs?: number;
  log?: (line: string) => void;
}

const HOUR = 3_600_000;

/**
 * The wait before attempt `attempts + 1` of a delivery first queued `ageMs` ago (decisions.md):
 * exponential from 1 s, capped at a minute during the first hour (a receiver back from a short
 * outage has its deliveries within a minute) and at 15 minutes after; retried for 24 hours at
 * least, after which the webhook is `failing` and keeps its deliveries until enabled again.
 */
export function retryPlan(attempts: number, ageMs: number): { delayMs: number; failing: boolean } {
  const cap = ageMs < HOUR ? 60_000 : 15 * 60_000;
  const delayMs = Math.min(cap, 1_000 * 2 ** Math.min(Math.max(attempts - 1, 0), 20));
  return { delayMs, failing: ageMs >= 24 * HOUR };
}

export function startWebhookDispatcher(p: WebhookDispatcherParameters): WebhookDispatcher {
  const pollMs = p.pollMs ?? 1_000;
  let closed = false;
  let wakeUp: (() => void) | null = null;
  let pending = false;

  /** The delivery's request: its trades as stored, a cursor to read a gap from, the secrets to sign with. */
  async function request(d: ClaimedDelivery) {
    const chain = p.chains.get(d.chain);
    const trades = await deliveryTrades(p.db, d.walletId, d.keys);
    // A backward cursor just above the delivery's newest trade (keys are stored sorted): history
    // read with it starts at that trade, so a receiver that missed a delivery reads the gap from history.
    const cursor = p.cursors.encode({ chain: d.chain, wallet: d.address, key: `${d.keys.at(-1) ?? ''}0`, signature: null });
    const wallet = chain ? validateAddress(chain, d.address).shown : d.address;
    const body = `{"chain":${JSON.stringify(d.chain)},"wallet":${JSON.stringify(wallet)},"seq":${d.seq},"cursor":${JSON.stringify(cursor)},"trades":[${trades}]}`;
    return { url: d.url, id: `msg_${d.webhookId}_${d.seq}`, body, secrets: d.secretsEnc.map((s) => p.sealer.open(s)) };
  }

  async function send(d: ClaimedDelivery): Promise<void> {
    // Whatever fails (a secret that no longer opens, the store, the network) is a failed attempt,
    // with its error and its backoff, never a delivery retried unrecorded at every claim.
    const outcome = await request(d)
      .then((r) => deliver(r, p.delivery))
      .catch((e: Error) => ({ ok: false as const, error: `failed: ${e.message}` }));
    if (outcome.ok) {
      // Metered before it is marked delivered: a crash between the two sends it again, and
      // meter_run counts a range already counted once (the other way round, it went uncounted).
      const keys = d.keys;
      if (keys.length) await meterRun(p.db, { accountId: d.accountId, walletId: d.walletId, lo: keys[0], hi: keys.at(-1)!, count: keys.length, after: null });
      await settleDelivered(p.db, d.webhookId, d.seq);
      return;
    }
    const plan = retryPlan(d.attempts, Date.now() - d.createdAt.getTime());
    await settleFailed(p.db, d.webhookId, d.seq, outcome.error, new Date(Date.now() + plan.delayMs), plan.failing);
  }

  const loop = (async () => {
    while (!closed) {
      let claimed: ClaimedDelivery[] = [];
      try {
        claimed = await claimDeliveries(p.db, p.batch ?? 16, p.claimMs ?? 30_000);
        await Promise.all(claimed.map((d) => send(d).catch((e: Error) => p.log?.(`webhook ${d.webhookId} delivery ${d.seq}: ${e.message}`))));
      } catch (e) {
        if (!closed) p.log?.(`webhook deliveries: ${(e as Error).message}`);
      }
      if (claimed.length || closed) continue;
      if (pending) {
        pending = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, pollMs);
        wakeUp = () => {
          clearTimeout(t);
          resolve();
        };
      });
      wakeUp = null;
    }
  })();

  return {
    wake() {
      pending = true;
      wakeUp?.();
    },
    async close() {
      closed = true;
      wakeUp?.();
      await loop;
    },
  };
}
