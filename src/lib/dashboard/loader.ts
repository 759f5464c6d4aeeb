/**
 * Loading a wallet into IndexedDB, from this server's /v1 stream or straight from a chain RPC.
 * Runs in the worker (loader.worker.ts) and in Node tests (fake-indexeddb, an injected fetch).
 *
 * Every batch is stored together with the position it reached in one Dexie transaction, so a
 * reload or a closed tab resumes exactly after the last stored trade: no gap, no duplicate.
 */
import type { SourceUnexplained } from '../core/activity.js';
import type { ChainSource, HistoryBatch } from '../core/chain-source.js';
import { tradeKey, type SourceTrade } from '../core/trade.js';
import { ApiError, type ApiConfig } from './api-client.js';
import type { Phase } from './api-phase/api-call.js';
import { apiPhase } from './api-phase/api-phase.js';
import { syncUnexplained } from './api-phase/unexplained-list.js';
import {
  newWalk,
  stagingId,
  storedTrade,
  walletBatches,
  walletId,
  unexplainedRow,
  walletUnexplained,
  type BatchRow,
  type DashboardDb,
  type LoadMode,
  type LoadRow,
  type TradeRow,
  type TradeUsd,
  type WalkState,
} from './db.js';
import { redecodeDirect, versionCheck } from './redecode-direct.js';
import { dropStaged, startReread, swapStaged } from './reread.js';

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
  /** Direct mode: a failure said in words that tell what to configure (the worker's: direct-failure.ts), or null to keep it. */
  explainFailure?: (e: unknown, req: LoadRequest) => Promise<{ code: string; message: string } | null>;
  /**
   * Direct mode: the USD figures of a batch's trades (issue 22; the worker's reads the chain's own
   * feed), in order, or null when they could not be had (the trades are stored without them).
   */
  prices?: (req: LoadRequest, trades: readonly SourceTrade[]) => Promise<TradeUsd[] | null>;
}

/**
 * API mode: a wallet stored without some of its prices (the price RPC was down or slow, or the rows
 * predate prices) is re-read from the top for them at the start of a later load, no more often.
 */
export const PRICES_REREAD_MS = 600_000;

/**
 * Whether a load should start by re-reading the wallet for its prices: some are missing, the
 * history is whole (a walk under way goes on first) and the last such re-read is old enough, the
 * wait doubling after each one that still missed some (a price RPC down for long costs one
 * re-read every 10 min, 20, 40, ... up to about 11 hours, not one every 10 minutes).
 */
