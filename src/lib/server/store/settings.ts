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
 * Values a chain source looks up once and keeps, stored in `settings` as `<kind>:<chain>:<key>`
 * (JSON), so a restart, or another instance on the same database, does not look them up again.
 */
export function createStoreKeyedCache<V>(db: Queryable, kind: string, accept: (v: unknown) => v is V): ChainKeyedCache<V> {
  return {
    async get(chain, names) {
      const prefix = `${kind}:${chain}:`;
      const rows = await db.query<{ key: string; value: string }>('SELECT key, value FROM settings WHERE key = ANY($1)', [names.map((n) => prefix + n)]);
      const out = new Map<string, V>();
      for (const r of rows) {
        let v: unknown;
        try {
          v = JSON.parse(r.value);
        } catch {
          continue;
        }
        if (accept(v)) out.set(r.key.slice(prefix.length), v);
      }
      return out;
    },
    async put(chain, entries) {
      for (const [name, v] of entries) {
        await db.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [
          `${kind}:${chain}:${name}`,
          JSON.stringify(v),
        ]);
      }
    },
  };
}

/**
 * Numbers a chain source learns of its endpoint (the largest eth_getLogs range a provider takes),
 * kept as `hint:<chain>:<name>`, so a restart does not pay to learn them again.
 */
export const createStoreHintCache = (db: Queryable): ChainKeyedCache<number> =>
  createStoreKeyedCache(db, 'hint', (v): v is number => typeof v === 'number' && Number.isFinite(v));

/**
 * The decoder version this instance's source of `chain` decodes with, kept as
 * `decoder_version:<chain>` (the highest any instance published), so API-only instances, which
 * build no source, can tell a wallet stored by an older decoder (wallets.ts, askRedecode).
 */
export async function publishDecoderVersion(db: Queryable, chain: string, version: number): Promise<void> {
  await db.query(
    `INSERT INTO settings (key, value) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET value = greatest(settings.value::int, EXCLUDED.value::int)::text`,
    [`decoder_version:${chain}`, String(version)],
  );
}
