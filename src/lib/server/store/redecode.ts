import type { SourceUnexplained } from '../../core/activity.js';
import { parseTradeKey, tradeKey, type SourceTrade } from '../../core/trade.js';
import type { Database, Queryable } from './database.js';
import { proveLease, WALLET_CHANNEL, type LeaseFence } from './leases.js';
import { tradeRows, unexplainedRows } from './trades.js';

/**
 * A wallet's stored history decoded again by a newer decoder, transaction by transaction: SQL only;
 * the walk over it is sync/walker/redecode-wallet.ts.
 *
 * Oldest first, from the oldest stored trade up to the newest one stored when the re-decode began
 * (`end`). The transactions listed as unexplained are decoded again with them (a newer decoder is
 * most often a venue recognised: those are the transactions it turns into trades), each placed
 * where its leg 0 would be (`tradeKey(position, 0)`). Trades stored meanwhile are new already: a refresh's above `end`, a tail walk's below
 * where the re-decode started. Going up also means the newest trades, the ones a client that
 * re-reads from the top compares with what it holds, change last, in the same transaction that
 * raises the wallet's decoder version: a client sees either the old top under the old version or
 * the new top under the new one.
 */
export interface RedecodeProgress {
  /** The version this re-decode decodes with. */
  version: number;
  /** Trades with a key above this one are still to do ('' when none is done yet). */
  after: string;
  /** The newest key this re-decode covers. */
  end: string;
}

/** The wallet's figures a re-decode changes. */
export interface RedecodedWallet {
  tradeCount: number;
  firstTrade: string | null;
  decoderVersion: number;
  unexplainedCount: number;
}

/** A transaction to decode again: its signature and the position of its stored trades or unexplained entry. */
export interface StoredTransaction {
  signature: string;
  position: string;
}

interface FiguresRow {
  trade_count: number;
  first_trade: string | null;
  decoder_version: number;
  unexplained_count: number;
}

const FIGURES = 'trade_count, first_trade, decoder_version, unexplained_count';

const figures = (r: FiguresRow): RedecodedWallet => ({
  tradeCount: Number(r.trade_count),
  firstTrade: r.first_trade,
  decoderVersion: Number(r.decoder_version),
  unexplainedCount: Number(r.unexplained_count),
});

/** What follows a position in its leg-0 trade key: an unexplained transaction's place among trade keys. */
const LEG0_SUFFIX = tradeKey('0', 0).slice(1);

/**
 * Starts the wallet's re-decode to `version`, or resumes the one under way to that version (a
 * restart, another instance's lease run out). A wallet already at `version` or above has nothing
 * to do; one with no trade takes the version at once. Returns the progress to go on from, or null
 * when there is nothing to decode again, with the wallet's figures.
 */
export async function beginRedecode(
  db: Database,
  walletId: number,
  version: number,
  fence?: LeaseFence,
): Promise<{ progress: RedecodeProgress | null; wallet: RedecodedWallet }> {
  return db.transaction(async (tx) => {
    if (fence) await proveLease(tx, walletId, fence);
    // SET reads the row as it was: a re-decode to another version starts over.
    const begun = await tx.query<FiguresRow & { redecode_after: string; redecode_end: string | null }>(
      `UPDATE wallets SET
         redecode_after = CASE WHEN redecode_version = $2 THEN redecode_after ELSE '' END,
         redecode_end = CASE WHEN redecode_version = $2 THEN redecode_end ELSE (SELECT max(k) FROM (
             SELECT max(k) AS k FROM trades WHERE wallet_id = $1
             UNION ALL SELECT max(k) || $3 FROM unexplained WHERE wallet_id = $1) ends) END,
         redecode_version = $2
       WHERE id = $1 AND decoder_version < $2
       RETURNING redecode_after, redecode_end, ${FIGURES}`,
      [walletId, version, LEG0_SUFFIX],
    );
    if (!begun.length) {
      const rows = await tx.query<FiguresRow>(`SELECT ${FIGURES} FROM wallets WHERE id = $1`, [walletId]);
      return { progress: null, wallet: figures(rows[0]) };
    }
    const b = begun[0];
    if (b.redecode_end !== null) return { progress: { version, after: b.redecode_after, end: b.redecode_end }, wallet: figures(b) };
    return { progress: null, wallet: await finish(tx, walletId, version, fence !== undefined) };
  });
}

