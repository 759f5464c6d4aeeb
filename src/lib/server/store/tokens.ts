import type { TokenCache, TokenInfo } from '../../core/chain-source.js';
import type { Queryable } from './database.js';

/** The server's TokenCache: a mint's symbol and decimals are looked up on chain once, then read from here. */
export function createStoreTokenCache(db: Queryable): TokenCache {
  return {
    async get(chain, mints) {
      const out = new Map<string, TokenInfo>();
      if (mints.length === 0) return out;
      const rows = await db.query<{ mint: string; symbol: string; decimals: number }>(
        'SELECT mint, symbol, decimals FROM tokens WHERE chain = $1 AND mint = ANY($2::text[])',
        [chain, [...mints]],
      );
      for (const r of rows) out.set(r.mint, { symbol: r.symbol, decimals: r.decimals });
      return out;
    },
    async put(chain, entries) {
      if (entries.size === 0) return;
      const mints = [...entries.keys()];
      await db.query(
        `INSERT INTO tokens (chain, mint, symbol, decimals)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[])
         ON CONFLICT (chain, mint) DO UPDATE SET symbol = EXCLUDED.symbol, decimals = EXCLUDED.decimals`,
        [chain, mints, mints.map((m) => entries.get(m)!.symbol), mints.map((m) => entries.get(m)!.decimals)],
      );
    },
  };
}
