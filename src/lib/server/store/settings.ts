import { randomBytes } from 'node:crypto';
import type { Queryable } from './database.js';

/**
 * The cursor HMAC secret: CURSOR_SECRET when set, else one generated on first start and kept in
 * the store, so cursors stay valid across restarts.
 */
export async function resolveCursorSecret(db: Queryable, configured?: string): Promise<string> {
  if (configured) return configured;
  const fresh = randomBytes(32).toString('base64url');
  await db.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', ['cursor_secret', fresh]);
  const rows = await db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', ['cursor_secret']);
  return rows[0].value;
}
