import { randomBytes } from 'node:crypto';
import type { ChainKeyedCache } from '../../core/chain-source.js';
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

/**
 * Numbers a chain source learns of its endpoint (the largest eth_getLogs range a provider takes),
 * kept in `settings` as `hint:<chain>:<name>`, so a restart does not pay to learn them again.
 */
export function createStoreHintCache(db: Queryable): ChainKeyedCache<number> {
  return {
    async get(chain, names) {
      const keys = names.map((n) => `hint:${chain}:${n}`);
      const rows = await db.query<{ key: string; value: string }>('SELECT key, value FROM settings WHERE key = ANY($1)', [keys]);
      const out = new Map<string, number>();
      for (const r of rows) {
        const v = Number(r.value);
        if (Number.isFinite(v)) out.set(r.key.slice(`hint:${chain}:`.length), v);
      }
      return out;
    },
    async put(chain, entries) {
      for (const [name, v] of entries) {
        await db.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [
          `hint:${chain}:${name}`,
          String(v),
        ]);
      }
    },
  };
}
