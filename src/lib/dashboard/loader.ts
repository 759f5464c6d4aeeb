/**
 * Loading a wallet into IndexedDB, from this server's /v1 stream or straight from a chain RPC.
 * Runs in the worker (loader.worker.ts) and in Node tests (fake-indexeddb, an injected fetch).
 *
 * Every batch is stored together with the position it reached in one Dexie transaction, so a
 * reload or a closed tab resumes exactly after the last stored trade: no gap, no duplicate.
 */
import type { ChainSource } from '../core/chain-source.js';
import { tradeKey } from '../core/trade.js';
import { ApiError, type ApiConfig } from './api-client.js';
import type { Phase } from './api-phase/api-call.js';
import { apiPhase } from './api-phase/api-phase.js';
import { walletId, type DashboardDb, type LoadMode, type LoadRow, type TradeRow, type WalkState, stripRow, walletBatches } from './db.js';

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
    phase: Phase,
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

  /** API mode: this server's /v1 stream, read call after call (api-phase/). */
  private apiPhase(id: string, req: LoadRequest, phase: Phase, signal: AbortSignal, meter: RateMeter): Promise<LoadRow> {
    const deps = {
      db: this.deps.db,
      api: this.deps.api,
      commit: (rows: TradeRow[], received: number, mutate: (r: LoadRow, state: WalkState | null) => void) =>
        this.commit(id, phase, rows, received, meter, mutate),
      retryDelayMs: this.deps.retryDelayMs ?? 1000,
    };
    return apiPhase(deps, id, req, phase, signal);
  }

  private async rpcPhase(id: string, req: LoadRequest, phase: Phase, signal: AbortSignal, meter: RateMeter): Promise<LoadRow> {
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
