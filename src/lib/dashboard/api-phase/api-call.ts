import type { Trade } from '../../core/trade.js';
import { apiOrder, fingerprint, type LoadRow, type TradeRow, type WalkState } from '../db.js';
import type { BatchLine, FinalLine } from '../ndjson.js';

/** The walk back, a refresh from the top, or a re-read from the top into the staging area (db.ts). */
export type Phase = 'walk' | 'refresh' | 'reread';

/** The response header that says the wallet's decoder version on the server when the answer started. */
export const DECODER_VERSION_HEADER = 'x-decoder-version';

/**
 * One call of the /v1 history stream for a phase, and what it has reached: the phase's walk state
 * (cursor, next index, last fingerprint), the wallet's head and tail fingerprints, the final line.
 * Advanced line by line; written (flush.ts) with the rows that reached it.
 */
export class ApiCall {
  readonly walk: WalkState;
  private headFp: string | null;
  private tailFp: string | null;
  /** The final line, once read; a call that ends without one was cut short. */
  final: FinalLine | null = null;
  /** The phase ends with this call: the history is complete, or a refresh met the stored head. */
  finished = false;
  /** Trades this call added (what a restart skipped and a refresh's stop cut off not counted). */
  newRows = 0;
  /**
   * The server re-decoded the wallet since the stored rows were read (its decoder version is above
   * theirs): the call stops, and a re-read at that version replaces them (reread.ts).
   */
  superseded: number | null = null;
  /** The decoder version the rows are known to come from at least; null until the server says it. */
  private known: number | null;
  /** Learned by this call for a wallet that had none: written with the state reached. */
  private learned: number | null = null;

  constructor(
    load: LoadRow,
    private readonly phase: Phase,
    private readonly walletId: string,
  ) {
    this.walk = { ...load[phase]! };
    this.headFp = load.headFp;
    this.tailFp = load.tailFp;
    // Rows stored before versions were kept are older than any.
    this.known = phase === 'reread' ? (this.walk.version ?? null) : (load.decoderVersion ?? (load.tradeCount > 0 ? 0 : null));
  }

  /** The server's decoder version of the wallet (the answer's header, the final line). */
  observe(version: number): void {
    if (this.known === null) this.known = this.learned = version;
    else if (version > this.known && (this.superseded === null || version > this.superseded)) this.superseded = version;
  }

  /** The final line: the server's figures, and the cursor to ask again with when it is still loading. */
  end(line: FinalLine): void {
    this.final = line;
    if (line.pricesComplete === false) this.walk.pricesMissed = true;
    if (line.decoderVersion !== undefined) this.observe(line.decoderVersion);
    if (line.complete) this.finished = true;
    else if (line.cursor) this.walk.cursor = line.cursor;
  }

  /** A line of trades: the rows to store, in API order, with the state advanced past the line. */
  take(line: BatchLine): TradeRow[] {
    const st = this.walk;
    let trades: Trade[] = line.trades;
    if (st.skipUntil) {
      // After a restart: drop what is already stored, up to and including the last stored trade.
      const k = trades.findIndex((t) => fingerprint(t) === st.skipUntil);
      if (k < 0) trades = [];
      else {
        trades = trades.slice(k + 1);
        st.skipUntil = null;
      }
    }
    if (this.phase === 'refresh' && st.stopAt) {
      const stop = st.stopAt;
      const k = trades.findIndex((t) => fingerprint(t) === stop);
      if (k >= 0) {
        trades = trades.slice(0, k);
        this.finished = true;
      }
    }
    const rows = new Array<TradeRow>(trades.length);
    for (let i = 0; i < trades.length; i++) rows[i] = { ...trades[i], walletId: this.walletId, order: apiOrder(st.epoch, st.index + i) };
    st.cursor = line.cursor;
    st.index += trades.length;
    this.newRows += trades.length;
    if (trades.length) {
      st.lastFp = fingerprint(trades[trades.length - 1]);
      if (this.phase === 'walk') {
        this.tailFp = st.lastFp;
        this.headFp ??= fingerprint(trades[0]);
      } else if (st.index === trades.length) {
        st.newHead = fingerprint(trades[0]);
      }
    }
    return rows;
  }

  /**
   * The state reached so far, as a change to the load row. Taken now, applied when the write's
   * transaction runs: parsing goes on meanwhile and must not leak into it.
   */
  reached(): (r: LoadRow) => void {
    const phase = this.phase;
    const snap: WalkState = { ...this.walk };
    const done = this.finished;
    const fin = this.final;
    const hf = this.headFp;
    const tf = this.tailFp;
    const learned = this.learned;
    return (r) => {
      r.tailFp = tf;
      r.headFp = hf;
      if (fin) {
        r.serverTradeCount = fin.tradeCount;
        r.firstTrade = fin.firstTrade;
        // A walk or refresh that stored rows without some prices: the wallet is read again for them.
        if (fin.pricesComplete === false && phase !== 'reread') r.pricesComplete = false;
      }
      if (learned !== null && phase !== 'reread') r.decoderVersion = learned;
      if (!done) r[phase] = snap;
      else if (phase === 'reread') {
        // The whole history re-read: it becomes the wallet's rows (the commit swaps them in).
        r.headFp = snap.newHead;
        r.tailFp = snap.lastFp;
        r.decoderVersion = snap.version ?? null;
        r.pricesComplete = !snap.pricesMissed;
        if (r.pricesComplete) r.pricesRereads = 0;
        r.walk = r.refresh = r.reread = null;
      } else {
        // A refresh's first trades are the new head, once it has met what was stored.
        if (phase === 'refresh' && snap.newHead) r.headFp = snap.newHead;
        r[phase] = null;
      }
    };
  }
}
