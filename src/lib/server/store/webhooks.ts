import type { Database, Queryable } from './database.js';

/**
 * Webhooks and their outbox (migration 12; issue 24). Deliveries are written by the statement that
 * stores the trades (store/trades.ts); here they are claimed, one in flight per webhook in seq
 * order, by exactly one instance (`FOR UPDATE SKIP LOCKED`, then a claim that runs out, so a
 * crashed sender's delivery is sent again by another), and settled.
 */
export interface WebhookRow {
  id: string;
  accountId: number;
  url: string;
  status: 'active' | 'failing';
  createdAt: string;
  lastError: string | null;
  lastErrorAt: string | null;
  pending: number;
  wallets: { chain: string; address: string }[];
}

interface RawWebhook {
  id: string;
  account_id: number;
  url: string;
  status: 'active' | 'failing';
  created_at: Date | string;
  last_error: string | null;
  last_error_at: Date | string | null;
  pending: number;
  wallets: { chain: string; address: string }[] | string;
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function toRow(r: RawWebhook): WebhookRow {
  return {
    id: r.id,
    accountId: Number(r.account_id),
    url: r.url,
    status: r.status,
    createdAt: iso(r.created_at)!,
    lastError: r.last_error,
    lastErrorAt: iso(r.last_error_at),
    pending: Number(r.pending),
    wallets: typeof r.wallets === 'string' ? JSON.parse(r.wallets) : r.wallets,
  };
}

const SELECT_WEBHOOK = `SELECT h.id, h.account_id, h.url, h.status, h.created_at, h.last_error, h.last_error_at,
    (SELECT count(*)::int FROM webhook_deliveries d WHERE d.webhook_id = h.id AND d.delivered_at IS NULL) AS pending,
    (SELECT coalesce(json_agg(json_build_object('chain', ww.chain, 'address', ww.address) ORDER BY ww.wallet_id), '[]'::json)
       FROM webhook_wallets ww WHERE ww.webhook_id = h.id) AS wallets
  FROM webhooks h`;

/**
 * Creates a webhook of these wallets unless the account already has `max`: one statement, so two
 * creations at once cannot both pass the count. Null when the account is at its limit.
 */
export async function createWebhook(
  db: Database,
  w: { id: string; accountId: number; url: string; secretEnc: string; wallets: { id: number; chain: string; address: string }[]; max: number },
): Promise<WebhookRow | null> {
  return db.transaction(async (tx) => {
    // The account's row, locked: creations of one account queue here, so the count holds.
    await tx.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [w.accountId]);
    const made = await tx.query<{ id: string }>(
      `INSERT INTO webhooks (id, account_id, url, secret_enc)
       SELECT $1, $2, $3, $4 WHERE (SELECT count(*) FROM webhooks WHERE account_id = $2) < $5 RETURNING id`,
      [w.id, w.accountId, w.url, w.secretEnc, w.max],
    );
    if (!made.length) return null;
    await tx.query(
      'INSERT INTO webhook_wallets (webhook_id, wallet_id, chain, address) SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[]) ON CONFLICT DO NOTHING',
      [w.id, w.wallets.map((x) => x.id), w.wallets.map((x) => x.chain), w.wallets.map((x) => x.address)],
    );
    const rows = await tx.query<RawWebhook>(`${SELECT_WEBHOOK} WHERE h.id = $1`, [w.id]);
    return toRow(rows[0]);
  });
}

export async function listWebhooks(db: Queryable, accountId: number): Promise<WebhookRow[]> {
  return (await db.query<RawWebhook>(`${SELECT_WEBHOOK} WHERE h.account_id = $1 ORDER BY h.created_at, h.id`, [accountId])).map(toRow);
}

export async function getWebhook(db: Queryable, accountId: number, id: string): Promise<WebhookRow | null> {
  const rows = await db.query<RawWebhook>(`${SELECT_WEBHOOK} WHERE h.account_id = $1 AND h.id = $2`, [accountId, id]);
  return rows[0] ? toRow(rows[0]) : null;
}

/** Deletes a webhook and its pending deliveries; the wallets it followed, if no other webhook has them. */
export async function deleteWebhook(db: Queryable, accountId: number, id: string): Promise<{ chain: string; address: string }[] | null> {
  const rows = await db.query<{ wallets: { chain: string; address: string }[] | string | null }>(
    `WITH gone AS (DELETE FROM webhooks WHERE account_id = $1 AND id = $2 RETURNING id)
     SELECT (SELECT json_agg(json_build_object('chain', ww.chain, 'address', ww.address)) FROM webhook_wallets ww WHERE ww.webhook_id = $2) AS wallets
     FROM gone`,
    [accountId, id],
  );
  if (!rows.length) return null;
  const w = rows[0].wallets;
  return w === null ? [] : typeof w === 'string' ? JSON.parse(w) : w;
}

/** Back to `active` with its pending deliveries due now (a receiver that was down is back). */
export async function enableWebhook(db: Queryable, accountId: number, id: string): Promise<boolean> {
  const rows = await db.query(
    `WITH h AS (UPDATE webhooks SET status = 'active' WHERE account_id = $1 AND id = $2 RETURNING id)
     UPDATE webhook_deliveries d SET next_attempt_at = now(), attempts = 0, created_at = now() FROM h
     WHERE d.webhook_id = h.id AND d.delivered_at IS NULL RETURNING 1`,
    [accountId, id],
  );
  if (rows.length) return true;
  return (await db.query('SELECT 1 FROM webhooks WHERE account_id = $1 AND id = $2', [accountId, id])).length > 0;
}