function pricesRereadDue(r: LoadRow, now: number): boolean {
  if (r.tradeCount === 0 || r.pricesComplete === true || r.walk || r.reread) return false;
  const wait = PRICES_REREAD_MS * 2 ** Math.min(6, Math.max(0, (r.pricesRereads ?? 0) - 1));
  return now - (r.pricesRereadAt ?? -Infinity) >= wait;
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
        const explained = req.mode === 'rpc' ? await this.deps.explainFailure?.(e, req).catch(() => null) : null;
        const code = explained?.code ?? (e instanceof ApiError ? e.code : 'error');
        return this.update(id, (r) => {
          r.status = 'error';
          r.error = explained?.message ?? (e instanceof Error ? e.message : String(e));
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
    await db.transaction('rw', [db.batches, db.unexplained, db.loads], async () => {
      await walletBatches(db, id).delete();
      await walletUnexplained(db, id).delete();
      await dropStaged(db, id);
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
    return db.transaction('rw', [db.wallets, db.batches, db.unexplained, db.loads], async () => {
      const w = await db.wallets.get(id);
      let load = await db.loads.get(id);
      // A wallet switched between API and RPC mode starts over: the two orders do not mix.
      if ((w && w.mode !== req.mode) || (load && load.mode !== req.mode)) {
        await walletBatches(db, id).delete();
        await walletUnexplained(db, id).delete();
        await dropStaged(db, id);
        load = undefined;
      }
      // The row's other fields (the person's label, the portfolio choice) stay as they were.
      await db.wallets.put({
        ...w,
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
          reread: null,
          redecode: null,
          decoderVersion: null,
          pricesComplete: true,
          generation: 0,
          headFp: null,
          tailFp: null,
          head: null,
          tradeCount: 0,
          unexplainedCount: 0,
          serverUnexplained: null,
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
      } else if (req.refresh && !load.refresh && !load.reread && (load.tradeCount > 0 || !load.walk)) {
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
    const source = req.mode === 'rpc' ? await this.directSource(req) : null;
    if (!source && pricesRereadDue(load, this.now())) {
      await startReread(this.deps.db, id, load.decoderVersion ?? 0, this.now());
      load = await this.update(id, (r) => {
        r.pricesRereadAt = this.now();
        r.pricesRereads = (r.pricesRereads ?? 0) + 1;
      });
    }
    // Direct mode: rows of an older decoder than the source's are decoded again (redecode-direct.ts).
    if (source) load = await versionCheck(this.deps.db, id, source, this.now());
    // A re-read first (it replaces everything), then the refresh (newest trades are what a
    // returning person wants), the stored transactions decoded again, then the walk back. A phase
    // that ends without finishing (the stream stopped early) ends the run, unless a re-read took over.
    for (let phase = nextPhase(load); phase && !signal.aborted;) {
      if (phase === 'redecode') load = await redecodeDirect(this.deps, id, req.address, source!, signal, this.now);
      else if (source) load = await this.rpcPhase(id, req, phase, source, signal, meter);
      else load = await this.apiPhase(id, req, phase, signal, meter);
      const next = nextPhase(load);
      if (next === phase || (next && next !== 'reread' && order(next) < order(phase))) break;
      phase = next;
    }
    // Paused or cancelled: load() records why.
    if (signal.aborted) throw new DOMException('stopped', 'AbortError');
    return this.update(id, (r) => {
      if (!nextPhase(r)) r.status = 'complete';
      r.rate = 0;
    });
  }

  private async directSource(req: LoadRequest): Promise<ChainSource> {
    if (!this.deps.source) throw new Error('Direct mode is not available here.');
    return this.deps.source(req);
  }

  /**
   * Stores one batch and the state it reached in one transaction. A re-read's rows go to the
   * staging area, and its last write swaps them in (reread.ts). Direct mode keeps each trade's key
   * and stores the batch's unexplained transactions (`listed`) with its trades.
   */
  private async commit(
    id: string,
    phase: Phase,
    rows: TradeRow[],
    received: number,
    meter: RateMeter,
    mutate: (r: LoadRow, state: WalkState | null) => void,
    keyed = false,
    listed: readonly SourceUnexplained[] = [],
  ): Promise<LoadRow> {
    const { db } = this.deps;
    const t = this.now();
    return db.transaction('rw', [db.batches, db.unexplained, db.loads], async () => {
      const r = (await db.loads.get(id))!;
      const state = r[phase] ?? null;
      const staged = phase === 'reread';
      const owner = staged ? stagingId(id) : id;
      if (rows.length) {
        const batch: BatchRow = { walletId: owner, order: rows[0].order, trades: rows.map(storedTrade) };
        if (keyed) batch.keys = rows.map((x) => x.order);
        await db.batches.put(batch);
      }
      if (listed.length) {
        // Keyed by place: one stored again after a restart replaces itself.
        await db.unexplained.bulkPut(listed.map((u) => unexplainedRow(owner, u)));
        if (!staged) r.unexplainedCount = await walletUnexplained(db, id).count();
      }
      if (!staged) r.tradeCount += rows.length;
      r.received += received;
      if (rows.length && r.firstBatchAt == null) r.firstBatchAt = t;
      r.rate = meter.add(t, rows.length);
      r.updatedAt = t;
      mutate(r, state);
      if (staged && state && !r.reread) {
        r.tradeCount = await swapStaged(db, id, keyed);
        if (keyed) r.unexplainedCount = await walletUnexplained(db, id).count();
        r.generation = (r.generation ?? 0) + 1;
      }
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
      supersede: (version: number) => startReread(this.deps.db, id, version, this.now()),
      listed: (count: number | null, force: boolean) =>
        syncUnexplained({ db: this.deps.db, api: this.deps.api(), onProgress: this.deps.onProgress }, id, req, count, force, signal),
      retryDelayMs: this.deps.retryDelayMs ?? 1000,
    };
    return apiPhase(deps, id, req, phase, signal);
  }

  /** Direct mode: the chain source's walk back, a refresh down to the stored head, or a re-read of everything. */
  private async rpcPhase(id: string, req: LoadRequest, phase: Phase, source: ChainSource, signal: AbortSignal, meter: RateMeter): Promise<LoadRow> {
    const { db } = this.deps;
    let load = (await db.loads.get(id))!;
    const state = load[phase]!;
    const iter = source.history({
      wallet: req.address,
      before: state.cursor ?? undefined,
      until: phase === 'refresh' ? (state.stopAt ?? undefined) : undefined,
      signal,
    });
    let priced = true;
    for await (const batch of iter) {
      if (signal.aborted) break;
      // After one failure the rest of the walk goes without prices rather than waiting on a dead feed.
      const usd = priced && batch.trades.length ? await this.deps.prices?.(req, batch.trades).catch(() => null) : undefined;
      if (usd === null) priced = false;
      const rows: TradeRow[] = batch.trades.map((t, i) => ({
        signature: t.signature,
        side: t.side,
        token: t.token,
        tokenMint: t.tokenMint,
        amountSol: t.amountSol,
        amount: t.amount,
        dex: t.dex,
        blockTime: t.blockTime,
        ...(usd ? usd[i] : {}),
        walletId: id,
        order: tradeKey(t.position, t.leg),
      }));
      const reached = (r: LoadRow, state: WalkState | null) => {
        if (usd === null) r.pricesComplete = false;
        directReached(r, state!, phase, batch);
      };
      load = await this.commit(id, phase, rows, rows.length, meter, reached, true, batch.unexplained);
      if (batch.done) break;
    }
    return load;
  }
}

/** Direct mode: the state a batch of the source moved a phase to. */
function directReached(r: LoadRow, s: WalkState, phase: Phase, batch: HistoryBatch): void {
  s.cursor = batch.position;
  if (batch.head) {
    if (phase === 'walk' && !r.head) r.head = batch.head;
    if (phase !== 'walk' && !s.newHead) s.newHead = batch.head;
  }
  if (!batch.done) return;
  if (phase === 'walk') r.walk = null;
  else if (phase === 'refresh') {
    if (s.newHead) r.head = s.newHead;
    r.refresh = null;
  } else {
    // The whole history read again: it becomes the wallet's rows (the commit swaps them in).
    r.head = s.newHead ?? r.head;
    r.decoderVersion = s.version ?? null;
    r.walk = r.refresh = r.reread = r.redecode = null;
  }
}

type RunPhase = Phase | 'redecode';
/** The order phases run in: a re-read replaces everything; a refresh, the re-decode and the walk back follow. */
const PHASES: readonly RunPhase[] = ['reread', 'refresh', 'redecode', 'walk'];
const order = (p: RunPhase) => PHASES.indexOf(p);
function nextPhase(r: LoadRow): RunPhase | null {
  return PHASES.find((p) => r[p]) ?? null;
}
