import { serializeUnexplained, type SourceUnexplained } from '../../core/activity.js';
import { serializeTrade, tradeKey, type SourceTrade } from '../../core/trade.js';
import type { Queryable } from './database.js';
import type { WalletState } from './wallets.js';
import { WALLET_CHANNEL, type LeaseFence } from './leases.js';
import { HistoryError } from '../../core/errors.js';

/** A key above every trade key (keys start with a digit): "read from the newest trade". */
export const TOP_KEY = '~';

/**
 * Stores a batch and the wallet state it moves the wallet to, in one statement: the trades go in
 * with unnest arrays (one round trip, about 10x faster than row by row on PGlite), and the same
 * statement saves the state and adds the new rows to trade_count. One statement is its own
 * transaction: BEGIN, insert, update and COMMIT were four round trips, 3-8 ms of the serving
 * thread on PGlite before a cold wallet's first line could be read. A trade already stored (same
 * signature and leg) is left as it is. Returns how many rows were new and the wallet's stored
 * count after it. `loadAll` is not written here (setLoadAll is).
 *
 * `unexplained`: the batch's unexplained transactions (core/activity.ts), written by the same
 * statement (one already stored is left as it is) and counted in `unexplained_count`.
 *
 * `decoderVersion`: the version the trades were decoded with. A wallet with nothing stored yet
 * (no trade, no unexplained transaction) takes it: there is nothing older to decode again;
 * otherwise the wallet's version stays, and only a re-decode's end moves it (redecode.ts).
 */
export async function storeBatch(
  db: Queryable,
  state: WalletState,
  trades: readonly SourceTrade[],
  fence?: LeaseFence,
  decoderVersion?: number,
  unexplained: readonly SourceUnexplained[] = [],
): Promise<{ inserted: number; tradeCount: number; decoderVersion: number; unexplainedCount: number; announced: number }> {
  const { ks: uks, sigs: usigs, jsons: ujsons } = unexplainedRows(unexplained);
  const { ks, sigs, legs, jsons } = tradeRows(trades);
  const params: unknown[] = [
    state.id,
    ks,
    sigs,
    legs,
    jsons,
    state.headMarker,
    state.tailPosition,
    state.complete,
    state.firstTrade,
    state.headCheckedAt,
    decoderVersion ?? null,
    uks,
    usigs,
    ujsons,
    trades.map((t) => t.blockTime),
  ];
  // Several instances on one database: the write counts only if this walker still holds the
  // wallet's lease in the generation it took (renewed by the same statement), and it wakes the
  // instances following the wallet (NOTIFY, delivered at commit).
  const leased = fence !== undefined;
  if (fence) params.push(fence.holder, fence.generation, fence.ttlMs);
  const rows = await db.query<{ n: number; trade_count: number; decoder_version: number; unexplained_count: number; announced: number }>(
    `WITH ${
      leased
        ? `lease AS (UPDATE wallet_leases SET expires_at = now() + $18 * interval '1 millisecond'
                     WHERE wallet_id = $1 AND holder = $16 AND generation = $17 RETURNING 1),`
        : ''
    }
     ins AS (
       INSERT INTO trades (wallet_id, k, signature, leg, json)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[], $5::text[])${leased ? ' WHERE EXISTS (SELECT 1 FROM lease)' : ''}
       ON CONFLICT (wallet_id, signature, leg) DO NOTHING RETURNING k),
     n AS (SELECT count(*)::int AS n FROM ins),
     -- The outbox (issue 24): each webhook of the wallet gets one delivery of the trades new here
     -- that came after it was created, with the next seq of its own (taken here: gapless). Block
     -- times have whole seconds: a trade in the second the webhook was made counts as after it.
     fresh AS (SELECT i.k, b.t FROM ins i JOIN unnest($2::text[], $15::timestamptz[]) AS b(k, t) ON b.k = i.k),
     hooks AS (
       UPDATE webhooks h SET next_seq = h.next_seq + 1 FROM webhook_wallets ww
       WHERE ww.webhook_id = h.id AND ww.wallet_id = $1 AND EXISTS (SELECT 1 FROM fresh f WHERE f.t >= date_trunc('second', h.created_at))
       RETURNING h.id, h.next_seq - 1 AS seq, h.created_at),
     outbox AS (
       INSERT INTO webhook_deliveries (webhook_id, seq, wallet_id, keys)
       SELECT h.id, h.seq, $1, ARRAY(SELECT f.k FROM fresh f WHERE f.t >= date_trunc('second', h.created_at) ORDER BY f.k) FROM hooks h
       RETURNING 1),
     uins AS (
       INSERT INTO unexplained (wallet_id, k, signature, json)
       SELECT $1, * FROM unnest($12::text[], $13::text[], $14::text[])${leased ? ' WHERE EXISTS (SELECT 1 FROM lease)' : ''}
       ON CONFLICT DO NOTHING RETURNING 1)
     UPDATE wallets SET head_marker = $6, tail_position = $7, complete = $8, trade_count = trade_count + (SELECT n FROM n),
       unexplained_count = unexplained_count + (SELECT count(*)::int FROM uins),
       first_trade = $9, head_checked_at = $10, updated_at = now(), failures = 0, retry_at = NULL,
       decoder_version = CASE WHEN trade_count = 0 AND unexplained_count = 0 AND $11::int IS NOT NULL THEN $11::int ELSE decoder_version END
     WHERE id = $1${leased ? ' AND EXISTS (SELECT 1 FROM lease)' : ''}
     RETURNING (SELECT n FROM n) AS n, trade_count, decoder_version, unexplained_count, (SELECT count(*)::int FROM outbox) AS announced${leased ? `, pg_notify('${WALLET_CHANNEL}', id::text)::text AS notified` : ''}`,
    params,
  );
  if (rows.length !== 1) {
    if (fence) throw new HistoryError('lease_lost', `wallet ${state.id}: lease generation ${fence.generation} was taken over; the write was refused`);
    throw new Error(`wallet ${state.id} is not in the store`);
  }
  return {
    inserted: Number(rows[0].n),
    tradeCount: Number(rows[0].trade_count),
    decoderVersion: Number(rows[0].decoder_version),
    unexplainedCount: Number(rows[0].unexplained_count),
    /** Webhook deliveries the statement wrote (the outbox). */
    announced: Number(rows[0].announced),
  };
}

