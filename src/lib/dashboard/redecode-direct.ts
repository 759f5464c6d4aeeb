/**
 * Direct (RPC) mode: a wallet stored in IndexedDB by an older decoder than the source's is decoded
 * again the way the server does it (src/lib/server/store/redecode.ts): the stored transactions,
 * those of its trades and those listed as unexplained (which a newer decoder most often turns into
 * trades), oldest first, a batch at a time through the source's `redecode` (only those transactions are
 * fetched again), each batch's rows replaced in one IndexedDB transaction with the progress
 * reached, so a reload resumes it without losing or repeating a trade. Oldest first, so the newest
 * rows (what a refresh stops at) change last. Rows stored before keys were kept (no `keys` on their
 * batch) cannot name their transactions' positions: those wallets are re-read whole instead
 * (reread.ts).
 */
import type { SourceUnexplained } from '../core/activity.js';
import type { ChainSource } from '../core/chain-source.js';
import { parseTradeKey, tradeKey, type SourceTrade, type Trade } from '../core/trade.js';
import {
  newWalk,
  walletBatches,
  walletUnexplained,
  type BatchRow,
  type DashboardDb,
  type LoadRow,
  type RedecodeState,
  type UnexplainedRow,
  unexplainedRow,
} from './db.js';
import { dropStaged } from './reread.js';

/**
 * At the start of a direct-mode load: a wallet with no row takes the source's version; one whose
 * rows are older starts a re-decode (batches with keys) or a re-read (batches without).
 */
export async function versionCheck(db: DashboardDb, id: string, source: ChainSource, now: number): Promise<LoadRow> {
  const version = source.decoderVersion;
  return db.transaction('rw', [db.batches, db.unexplained, db.loads], async () => {
    const r = (await db.loads.get(id))!;
    if (version === undefined) return r;
    if (r.tradeCount === 0 && !r.unexplainedCount && !r.reread && !r.redecode) {
      if (r.decoderVersion === version) return r;
      r.decoderVersion = version;
    } else {
      if ((r.decoderVersion ?? 0) >= version || (r.reread?.version ?? -1) >= version || (r.redecode?.version ?? -1) >= version) return r;
      const top = (await walletBatches(db, id).last())?.order ?? '';
      const topListed = (await walletUnexplained(db, id).last())?.order ?? '';
      const keyed =
        source.redecode !== undefined &&
        (top !== '' || topListed !== '') &&
        !(await walletBatches(db, id)
          .filter((b) => !b.keys)
          .first());
      await dropStaged(db, id);
      r.redecode = keyed ? { version, after: '', end: top > topListed ? top : topListed } : null;
      r.reread = keyed ? null : { ...newWalk(0), version };
    }
    r.updatedAt = now;
    await db.loads.put(r);
    return r;
  });
}

/** Stored trades per re-decode batch, at least (whole batches of the store are taken). */
const BATCH_TRADES = 100;

/** The re-decode phase: batch after batch until it reaches what the older decoder stored last, or the load stops. */
export async function redecodeDirect(
  deps: { db: DashboardDb; onProgress?: (row: LoadRow) => void },
  id: string,
  address: string,
  source: ChainSource,
  signal: AbortSignal,
  now: () => number,
): Promise<LoadRow> {
  const { db } = deps;
  for (;;) {
    const r = (await db.loads.get(id))!;
    const p = r.redecode;
    if (!p || signal.aborted) return r;
    const batches = await nextBatches(db, id, p);
    if (batches.some((b) => !b.keys)) {
      // Batches stored before keys were kept, below keyed ones: the wallet is re-read whole.
      return stepTo(deps, id, p, now, (row) => {
        row.redecode = null;
        row.reread = { ...newWalk(0), version: p.version };
      });
    }
    // The listed transactions up to the newest taken (all that are left, when no batch is).
    const batchesNewest = transactionsOf(batches, []).reduce((m, t) => (t.position > m ? t.position : m), '');
    const bound = batchesNewest ? tradeKey(batchesNewest, 0) : p.end;
    const listed = await db.unexplained.where('[walletId+order]').between([id, p.after], [id, bound], false, true).toArray();
    const transactions = transactionsOf(batches, listed);
    const { trades, unexplained } = transactions.length ? await source.redecode!({ wallet: address, transactions, signal }) : { trades: [], unexplained: [] };
    if (signal.aborted) return r;
    const fresh = rowsOf(transactions, trades);
    const relisted = listedOf(id, transactions, unexplained);
    const newest = transactions.reduce((m, t) => (t.position > m ? t.position : m), '');
    const after = newest ? tradeKey(newest, 0) : p.end;
    await stepTo(
      deps,
      id,
      p,
      now,
      (row) => {
        row.tradeCount += fresh.trades.length - batches.reduce((n, b) => n + b.trades.length, 0);
        row.unexplainedCount = (row.unexplainedCount ?? 0) + relisted.length - listed.length;
        if (after >= p.end) {
          row.redecode = null;
          row.decoderVersion = p.version;
          // The rows changed in the middle: the page reads them again (once, at the end).
          row.generation = (row.generation ?? 0) + 1;
        } else row.redecode = { ...p, after };
      },
      async () => {
        await db.batches.bulkDelete(batches.map((b) => [id, b.order] as [string, string]));
        if (fresh.trades.length) await db.batches.put({ walletId: id, order: fresh.keys[0], trades: fresh.trades, keys: fresh.keys });
        await db.unexplained.bulkDelete(listed.map((u) => [id, u.order] as [string, string]));
        await db.unexplained.bulkPut(relisted);
      },
    );
  }
}

