/**
 * Loading a wallet into IndexedDB, from this server's /v1 stream or straight from a chain RPC.
 * Runs in the worker (loader.worker.ts) and in Node tests (fake-indexeddb, an injected fetch).
 *
 * Every batch is stored together with the position it reached in one Dexie transaction, so a
 * reload or a closed tab resumes exactly after the last stored trade: no gap, no duplicate.
 */
import type { ChainSource } from '../core/chain-source.js';
import { tradeKey, type Trade } from '../core/trade.js';
import { nextTurn, sleep } from '../core/wait.js';
import { ApiError, streamHistory, type ApiConfig } from './api-client.js';
import type { FinalLine } from './ndjson.js';
import {
  apiOrder,
  fingerprint,
  walletId,
  type DashboardDb,
  type LoadMode,
  type LoadRow,
  type TradeRow,
  type WalkState,
  stripRow,
  walletBatches,
} from './db.js';

export interface LoadRequest {
  chain: string;
  address: string;
  mode: LoadMode;
  rpcUrl?: string;
  /** Re-read from the newest trade, stopping at the first one already stored. */
  refresh?: boolean;
}

export interface LoaderDeps {
  db: DashboardDb;
  api: () => ApiConfig;
  /** RPC mode: the chain source for a wallet (chain-sources.ts in the browser, a fake in tests). */
  source?: (req: LoadRequest) => Promise<ChainSource>;
  now?: () => number;
  /** Wait between re-requests when the server says loading continues; 1 s keeps a busy wallet polled gently. */
  retryDelayMs?: number;
  onProgress?: (row: LoadRow) => void;
}

/** Sliding window of the rate: trades per second over the last 5 s of batches. */
class RateMeter {
  private samples: Array<[number, number]> = [];
  add(t: number, n: number): number {
    this.samples.push([t, n]);
    while (this.samples.length > 1 && t - this.samples[0][0] > 5000) this.samples.shift();
    const span = t - this.samples[0][0];
    const total = this.samples.reduce((s, [, k]) => s + k, 0) - this.samples[0][1];
    return span > 0 ? Math.round((total * 1000) / span) : 0;
  }
}

function newWalk(epoch: number): WalkState {
  return { epoch, index: 0, cursor: null, stopAt: null, lastFp: null, skipUntil: null, newHead: null };
}

