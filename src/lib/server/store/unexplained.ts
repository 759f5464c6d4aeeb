import type { Queryable } from './database.js';

/** A run of stored unexplained transactions, already joined as JSON array elements (as trades.ts's TradeRun). */
export interface UnexplainedRun {
  json: string;
  count: number;
  /** Key (position) and signature of the oldest one: the next page starts below it. */
  lo: string;
  loSignature: string;
}

/** Up to `max` unexplained transactions strictly below key `below`, newest first, joined by the database. */
/** `max` null: all of them. */
export async function readUnexplained(db: Queryable, walletId: number, below: string, max: number | null): Promise<UnexplainedRun | null> {
  const rows = await db.query<{ json: string | null; count: number; lo: string | null; lo_signature: string | null }>(
    `SELECT string_agg(json, ',' ORDER BY k DESC) AS json, count(*)::int AS count, min(k) AS lo,
            (array_agg(signature ORDER BY k ASC))[1] AS lo_signature
       FROM (SELECT k, signature, json FROM unexplained WHERE wallet_id = $1 AND k < $2 ORDER BY k DESC LIMIT $3) page`,
    [walletId, below, max],
  );
  const r = rows[0];
  if (!r || !r.json || Number(r.count) === 0) return null;
  return { json: r.json, count: Number(r.count), lo: r.lo!, loSignature: r.lo_signature! };
}

/** Whether any unexplained transaction is stored below key `below`. */
export async function hasUnexplainedBelow(db: Queryable, walletId: number, below: string): Promise<boolean> {
  const rows = await db.query<{ one: number }>('SELECT 1 AS one FROM unexplained WHERE wallet_id = $1 AND k < $2 LIMIT 1', [walletId, below]);
  return rows.length > 0;
}