/**
 * One step in one transaction: `write` and `mutate` apply only if the stored progress is still
 * `p` (a cancel or another tab may have moved it).
 */
async function stepTo(
  deps: { db: DashboardDb; onProgress?: (row: LoadRow) => void },
  id: string,
  p: RedecodeState,
  now: () => number,
  mutate: (r: LoadRow) => void,
  write?: () => Promise<void>,
): Promise<LoadRow> {
  const { db } = deps;
  return db.transaction('rw', [db.batches, db.unexplained, db.loads], async () => {
    const r = await db.loads.get(id);
    if (!r) return r as unknown as LoadRow;
    if (r.redecode?.after !== p.after || r.redecode.version !== p.version) return r;
    await write?.();
    mutate(r);
    r.updatedAt = now();
    await db.loads.put(r);
    deps.onProgress?.(r);
    return r;
  });
}

/**
 * The stored batches above the progress, oldest first, until about BATCH_TRADES trades; a batch
 * holding more legs of the newest transaction taken is taken too, so a transaction is never split.
 */
async function nextBatches(db: DashboardDb, id: string, p: RedecodeState): Promise<BatchRow[]> {
  const ahead = await db.batches.where('[walletId+order]').between([id, p.after], [id, p.end], false, true).limit(20).toArray();
  const out: BatchRow[] = [];
  let trades = 0;
  for (const b of ahead) {
    const continues = out.length > 0 && b.keys && positionAt(b, b.trades.length - 1) === positionAt(out.at(-1)!, 0);
    if (trades >= BATCH_TRADES && !continues) break;
    out.push(b);
    trades += b.trades.length;
  }
  return out;
}

const positionAt = (b: BatchRow, i: number) => (b.keys ? parseTradeKey(b.keys[i]).position : null);

/** The transactions of stored batches and listed entries, each once with its position. */
function transactionsOf(batches: readonly BatchRow[], listed: readonly UnexplainedRow[]): { signature: string; position: string }[] {
  const out = new Map<string, string>();
  for (const b of batches) b.trades.forEach((t, i) => out.has(t.signature) || out.set(t.signature, parseTradeKey(b.keys![i]).position));
  for (const u of listed) if (!out.has(u.signature)) out.set(u.signature, parseTradeKey(u.order).position);
  return [...out].map(([signature, position]) => ({ signature, position }));
}

/** The new decoder's unexplained entries as stored rows, checked against what was asked. */
function listedOf(id: string, transactions: readonly { signature: string; position: string }[], unexplained: readonly SourceUnexplained[]): UnexplainedRow[] {
  const positionOf = new Map(transactions.map((t) => [t.signature, t.position]));
  for (const u of unexplained) {
    if (positionOf.get(u.signature) !== u.position) throw new Error(`The source listed ${u.signature} at a position it was not asked for.`);
  }
  return unexplained.map((u) => unexplainedRow(id, u));
}

/** The new decoder's trades as one stored batch (newest first), checked against what was asked. */
function rowsOf(transactions: readonly { signature: string; position: string }[], trades: readonly SourceTrade[]): { trades: Trade[]; keys: string[] } {
  const positionOf = new Map(transactions.map((t) => [t.signature, t.position]));
  const rows = trades.map((t) => {
    if (positionOf.get(t.signature) !== t.position) throw new Error(`The source re-decoded ${t.signature} at a position it was not asked for.`);
    const trade: Trade = {
      signature: t.signature,
      side: t.side,
      token: t.token,
      tokenMint: t.tokenMint,
      amountSol: t.amountSol,
      amount: t.amount,
      dex: t.dex,
      blockTime: t.blockTime,
    };
    return { key: tradeKey(t.position, t.leg), trade };
  });
  rows.sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
  if (new Set(rows.map((r) => r.key)).size !== rows.length) throw new Error('The source re-decoded one leg of a transaction twice.');
  return { trades: rows.map((r) => r.trade), keys: rows.map((r) => r.key) };
}
