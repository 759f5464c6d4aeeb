import { createHash, randomBytes } from 'node:crypto';
import { HistoryError } from '../../core/errors.js';
import type { Queryable } from './database.js';

/** Keys are stored only as SHA-256 hashes; the plain key is shown once, at creation. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** `wth_` + 32 random bytes in base64url: 256 bits, not guessable, easy to spot in a leaked log. */
export function generateKey(): string {
  return `wth_${randomBytes(32).toString('base64url')}`;
}

export interface ApiKeyInfo {
  id: number;
  account: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

async function ensureAccount(db: Queryable, name: string): Promise<number> {
  const rows = await db.query<{ id: number }>(`INSERT INTO accounts (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id`, [
    name,
  ]);
  return rows[0].id;
}

/** Stores `key` (or a new one) for `account`, creating the account if needed. Returns the plain key. */
export async function createKey(db: Queryable, account: string, key: string = generateKey()): Promise<{ key: string; id: number }> {
  const accountId = await ensureAccount(db, account);
  const rows = await db.query<{ id: number }>(
    `INSERT INTO api_keys (account_id, key_hash, prefix) VALUES ($1, $2, $3)
     ON CONFLICT (key_hash) DO UPDATE SET key_hash = EXCLUDED.key_hash RETURNING id`,
    // 12 characters (48 random bits after `wth_`) keep prefixes distinct across millions of keys.
    [accountId, hashKey(key), key.slice(0, 12)],
  );
  return { key, id: rows[0].id };
}

export async function listKeys(db: Queryable): Promise<ApiKeyInfo[]> {
  const rows = await db.query<{ id: number; name: string; prefix: string; created_at: Date | string; revoked_at: Date | string | null }>(
    `SELECT k.id, a.name, k.prefix, k.created_at, k.revoked_at FROM api_keys k JOIN accounts a ON a.id = k.account_id ORDER BY k.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    account: r.name,
    prefix: r.prefix,
    createdAt: new Date(r.created_at).toISOString(),
    revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at).toISOString(),
  }));
}

/**
 * Revokes by id or by the key's shown prefix; returns how many keys were revoked. A prefix that
 * names several live keys revokes none (it could be another account's): use the id then.
 */
export async function revokeKey(db: Queryable, idOrPrefix: string): Promise<number> {
  const byId = /^\d+$/.test(idOrPrefix);
  if (!byId) {
    const matches = await db.query('SELECT id FROM api_keys WHERE revoked_at IS NULL AND prefix = $1', [idOrPrefix]);
    if (matches.length > 1) throw new HistoryError('invalid_request', `"${idOrPrefix}" names ${matches.length} keys; revoke by id.`);
  }
  const rows = await db.query(`UPDATE api_keys SET revoked_at = now() WHERE revoked_at IS NULL AND ${byId ? 'id = $1::int' : 'prefix = $1'} RETURNING id`, [
    idOrPrefix,
  ]);
  return rows.length;
}

export async function countKeys(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys');
  return Number(rows[0].n);
}

/** The account of a live key, or null for an unknown or revoked one. */
export async function findAccountByKey(db: Queryable, key: string): Promise<{ accountId: number; account: string; keyId: number } | null> {
  const rows = await db.query<{ account_id: number; name: string; id: number }>(
    `SELECT k.account_id, a.name, k.id FROM api_keys k JOIN accounts a ON a.id = k.account_id
     WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [hashKey(key)],
  );
  return rows[0] ? { accountId: rows[0].account_id, account: rows[0].name, keyId: Number(rows[0].id) } : null;
}

/** Whether a key is still valid (a follow stream asks now and then: revoking a key ends its streams). */
export async function isKeyActive(db: Queryable, keyId: number): Promise<boolean> {
  return (await db.query('SELECT 1 FROM api_keys WHERE id = $1 AND revoked_at IS NULL', [keyId])).length > 0;
}

export async function accountUsage(db: Queryable, accountId: number): Promise<number> {
  const rows = await db.query<{ usage_trades: number | string }>('SELECT usage_trades FROM accounts WHERE id = $1', [accountId]);
  return Number(rows[0]?.usage_trades ?? 0);
}
