import type { RoundCache, StoredRound } from '../../prices/price-source.js';
import type { Queryable } from './database.js';

/** The server's RoundCache: a feed round is read from its chain once, then from here, for every wallet. */
export function createStoreRoundCache(db: Queryable): RoundCache {
  return {
    async get(feed, rounds) {
      const out = new Map<string, StoredRound>();
      if (rounds.length === 0) return out;
      const rows = await db.query<{ round: string; answer: string; updated_at: number | string }>(
        'SELECT round, answer, updated_at FROM price_rounds WHERE feed = $1 AND round = ANY($2::text[])',
        [feed, [...rounds]],
      );
      for (const r of rows) out.set(r.round, { answer: r.answer, updatedAt: Number(r.updated_at) });
      return out;
    },
    async put(feed, entries) {
      const kept = [...entries].filter(([, v]) => v.answer !== null);
      if (kept.length === 0) return;
      await db.query(
        `INSERT INTO price_rounds (feed, round, answer, updated_at)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::bigint[])
         ON CONFLICT (feed, round) DO NOTHING`,
        [feed, kept.map(([k]) => k), kept.map(([, v]) => v.answer), kept.map(([, v]) => v.updatedAt)],
      );
    },
  };
}