/** Trades as the columns of their rows (key, signature, leg, JSON), for one unnest insert. */
export function tradeRows(trades: readonly SourceTrade[]): { ks: string[]; sigs: string[]; legs: number[]; jsons: string[] } {
  return {
    ks: trades.map((t) => tradeKey(t.position, t.leg)),
    sigs: trades.map((t) => t.signature),
    legs: trades.map((t) => t.leg),
    jsons: trades.map(serializeTrade),
  };
}

/** Unexplained transactions as the columns of their rows (key, signature, JSON), for one unnest insert. */
export function unexplainedRows(list: readonly SourceUnexplained[]): { ks: string[]; sigs: string[]; jsons: string[] } {
  return { ks: list.map((u) => unexplainedKey(u.position)), sigs: list.map((u) => u.signature), jsons: list.map(serializeUnexplained) };
}

/** The store's order key of an unexplained transaction: its position (descending is newest first). */
export function unexplainedKey(position: string): string {
  if (!/^[0-9][0-9.]*$/.test(position)) throw new RangeError(`position must be digits and dots: ${position}`);
  return position;
}

/** A run of stored trades, already joined as JSON array elements. */
export interface TradeRun {
  /** `{...},{...}`: the trades' JSON joined with commas, ready to sit inside `[` `]`. */
  json: string;
  count: number;
  /** Key of the first (newest) and last (oldest) trade of the run. */
  hi: string;
  lo: string;
  /** Signature of the last trade (it goes into the cursor). */
  loSignature: string;
}

/**
 * Up to `max` trades strictly below `below`, newest first, as one string built by the database
 * (string_agg): one row per read instead of one per trade, which is what makes PGlite fast here.
 */
export async function readRun(db: Queryable, walletId: number, below: string, max: number, atLeast = '', atMost = TOP_KEY): Promise<TradeRun | null> {
  const rows = await db.query<{ json: string | null; count: number; hi: string; lo: string; lo_sig: string }>(
    // The aggregate's ORDER BY matches the subquery's, so PostgreSQL 16+ uses the presorted rows.
    `SELECT string_agg(json, ',' ORDER BY k DESC) AS json, count(*)::int AS count, max(k) AS hi, min(k) AS lo,
            (SELECT signature FROM trades x WHERE x.wallet_id = $1 AND x.k = min(t.k)) AS lo_sig
     FROM (SELECT k, json FROM trades WHERE wallet_id = $1 AND k < $2 AND k >= $3 AND k <= $5 ORDER BY k DESC LIMIT $4) t`,
    [walletId, below, atLeast, max, atMost],
  );
  const r = rows[0];
  if (!r || !r.count) return null;
  return { json: r.json ?? '', count: Number(r.count), hi: r.hi, lo: r.lo, loSignature: r.lo_sig };
}

/**
 * About `max` trades strictly above `above` and at most `atMost`, oldest first (an export's and a
 * live line's order): whole transactions, a transaction's legs in leg order (leg 0 first), so a
 * read never splits one. Keys invert the leg (they sort newest first), hence the order by the
 * position part, then the key descending. `keys` follow the trades' order; `hi` is the largest.
 */
