/**
 * The page's in-memory copy of one wallet's trades, newest first, kept in step with IndexedDB by
 * reading only the batches that are new at either end. A batch lands below the oldest (the walk)
 * or above the newest (a refresh); reading just those keeps a 100,000-trade wallet at a few ms per
 * batch instead of re-reading everything.
 */
import { Dexie } from 'dexie';
import { flattenBatches, walletBatches, type DashboardDb, type TradeRow } from './db.js';

export class TradeMirror {
  rows: TradeRow[] = [];
  private newest: string | null = null;
  private oldest: string | null = null;
  /** The load row's generation the rows were read at: a new one means they were replaced in the middle. */
  private generation: number | undefined;
  private asked: { expectedCount?: number; generation?: number } = {};
  private syncing: Promise<boolean> | null = null;
  private again = false;

  constructor(
    private readonly db: DashboardDb,
    readonly walletId: string,
  ) {}

  /** Brings `rows` up to date; resolves true when they changed. Calls made during a sync coalesce. */
  sync(expectedCount?: number, generation?: number): Promise<boolean> {
    // The latest call's figures, for a sync running now to pick up when it goes round again.
    this.asked = { expectedCount, generation };
    if (this.syncing) {
      this.again = true;
      return this.syncing;
    }
    this.syncing = (async () => {
      let changed = false;
      try {
        do {
          this.again = false;
          changed = (await this.step(this.asked.expectedCount, this.asked.generation)) || changed;
        } while (this.again);
      } finally {
        this.syncing = null;
      }
      return changed;
    })();
    return this.syncing;
  }

  private async step(expectedCount?: number, generation?: number): Promise<boolean> {
    const id = this.walletId;
    let reset = false;
    // Fewer stored than held (a cancel, a mode switch), or rows replaced in the middle (a history
    // decoded again, swapped in): start over.
    const replaced = generation !== undefined && this.generation !== undefined && generation !== this.generation;
    if (generation !== undefined) this.generation = generation;
    if (replaced || (expectedCount !== undefined && expectedCount < this.rows.length)) {
      this.rows = [];
      this.newest = this.oldest = null;
      reset = true;
    }
    if (this.newest === null || this.oldest === null) {
      const all = await walletBatches(this.db, id).reverse().toArray();
      if (all.length === 0) return reset;
      this.rows = flattenBatches(all);
      this.newest = all[0].order;
      this.oldest = all[all.length - 1].order;
      return true;
    }
    const range = this.db.batches.where('[walletId+order]');
    const [above, below] = await Promise.all([
      range.between([id, this.newest], [id, Dexie.maxKey], false, true).reverse().toArray(),
      range.between([id, Dexie.minKey], [id, this.oldest], true, false).reverse().toArray(),
    ]);
    if (!above.length && !below.length) return false;
    if (above.length) this.newest = above[0].order;
    if (below.length) this.oldest = below[below.length - 1].order;
    // Appending below is the common case during a walk: push in place, then hand out a new array
    // reference (the page's $state.raw needs one) without copying twice.
    const next = above.length ? flattenBatches(above) : [];
    for (const r of this.rows) next.push(r);
    flattenBatches(below, next);
    this.rows = next;
    return true;
  }
}