/** A wallet without a trade or unexplained transaction to decode again: it takes the version, and the progress is dropped. */
async function finish(tx: Queryable, walletId: number, version: number, notify: boolean): Promise<RedecodedWallet> {
  const rows = await tx.query<FiguresRow>(
    `UPDATE wallets SET decoder_version = $2, redecode_version = NULL, redecode_after = NULL, redecode_end = NULL, updated_at = now()
     WHERE id = $1 RETURNING ${FIGURES}${notify ? `, pg_notify('${WALLET_CHANNEL}', id::text)::text AS notified` : ''}`,
    [walletId, version],
  );
  return figures(rows[0]);
}

/**
 * The transactions of the next `maxTrades` stored trades and unexplained entries above the
 * progress, oldest first (one entry per transaction, with its position). A transaction whose later
 * legs lie past the limit is whole all the same: its rows are replaced by signature.
 */
export async function transactionsToRedecode(db: Queryable, walletId: number, p: RedecodeProgress, maxTrades: number): Promise<StoredTransaction[]> {
  const rows = await db.query<{ k: string; signature: string }>(
    `SELECT k, signature FROM (
       (SELECT k, signature FROM trades WHERE wallet_id = $1 AND k > $2 AND k <= $3 ORDER BY k LIMIT $4)
       UNION ALL
       (SELECT k || $5 AS k, signature FROM unexplained WHERE wallet_id = $1 AND k || $5 > $2 AND k || $5 <= $3 ORDER BY k LIMIT $4)
     ) both_kinds ORDER BY k COLLATE "C" LIMIT $4`,
    [walletId, p.after, p.end, maxTrades, LEG0_SUFFIX],
  );
  const out = new Map<string, string>();
  for (const r of rows) if (!out.has(r.signature)) out.set(r.signature, parseTradeKey(r.k).position);
  return [...out].map(([signature, position]) => ({ signature, position }));
}

/** The progress after a batch: past every key of its newest transaction (leg 0 has a transaction's highest key). */
export function progressAfter(transactions: readonly StoredTransaction[], p: RedecodeProgress): RedecodeProgress {
  const newest = transactions.reduce((m, t) => (t.position > m ? t.position : m), '');
  return { ...p, after: newest ? tradeKey(newest, 0) : p.end };
}

export interface ReplaceParameters {
  walletId: number;
  /** Where the batch started (the stored progress it was read from) and where it ends. */
  from: RedecodeProgress;
  to: RedecodeProgress;
  transactions: readonly StoredTransaction[];
  /** The new decoder's trades of those transactions, and those of them no trade explains. */
  trades: readonly SourceTrade[];
  unexplained?: readonly SourceUnexplained[];
  fence?: LeaseFence;
}

/**
 * Replaces the stored trades and unexplained entries of a batch of transactions with the new
 * decoder's, in one transaction with the progress reached: the old rows of those transactions go,
 * the new ones come in, usage intervals are split around keys no trade had (punch_usage), the wallet's count and
 * oldest trade time follow, and on the last batch (`to.after` reaches `end`) the wallet takes the
 * version. A crash before the commit leaves the batch as it was, to be done again; after it, the
 * progress is past it. The write happens only if the stored progress is still `from` (else null:
 * another holder, or a newer re-decode, moved it; the caller begins again from what is stored).
 */