export async function readRunUp(
  db: Queryable,
  walletId: number,
  above: string,
  max: number,
  atMost = TOP_KEY,
): Promise<(TradeRun & { keys: string[] }) | null> {
  const rows = await db.query<{ json: string | null; count: number; hi: string; lo: string; keys: string }>(
    // Keys contain no comma (digits, dots and a colon): one joined string splits back exactly.
    // A position's keys are `position:leg`, and ';' sorts right after ':', so `k < position || ';'`
    // takes in the rest of the last transaction the limit reached (positions have a fixed width).
    `WITH cut AS (SELECT k FROM trades WHERE wallet_id = $1 AND k > $2 AND k <= $4 ORDER BY k LIMIT $3),
          last AS (SELECT split_part(max(k), ':', 1) || ';' AS bound FROM cut)
     SELECT string_agg(json, ',' ORDER BY split_part(k, ':', 1), k DESC) AS json, count(*)::int AS count, max(k) AS hi, min(k) AS lo,
            string_agg(k, ',' ORDER BY split_part(k, ':', 1), k DESC) AS keys
     FROM trades WHERE wallet_id = $1 AND k > $2 AND k <= $4 AND k < (SELECT bound FROM last)`,
    [walletId, above, max, atMost],
  );
  const r = rows[0];
  if (!r || !r.count) return null;
  return { json: r.json ?? '', count: Number(r.count), hi: r.hi, lo: r.lo, loSignature: '', keys: r.keys.split(',') };
}

/** The key of a wallet's newest stored trade, or null when none is stored. */
export async function newestKey(db: Queryable, walletId: number): Promise<string | null> {
  const rows = await db.query<{ k: string | null }>('SELECT max(k) AS k FROM trades WHERE wallet_id = $1', [walletId]);
  return rows[0]?.k ?? null;
}

/** Every token of a wallet's stored trades, once per (symbol, mint) pair, and the newest key. */
export async function tokensOf(db: Queryable, walletId: number): Promise<{ tokens: { token: string; tokenMint: string }[]; top: string | null }> {
  const rows = await db.query<{ token: string; mint: string }>(
    `SELECT DISTINCT j->>'token' AS token, j->>'tokenMint' AS mint FROM (SELECT json::jsonb AS j FROM trades WHERE wallet_id = $1) t`,
    [walletId],
  );
  return { tokens: rows.map((r) => ({ token: r.token, tokenMint: r.mint })), top: await newestKey(db, walletId) };
}

/** The stored text of every leg of these transactions of a wallet (include=usd prices a cut transaction whole). */
export async function legsOf(db: Queryable, walletId: number, signatures: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ json: string }>('SELECT json FROM trades WHERE wallet_id = $1 AND signature = ANY ($2::text[]) ORDER BY k DESC', [
    walletId,
    [...signatures],
  ]);
  return rows.map((r) => r.json);
}

/** How many trades are stored strictly below `below`, counting no further than `cap`. */
export async function countBelow(db: Queryable, walletId: number, below: string, cap: number | null): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM trades WHERE wallet_id = $1 AND k < $2 ORDER BY k DESC LIMIT $3) t`,
    [walletId, below, cap],
  );
  return Number(rows[0].n);
}

/**
 * The first `limit` trades at or below `atMost` (and strictly below `below`): their count and the
 * key and signature of the last one. Keys only: the trades themselves are read in chunks after.
 */
export async function pageBounds(
  db: Queryable,
  walletId: number,
  below: string,
  limit: number | null,
  atMost = TOP_KEY,
): Promise<{ count: number; hi: string | null; lo: string | null; loSignature: string | null }> {
  const rows = await db.query<{ n: number; hi: string | null; lo: string | null; lo_sig: string | null }>(
    `SELECT count(*)::int AS n, max(k) AS hi, min(k) AS lo,
            (SELECT signature FROM trades x WHERE x.wallet_id = $1 AND x.k = min(t.k)) AS lo_sig
     FROM (SELECT k FROM trades WHERE wallet_id = $1 AND k < $2 AND k <= $4 ORDER BY k DESC LIMIT $3) t`,
    [walletId, below, limit, atMost],
  );
  const { n, hi, lo, lo_sig } = rows[0];
  if (!n || lo === null) return { count: 0, hi: null, lo: null, loSignature: null };
  return { count: Number(n), hi, lo, loSignature: lo_sig };
}

export async function hasTradeBelow(db: Queryable, walletId: number, below: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM trades WHERE wallet_id = $1 AND k < $2 LIMIT 1', [walletId, below]);
  return rows.length > 0;
}
