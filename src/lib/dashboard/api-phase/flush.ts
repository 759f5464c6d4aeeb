import type { LoadRow, TradeRow, WalkState } from '../db.js';

/** Stores rows and the state they reached in one transaction (WalletLoader.commit, for one wallet and phase). */
export type Commit = (rows: TradeRow[], received: number, mutate: (r: LoadRow, state: WalkState | null) => void) => Promise<LoadRow>;

/** Parsed rows waiting for the open transaction before parsing waits for it: 20,000 rows is ~10 MB. */
const MAX_PENDING_ROWS = 20_000;

/**
 * Writes what a call parsed into IndexedDB: one transaction stores the pending rows with the state
 * they reached (`reached`, taken when the write starts). Parsing runs ahead while a transaction is
 * open, so when IndexedDB is the bottleneck the next transaction takes everything parsed
 * meanwhile: fewer, larger transactions. Measured on 100,000 trades in headless Chromium here: one
 * record per trade, about 5,000 trades/s; one record per coalesced batch (db.ts), 21,000-47,000
 * trades/s (the spread is other load on the 2 cores).
 */
export class BatchWriter {
  private rows: TradeRow[] = [];
  private received = 0;
  private inflight: Promise<void> | null = null;
  /** What a write started in the background threw: the call ends with it. */
  private failure: unknown = null;

  constructor(
    private readonly commit: Commit,
    private readonly reached: () => (r: LoadRow) => void,
  ) {}

  /** A line's rows, and how many trades it brought (stored or skipped). */
  add(rows: TradeRow[], received: number): void {
    this.received += received;
    for (const r of rows) this.rows.push(r);
  }

  /** Rows or received trades not yet written. */
  get pending(): boolean {
    return this.rows.length > 0 || this.received > 0;
  }

  get failed(): boolean {
    return Boolean(this.failure);
  }

  /** Throws what a background write threw. */
  check(): void {
    if (this.failure) throw this.failure;
  }

  /** After a line: waits for the open transaction when too much is pending, then starts a write unless one is open. */
  async next(): Promise<void> {
    if (this.inflight && this.rows.length >= MAX_PENDING_ROWS) await this.inflight;
    this.kick();
  }

  /** Waits for the write under way, if any (it never rejects: its error is kept for `check`). */
  async settle(): Promise<void> {
    if (this.inflight) await this.inflight;
  }

  /** Writes everything pending now, with the state reached now; resolves with the stored load row. */
  async flush(): Promise<LoadRow> {
    const rows = this.rows;
    const received = this.received;
    this.rows = [];
    this.received = 0;
    return this.commit(rows, received, this.reached());
  }

  private kick(): void {
    if (this.inflight) return;
    this.inflight = this.flush().then(
      () => void (this.inflight = null),
      (e: unknown) => {
        this.inflight = null;
        this.failure = e;
      },
    );
  }
}