/** A new secret; the old one keeps signing beside it for 24 h. */
export async function rotateWebhook(db: Queryable, accountId: number, id: string, secretEnc: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webhooks SET old_secret_enc = secret_enc, old_secret_until = now() + interval '24 hours', secret_enc = $3
     WHERE account_id = $1 AND id = $2 RETURNING 1`,
    [accountId, id, secretEnc],
  );
  return rows.length > 0;
}

/** A delivery claimed for sending, with what its POST needs. */
export interface ClaimedDelivery {
  webhookId: string;
  seq: number;
  accountId: number;
  url: string;
  secretsEnc: string[];
  walletId: number;
  chain: string;
  address: string;
  keys: string[];
  attempts: number;
  createdAt: Date;
}

/**
 * Claims up to `max` due deliveries, each the oldest undelivered of an active webhook (so one is
 * in flight per webhook, in seq order), for `claimMs`; rows another instance is claiming are skipped.
 */
export async function claimDeliveries(db: Queryable, max: number, claimMs: number): Promise<ClaimedDelivery[]> {
  const rows = await db.query<{
    webhook_id: string;
    seq: string;
    account_id: number;
    url: string;
    secret_enc: string;
    old_secret_enc: string | null;
    old_valid: boolean;
    wallet_id: number;
    chain: string;
    address: string;
    keys: string[];
    attempts: number;
    created_at: Date | string;
  }>(
    `UPDATE webhook_deliveries d SET claimed_until = now() + $2 * interval '1 millisecond', attempts = d.attempts + 1
     FROM webhooks h, webhook_wallets w
     WHERE h.id = d.webhook_id AND w.webhook_id = d.webhook_id AND w.wallet_id = d.wallet_id AND (d.webhook_id, d.seq) IN (
       SELECT x.webhook_id, x.seq FROM webhook_deliveries x JOIN webhooks y ON y.id = x.webhook_id
       WHERE x.delivered_at IS NULL AND y.status = 'active' AND x.next_attempt_at <= now()
         -- An account whose keys are all revoked has its webhooks paused (deliveries kept).
         AND EXISTS (SELECT 1 FROM api_keys k WHERE k.account_id = y.account_id AND k.revoked_at IS NULL)
         AND (x.claimed_until IS NULL OR x.claimed_until < now())
         AND x.seq = (SELECT min(z.seq) FROM webhook_deliveries z WHERE z.webhook_id = x.webhook_id AND z.delivered_at IS NULL)
       ORDER BY x.next_attempt_at LIMIT $1
       FOR UPDATE OF x SKIP LOCKED)
     RETURNING d.webhook_id, d.seq, h.account_id, h.url, h.secret_enc, h.old_secret_enc, (h.old_secret_until > now()) AS old_valid,
       d.wallet_id, w.chain, w.address, d.keys, d.attempts, d.created_at`,
    [max, claimMs],
  );
  return rows.map((r) => ({
    webhookId: r.webhook_id,
    seq: Number(r.seq),
    accountId: Number(r.account_id),
    url: r.url,
    secretsEnc: r.old_valid && r.old_secret_enc ? [r.secret_enc, r.old_secret_enc] : [r.secret_enc],
    walletId: Number(r.wallet_id),
    chain: r.chain,
    address: r.address,
    keys: r.keys,
    attempts: Number(r.attempts),
    createdAt: new Date(r.created_at),
  }));
}

export async function settleDelivered(db: Queryable, webhookId: string, seq: number): Promise<void> {
  await db.query('UPDATE webhook_deliveries SET delivered_at = now(), claimed_until = NULL, last_error = NULL WHERE webhook_id = $1 AND seq = $2', [
    webhookId,
    seq,
  ]);
}

/**
 * A failed attempt: the next one at `nextAttemptAt`; past the retry window the webhook is `failing`
 * (deliveries kept). An attempt that outlived its claim while another instance delivered the same
 * delivery changes nothing: a delivered row is settled for good.
 */
export async function settleFailed(db: Queryable, webhookId: string, seq: number, error: string, nextAttemptAt: Date, failing: boolean): Promise<void> {
  await db.query(
    `WITH d AS (UPDATE webhook_deliveries SET claimed_until = NULL, last_error = $3, next_attempt_at = $4
                WHERE webhook_id = $1 AND seq = $2 AND delivered_at IS NULL RETURNING 1)
     UPDATE webhooks SET last_error = $3, last_error_at = now(), status = CASE WHEN $5 THEN 'failing' ELSE status END
     WHERE id = $1 AND EXISTS (SELECT 1 FROM d)`,
    [webhookId, seq, error, nextAttemptAt.toISOString(), failing],
  );
}

/** The trades of a delivery as stored now, oldest first with legs in order (a trade re-decoded away is gone). */
export async function deliveryTrades(db: Queryable, walletId: number, keys: readonly string[]): Promise<string> {
  const rows = await db.query<{ json: string | null }>(
    `SELECT string_agg(json, ',' ORDER BY split_part(k, ':', 1), k DESC) AS json FROM trades WHERE wallet_id = $1 AND k = ANY($2::text[])`,
    [walletId, [...keys]],
  );
  return rows[0]?.json ?? '';
}