export class WalletLoader {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<LoadRow>; reason?: 'pause' | 'cancel' }>();
  private readonly now: () => number;

  constructor(private readonly deps: LoaderDeps) {
    this.now = deps.now ?? Date.now;
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /** Starts (or joins) the load of a wallet; resolves when it completes, pauses or fails. */
  load(req: LoadRequest): Promise<LoadRow> {
    const id = walletId(req.chain, req.address);
    const existing = this.running.get(id);
    if (existing) return existing.done;
    const controller = new AbortController();
    const entry: { controller: AbortController; done: Promise<LoadRow>; reason?: 'pause' | 'cancel' } = {
      controller,
      done: Promise.resolve(null as unknown as LoadRow),
    };
    entry.done = this.run(id, req, controller.signal)
      .catch(async (e: unknown) => {
        if (controller.signal.aborted) return this.stopped(id, entry.reason);
        const code = e instanceof ApiError ? e.code : 'error';
        return this.update(id, (r) => {
          r.status = 'error';
          r.error = e instanceof Error ? e.message : String(e);
          r.errorCode = code;
        });
      })
      .finally(() => this.running.delete(id));
    this.running.set(id, entry);
    return entry.done;
  }

  /** Stops loading; the stored cursor stays, a later load resumes from it. */
  async pause(id: string): Promise<void> {
    const e = this.running.get(id);
    if (!e) {
      await this.update(id, (r) => {
        if (r.status === 'loading') r.status = 'paused';
      });
      return;
    }
    e.reason = 'pause';
    e.controller.abort();
    await e.done;
  }

  /** Stops loading and forgets the wallet's stored trades and load state (the wallet stays in recents). */
  async cancel(id: string): Promise<void> {
    const e = this.running.get(id);
    if (e) {
      e.reason = 'cancel';
      e.controller.abort();
      await e.done;
    }
    const { db } = this.deps;
    await db.transaction('rw', db.batches, db.loads, async () => {
      await walletBatches(db, id).delete();
      await db.loads.delete(id);
    });
  }

  /** Loads that were under way when the tab closed: resume them (called at worker start). */
  async resumeInterrupted(): Promise<string[]> {
    const rows = await this.deps.db.loads.where('status').equals('loading').toArray();
    const ids: string[] = [];
    for (const r of rows) {
      if (this.running.has(r.walletId)) continue;
      const w = await this.deps.db.wallets.get(r.walletId);
      if (!w) continue;
      ids.push(r.walletId);
      void this.load({ chain: w.chain, address: w.address, mode: w.mode, rpcUrl: w.rpcUrl });
    }
    return ids;
  }

  private async stopped(id: string, reason: 'pause' | 'cancel' | undefined): Promise<LoadRow> {
    return this.update(id, (r) => {
      if (r.status === 'loading') r.status = reason === 'cancel' ? 'idle' : 'paused';
      r.rate = 0;
    });
  }

  private async update(id: string, f: (r: LoadRow) => void): Promise<LoadRow> {
    const { db } = this.deps;
    return db.transaction('rw', db.loads, async () => {
      const r = await db.loads.get(id);
      if (!r) return r as unknown as LoadRow;
      f(r);
      r.updatedAt = this.now();
      await db.loads.put(r);
      this.deps.onProgress?.(r);
      return r;
    });
  }

  private async prepare(id: string, req: LoadRequest): Promise<LoadRow> {
    const { db } = this.deps;
    const t = this.now();
    return db.transaction('rw', db.wallets, db.batches, db.loads, async () => {
      const w = await db.wallets.get(id);
      let load = await db.loads.get(id);
      // A wallet switched between API and RPC mode starts over: the two orders do not mix.
      if ((w && w.mode !== req.mode) || (load && load.mode !== req.mode)) {
        await walletBatches(db, id).delete();
        load = undefined;
      }
      await db.wallets.put({
        id,
        chain: req.chain,
        address: req.address,
        mode: req.mode,
        rpcUrl: req.rpcUrl ?? w?.rpcUrl,
        addedAt: w?.addedAt ?? t,
        openedAt: t,
      });
      if (!load) {
        load = {
          walletId: id,
          status: 'loading',
          mode: req.mode,
          walk: newWalk(0),
          refresh: null,
          headFp: null,
          tailFp: null,
          head: null,
          tradeCount: 0,
          received: 0,
          serverTradeCount: null,
          firstTrade: null,
          rate: 0,
          error: null,
          errorCode: null,
          restarts: 0,
          firstBatchAt: null,
          startedAt: t,
          updatedAt: t,
        };
      } else if (req.refresh && !load.refresh && (load.tradeCount > 0 || !load.walk)) {
        const top = await walletBatches(db, id).last();
        const epoch = top && req.mode === 'api' ? Number(top.order.slice(0, 6)) + 1 : 0;
        load.refresh = { ...newWalk(epoch), stopAt: req.mode === 'api' ? load.headFp : load.head };
      }
      load.status = 'loading';
      load.error = null;
      load.errorCode = null;
      load.updatedAt = t;
      await db.loads.put(load);
      return load;
    });
  }

  private async run(id: string, req: LoadRequest, signal: AbortSignal): Promise<LoadRow> {
    let load = await this.prepare(id, req);
    this.deps.onProgress?.(load);
    const meter = new RateMeter();
    meter.add(this.now(), 0);
    // The refresh first (newest trades are what a returning person wants), then the walk back.
    for (const phase of ['refresh', 'walk'] as const) {
      if (!load[phase]) continue;
      load = req.mode === 'api' ? await this.apiPhase(id, req, phase, signal, meter) : await this.rpcPhase(id, req, phase, signal, meter);
    }
    // Paused or cancelled: load() records why.
    if (signal.aborted) throw new DOMException('stopped', 'AbortError');
    return this.update(id, (r) => {
      if (!r.walk && !r.refresh) r.status = 'complete';
      r.rate = 0;
    });
  }

  /** Stores one batch and the state it reached in one transaction. */
  private async commit(
    id: string,
    phase: 'walk' | 'refresh',
    rows: TradeRow[],
    received: number,
    meter: RateMeter,
    mutate: (r: LoadRow, state: WalkState | null) => void,
  ): Promise<LoadRow> {
    const { db } = this.deps;
    const t = this.now();
    return db.transaction('rw', db.batches, db.loads, async () => {
      const r = (await db.loads.get(id))!;
      const state = r[phase];
      if (rows.length) await db.batches.put({ walletId: id, order: rows[0].order, trades: rows.map(stripRow) });
      r.tradeCount += rows.length;
      r.received += received;
      if (rows.length && r.firstBatchAt == null) r.firstBatchAt = t;
      r.rate = meter.add(t, rows.length);
      r.updatedAt = t;
      mutate(r, state);
      await db.loads.put(r);
      this.deps.onProgress?.(r);
      return r;
    });
  }

  private async apiPhase(id: string, req: LoadRequest, phase: 'walk' | 'refresh', signal: AbortSignal, meter: RateMeter): Promise<LoadRow> {
    const { db } = this.deps;
    let load = (await db.loads.get(id))!;
    let failures = 0;
    while (load[phase] && !signal.aborted) {
      // The walk's state is advanced here line by line and written with the rows that reached it.
      const st: WalkState = { ...load[phase]! };
      let headFp = load.headFp;
      let tailFp = load.tailFp;
      let sawFinal = false;
      let finished = false;
      let newThisCall = 0;
      let final: FinalLine | null = null;
      let pendingRows: TradeRow[] = [];
      let pendingReceived = 0;
      let inflight: Promise<void> | null = null;
      let flushError: unknown = null;
      // One transaction stores the pending rows with the state they reached. Parsing runs ahead
      // while a transaction is open, so when IndexedDB is the bottleneck the next transaction
      // takes everything parsed meanwhile: fewer, larger transactions. Measured on 100,000 trades
      // in headless Chromium here: one record per trade, about 5,000 trades/s; one record per
      // coalesced batch (db.ts), 21,000-47,000 trades/s (the spread is other load on the 2 cores).
      const flush = async (): Promise<void> => {
        const rows = pendingRows;
        const received = pendingReceived;
        pendingRows = [];
        pendingReceived = 0;
        const snap: WalkState = { ...st };
        const done = finished;
        const fin = final;
        const hf = headFp;
        const tf = tailFp;
        load = await this.commit(id, phase, rows, received, meter, (r) => {
          r.tailFp = tf;
          r.headFp = hf;
          if (fin) {
            r.serverTradeCount = fin.tradeCount;
            r.firstTrade = fin.firstTrade;
          }
          if (!done) r[phase] = snap;
          else {
            // A refresh's first trades are the new head, once it has met what was stored.
            if (phase === 'refresh' && snap.newHead) r.headFp = snap.newHead;
            r[phase] = null;
          }
        });
      };
      const kick = () => {
        if (inflight) return;
        inflight = flush().then(
          () => void (inflight = null),
          (e: unknown) => {
            inflight = null;
            flushError = e;
          },
        );
      };
      try {
        for await (const line of streamHistory(this.deps.api(), req.chain, req.address, st.cursor, signal)) {
          failures = 0;
          if (flushError) throw flushError;
          if (line.kind === 'final') {
            sawFinal = true;
            final = line;
            if (line.complete) finished = true;
            else if (line.cursor) st.cursor = line.cursor;
            break;
          }
          let trades: Trade[] = line.trades;
          pendingReceived += trades.length;
          if (st.skipUntil) {
            // After a restart: drop what is already stored, up to and including the last stored trade.
            const k = trades.findIndex((t) => fingerprint(t) === st.skipUntil);
            if (k < 0) trades = [];
            else {
              trades = trades.slice(k + 1);
              st.skipUntil = null;
            }
          }
          if (phase === 'refresh' && st.stopAt) {
            const stop = st.stopAt;
            const k = trades.findIndex((t) => fingerprint(t) === stop);
            if (k >= 0) {
              trades = trades.slice(0, k);
              finished = true;
            }
          }
          for (let i = 0; i < trades.length; i++) {
            pendingRows.push({ ...trades[i], walletId: id, order: apiOrder(st.epoch, st.index + i) });
          }
          st.cursor = line.cursor;
          st.index += trades.length;
          newThisCall += trades.length;
          if (trades.length) {
            st.lastFp = fingerprint(trades[trades.length - 1]);
            if (phase === 'walk') {
              tailFp = st.lastFp;
              headFp ??= fingerprint(trades[0]);
            } else if (st.index === trades.length) {
              st.newHead = fingerprint(trades[0]);
            }
          }
          if (finished) break;
          // Back-pressure: 20,000 parsed rows (~10 MB) at most wait for the open transaction.
          if (inflight && pendingRows.length >= 20_000) await inflight;
          kick();
          // A buffered body yields line after line in microtasks, which would hold IndexedDB's
          // completion events back until the buffer is parsed: give them a turn after each line.
          await nextTurn();
        }
        if (inflight) await inflight;
        if (flushError) throw flushError;
        // Paused too: what was parsed is stored with its cursor, so a resume does not ask for it again.
        if (pendingRows.length || pendingReceived || final || finished) await flush();
      } catch (e) {
        if (inflight) await inflight;
        if (signal.aborted) {
          if (!flushError && (pendingRows.length || pendingReceived)) await flush();
          throw e;
        }
        if (e instanceof ApiError && e.code === 'invalid_cursor') {
          // The server refused the cursor (secret rotated, say): walk again from the top and skip
          // what is stored, up to the last stored trade of this walk. Stored rows are never re-added.
          load = await this.commit(id, phase, [], 0, meter, (r, s) => {
            s!.cursor = null;
            s!.skipUntil = s!.lastFp;
            r.restarts += 1;
          });
          continue;
        }
        if (e instanceof ApiError && e.status < 500 && e.status !== 429) throw e;
        // Network or server trouble mid-stream: what is stored stays; retry from the stored cursor.
        if (++failures > 3) throw e;
        await sleep(this.deps.retryDelayMs ?? 1000, signal);
        load = (await db.loads.get(id))!;
        continue;
      }
      if (finished) break;
      if (!sawFinal && !signal.aborted) {
        if (++failures > 3) throw new Error('The stream ended without its final line.');
      }
      // complete:false: the server keeps loading in the background; ask again after a pause when
      // the last call brought nothing new, at once otherwise.
      if (!signal.aborted && newThisCall === 0) await sleep(this.deps.retryDelayMs ?? 1000, signal);
      load = (await db.loads.get(id))!;
    }
    return load;
  }

  private async rpcPhase(id: string, req: LoadRequest, phase: 'walk' | 'refresh', signal: AbortSignal, meter: RateMeter): Promise<LoadRow> {
    const { db } = this.deps;
    if (!this.deps.source) throw new Error('Direct mode is not available here.');
    const source = await this.deps.source(req);
    let load = (await db.loads.get(id))!;
    const state = load[phase]!;
    const iter = source.history({
      wallet: req.address,
      before: state.cursor ?? undefined,
      until: phase === 'refresh' ? (state.stopAt ?? undefined) : undefined,
      signal,
    });
    for await (const batch of iter) {
      if (signal.aborted) break;
      const rows: TradeRow[] = batch.trades.map((t) => ({
        signature: t.signature,
        side: t.side,
        token: t.token,
        tokenMint: t.tokenMint,
        amountSol: t.amountSol,
        amount: t.amount,
        dex: t.dex,
        blockTime: t.blockTime,
        walletId: id,
        order: tradeKey(t.position, t.leg),
      }));
      load = await this.commit(id, phase, rows, rows.length, meter, (r, state) => {
        const s = state!;
        s.cursor = batch.position;
        if (batch.head) {
          if (phase === 'walk' && !r.head) r.head = batch.head;
          if (phase === 'refresh' && !s.newHead) s.newHead = batch.head;
        }
        if (batch.done) {
          if (phase === 'walk') r.walk = null;
          else {
            if (s.newHead) r.head = s.newHead;
            r.refresh = null;
          }
        }
      });
      if (batch.done) break;
    }
    return load;
  }
}
