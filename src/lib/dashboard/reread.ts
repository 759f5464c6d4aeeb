/**
 * A wallet's stored copy replaced whole after its history was decoded again by a newer decoder
 * (issue 23): a re-read from the top stores its rows under the staging id (db.ts) while the old
 * rows stay on screen, and when it reaches the end one transaction swaps them in. A pause or a
 * closed tab resumes the re-read from its cursor; the staged rows stay until the swap, so nothing
 * is stored twice.
 */
import { newWalk, stagingId, walletBatches, walletUnexplained, type DashboardDb, type LoadRow } from './db.js';

/**
 * Starts a re-read at `version` (the server's, or the direct source's): what an earlier re-read
 * staged is dropped. A re-read at that version or above already under way goes on.
 */
export async function startReread(db: DashboardDb, id: string, version: number, now: number): Promise<LoadRow> {
  return db.transaction('rw', [db.batches, db.unexplained, db.loads], async () => {
    const r = (await db.loads.get(id))!;
    if (r.reread && (r.reread.version ?? 0) >= version) return r;
    await dropStaged(db, id);
    r.reread = { ...newWalk(0), version };
    r.updatedAt = now;
    await db.loads.put(r);
    return r;
  });
}

/** Batches moved per step of the swap: a few MB of trades in memory at a time. */
const MOVE_BATCHES = 50;

/**
 * Inside the transaction of the re-read's last write: the wallet's rows become the staged ones,
 * and in direct mode (`listed`) its unexplained transactions too (API mode reads the server's
 * list instead: api-phase/unexplained-list.ts). Returns how many trades the wallet now holds.
 */
export async function swapStaged(db: DashboardDb, id: string, listed: boolean): Promise<number> {
  if (listed) {
    await walletUnexplained(db, id).delete();
    const rows = await walletUnexplained(db, stagingId(id)).toArray();
    await walletUnexplained(db, stagingId(id)).delete();
    await db.unexplained.bulkPut(rows.map((u) => ({ ...u, walletId: id })));
  }
  await walletBatches(db, id).delete();
  const staged = stagingId(id);
  const keys = await walletBatches(db, staged).primaryKeys();
  let trades = 0;
  for (let i = 0; i < keys.length; i += MOVE_BATCHES) {
    const part = keys.slice(i, i + MOVE_BATCHES);
    const rows = (await db.batches.bulkGet(part)).filter((b) => b !== undefined);
    for (const b of rows) trades += b.trades.length;
    await db.batches.bulkPut(rows.map((b) => ({ ...b, walletId: id })));
    await db.batches.bulkDelete(part);
  }
  return trades;
}

/** Drops what a re-read staged (the wallet cancelled or started over). */
export async function dropStaged(db: DashboardDb, id: string): Promise<void> {
  await walletBatches(db, stagingId(id)).delete();
  await walletUnexplained(db, stagingId(id)).delete();
}