export async function replaceRedecoded(db: Database, p: ReplaceParameters): Promise<(RedecodedWallet & { newKeys: number }) | null> {
  const positionOf = new Map(p.transactions.map((t) => [t.signature, t.position]));
  const rows = checkedRows(positionOf, p.trades);
  const listed = checkedUnexplained(positionOf, p.unexplained ?? []);
  const done = p.to.after >= p.to.end;
  return db.transaction(async (tx) => {
    if (p.fence) await proveLease(tx, p.walletId, p.fence);
    // NO KEY UPDATE, not UPDATE: a read's metering inserts usage_ranges, whose foreign key takes
    // KEY SHARE on this row while it holds its account; FOR UPDATE made it wait here while
    // punch_usage below waited for that account: a deadlock (1 read in 3 on PostgreSQL under a
    // re-decode). Other writers of the row still wait, which is what this lock is for.
    const at = await tx.query('SELECT 1 FROM wallets WHERE id = $1 AND redecode_version = $2 AND redecode_after = $3 FOR NO KEY UPDATE', [
      p.walletId,
      p.from.version,
      p.from.after,
    ]);
    if (!at.length) return null;
    let removed: string[] = [];
    let unlisted = 0;
    if (p.transactions.length) {
      const signatures = p.transactions.map((t) => t.signature);
      const gone = await tx.query<{ k: string }>('DELETE FROM trades WHERE wallet_id = $1 AND signature = ANY ($2::text[]) RETURNING k', [
        p.walletId,
        signatures,
      ]);
      removed = gone.map((g) => g.k);
      const ungone = await tx.query<{ n: number }>(
        'WITH d AS (DELETE FROM unexplained WHERE wallet_id = $1 AND signature = ANY ($2::text[]) RETURNING 1) SELECT count(*)::int AS n FROM d',
        [p.walletId, signatures],
      );
      unlisted = Number(ungone[0].n);
    }
    if (listed.ks.length) {
      await tx.query('INSERT INTO unexplained (wallet_id, k, signature, json) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[])', [
        p.walletId,
        listed.ks,
        listed.sigs,
        listed.jsons,
      ]);
    }
    if (rows.ks.length) {
      await tx.query('INSERT INTO trades (wallet_id, k, signature, leg, json) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[], $5::text[])', [
        p.walletId,
        rows.ks,
        rows.sigs,
        rows.legs,
        rows.jsons,
      ]);
    }
    const had = new Set(removed);
    const newKeys = rows.ks.filter((k) => !had.has(k));
    if (newKeys.length) await tx.query('SELECT punch_usage($1, $2::text[])', [p.walletId, newKeys]);
    const updated = await tx.query<FiguresRow>(
      `UPDATE wallets SET trade_count = trade_count + $2, unexplained_count = unexplained_count + $6,
         first_trade = (SELECT json::json ->> 'blockTime' FROM trades WHERE wallet_id = $1 ORDER BY k LIMIT 1),
         redecode_after = CASE WHEN $3 THEN NULL ELSE $4 END,
         redecode_end = CASE WHEN $3 THEN NULL ELSE redecode_end END,
         redecode_version = CASE WHEN $3 THEN NULL ELSE redecode_version END,
         decoder_version = CASE WHEN $3 THEN $5 ELSE decoder_version END,
         updated_at = now()
       WHERE id = $1
       RETURNING ${FIGURES}${p.fence ? `, pg_notify('${WALLET_CHANNEL}', id::text)::text AS notified` : ''}`,
      [p.walletId, rows.ks.length - removed.length, done, p.to.after, p.to.version, listed.ks.length - unlisted],
    );
    return { ...figures(updated[0]), newKeys: newKeys.length };
  });
}

/**
 * The rows of the new trades, after checking they answer what was asked: each trade belongs to one
 * of the transactions, at that transaction's position (a key never moves between versions, so a
 * cursor names the same place after a re-decode), with one trade per leg.
 */
function checkedRows(positionOf: ReadonlyMap<string, string>, trades: readonly SourceTrade[]) {
  const seen = new Set<string>();
  for (const t of trades) {
    const position = positionOf.get(t.signature);
    if (position === undefined) throw new Error(`re-decode returned a trade of ${t.signature}, which was not asked for`);
    if (position !== t.position) throw new Error(`re-decode moved ${t.signature} from position ${position} to ${t.position}`);
    const k = tradeKey(t.position, t.leg);
    if (seen.has(k)) throw new Error(`re-decode returned leg ${t.leg} of ${t.signature} twice`);
    seen.add(k);
  }
  return tradeRows(trades);
}

/** The new unexplained entries' rows, each one of the transactions asked for, at its position, once. */
function checkedUnexplained(positionOf: ReadonlyMap<string, string>, unexplained: readonly SourceUnexplained[]) {
  const seen = new Set<string>();
  for (const u of unexplained) {
    const position = positionOf.get(u.signature);
    if (position === undefined) throw new Error(`re-decode listed ${u.signature}, which was not asked for`);
    if (position !== u.position) throw new Error(`re-decode moved unexplained ${u.signature} from position ${position} to ${u.position}`);
    if (seen.has(u.signature)) throw new Error(`re-decode listed ${u.signature} twice`);
    seen.add(u.signature);
  }
  return unexplainedRows(unexplained);
}
