/**
 * Following a wallet live (issue 24; decisions.md "Following a wallet live"), in the loader worker.
 *
 * API mode: a follow stream (`follow=true`) stays open; each live line's trades are stored at the
 * top of the wallet's order with the `liveCursor` past them, in one transaction, so a reopened
 * stream (after a reload, the tab sleeping, a network drop or the stream's end line) resumes from
 * the stored cursor with no gap and no repeat. Without a stored cursor (Live just turned on) the
 * stream is opened from the top: the history part's trades above the stored head are stored like a
 * refresh's, the rest only skipped, and its final line's `liveCursor` starts where they end.
 *
 * Direct mode: the chain source's own realtime stage (the server's code) tells when the wallet may
 * have something new, and the loader's refresh (the read above the stored head a reload does)
 * fetches it; a source without a stage is polled.
 *
 * Nothing here decides what is a trade: a notice only triggers a read, so a missed one costs
 * latency, never a trade.
 */
import { pollingRealtime, type ChainSource, type RealtimeParameters } from '../core/chain-source.js';
import { ApiError, errorFromResponse, type ApiConfig } from './api-client.js';
import { apiOrder, fingerprint, walletBatches, type DashboardDb, type LiveState, type LoadRow, type StoredTrade } from './db.js';
import type { LoadRequest, WalletLoader } from './loader.js';
import { parseFollowLine, readLines } from './ndjson.js';
import { reverseByTransaction } from './pnl.js';

/** No line for this long (the server sends one at least every 15 s): the connection is taken as dead and reopened. */
export const LIVE_SILENCE_MS = 25_000;
/** Reconnect waits: from 1 s, doubling, at most 30 s (a wake, such as the network coming back, cuts it short). */
export const LIVE_RETRY_MS = 1_000;
export const LIVE_RETRY_MAX_MS = 30_000;
/** Direct mode, a source without a realtime stage: how often the wallet is read above its head. */
export const DIRECT_POLL_MS = 15_000;

/** The follow stream's URL: from the stored forward cursor, or from the top (history first) without one. */
export function liveUrl(base: string, chain: string, address: string, liveCursor: string | null): string {
  const q = new URLSearchParams({ chain, include: 'usd', follow: 'true' });
  if (liveCursor) q.set('liveCursor', liveCursor);
  return `${base}/v1/wallets/${encodeURIComponent(address)}/history?${q}`;
}

/**
 * Stores trades that arrived live (newest first) above every stored one, in the next epoch (db.ts:
 * a higher epoch sorts above), with the cursor past them, in one transaction: a reload between
 * the two can neither lose nor repeat them. `liveCursor` undefined keeps the stored one.
 */
export async function storeLive(
  db: DashboardDb,
  id: string,
  trades: readonly StoredTrade[],
  liveCursor: string | null | undefined,
  now: number,
): Promise<LoadRow | null> {
  return db.transaction('rw', [db.batches, db.loads], async () => {
    const r = await db.loads.get(id);
    if (!r) return null;
    if (trades.length) {
      const top = await walletBatches(db, id).last();
      const epoch = top ? Number(top.order.slice(0, 6)) + 1 : 0;
      await db.batches.put({ walletId: id, order: apiOrder(epoch, 0), trades: [...trades] });
      r.tradeCount += trades.length;
      r.received += trades.length;
      r.headFp = fingerprint(trades[0]);
      r.tailFp ??= fingerprint(trades[trades.length - 1]);
    }
    if (liveCursor !== undefined) r.liveCursor = liveCursor;
    r.liveCheckedAt = now;
    r.liveState = 'live';
    r.updatedAt = now;
    await db.loads.put(r);
    return r;
  });
}

/** The wallet's live state (and the time of a check), as the page shows it. */
export async function markLive(db: DashboardDb, id: string, state: LiveState | null, now: number, checked = false): Promise<LoadRow | null> {
  return db.transaction('rw', db.loads, async () => {
    const r = await db.loads.get(id);
    if (!r) return null;
    r.liveState = state;
    if (checked) r.liveCheckedAt = now;
    if (state === null) r.liveCheckedAt = null;
    r.updatedAt = now;
    await db.loads.put(r);
    return r;
  });
}

export interface FollowDeps {
  db: DashboardDb;
  api: () => ApiConfig;
  now: () => number;
  onProgress?: (row: LoadRow) => void;
  silenceMs?: number;
}

/**
 * One follow stream, read until it ends: 'end' after the server's end line (reopen at once),
 * 'closed' when it stopped without one (a failure: reopen after a wait). Throws what the request
 * threw (ApiError before the first byte). `onLine` is called at each line (the server answers).
 */
export async function followOnce(
  deps: FollowDeps,
  id: string,
  wallet: { chain: string; address: string },
  signal: AbortSignal,
  onLine: () => void,
): Promise<'end' | 'closed'> {
  const cfg = deps.api();
  const load = await deps.db.loads.get(id);
  if (!load) throw new Error('The wallet is not loaded.');
  const from = load.liveCursor ?? null;
  const ctl = new AbortController();
  const stop = () => ctl.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A connection that died without closing (a sleeping laptop, a network that went away) sends
  // nothing more: no line in LIVE_SILENCE_MS means reopen.
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => ctl.abort(new Error('The follow stream went silent.')), deps.silenceMs ?? LIVE_SILENCE_MS);
  };
  const store = async (trades: readonly StoredTrade[], cursor: string | undefined) => {
    const r = await storeLive(deps.db, id, trades, cursor, deps.now());
    if (r) deps.onProgress?.(r);
  };
  try {
    arm();
    const f = cfg.fetch ?? fetch;
    const res = await f(liveUrl(cfg.baseUrl, wallet.chain, wallet.address, from), {
      headers: { authorization: `Bearer ${cfg.apiKey}`, accept: 'application/x-ndjson' },
      signal: ctl.signal,
      cache: 'no-store',
    });
    if (!res.ok || !res.body) throw await errorFromResponse(res);
    const catchUp = new CatchUp(from === null ? load : null);
    for await (const text of readLines(res.body, ctl.signal)) {
      arm();
      onLine();
      // Below the stored head the history part is only skipped: not even parsed.
      if (catchUp.skipping && text.startsWith('{"trades":') && !text.endsWith('"live":true}')) continue;
      const line = parseFollowLine(text);
      if (line.kind === 'batch') catchUp.add(line.trades);
      else if (line.kind === 'final') {
        if (!line.liveCursor) throw new ApiError(501, 'follow_unsupported', 'This server does not follow wallets live.');
        // The liveCursor of a stream resumed from one never comes on a final line (it has no history part).
        await store(catchUp.take(), line.liveCursor);
      } else {
        await store(reverseByTransaction(line.trades), line.liveCursor);
        // Ended on a refusal (the key revoked): the server's reason, as a refused request would say it.
        if (line.error?.code === 'unauthorized') throw new ApiError(401, line.error.code, line.error.detail);
        if (line.end) return 'end';
      }
    }
    return 'closed';
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}

/**
 * The history part of a follow stream opened from the top (no stored cursor): newest first, the
 * trades above the stored head are new, the head and what follows are stored already. Where the
 * head never shows (the server decoded the wallet again, say) nothing is added: a re-read, not
 * this, brings the rows in line.
 */
export class CatchUp {
  private fresh: StoredTrade[] = [];
  private met = false;

  constructor(private readonly load: Pick<LoadRow, 'headFp' | 'tradeCount'> | null) {}

  /** Past the stored head: the rest of the history part is skipped. */
  get skipping(): boolean {
    return this.load === null || this.met;
  }

  add(trades: readonly StoredTrade[]): void {
    if (this.skipping || !this.load) return;
    const head = this.load.headFp;
    const k = head ? trades.findIndex((t) => fingerprint(t) === head) : -1;
    if (k >= 0) {
      this.met = true;
      for (let i = 0; i < k; i++) this.fresh.push(trades[i]);
    } else for (const t of trades) this.fresh.push(t);
  }

  /** What to store at the final line: the new trades, newest first (all of them for a wallet that had none). */
  take(): StoredTrade[] {
    const out = this.load && (this.met || this.load.tradeCount === 0) ? this.fresh : [];
    this.fresh = [];
    return out;
  }
}

/** What following needs from the worker: the loader (its load and refresh), the chain sources, the network's state. */
export interface LiveDeps extends FollowDeps {
  loader: WalletLoader;
  source?: (req: LoadRequest) => Promise<ChainSource>;
  online: () => boolean;
}

/**
 * The wallets followed live in this worker, each until turned off. `wake()` ends every wait (the
 * network back, the tab visible again); `offline()` drops the open streams at once rather than
 * waiting for them to go silent.
 */
export class LiveFollower {
  private readonly followed = new Map<string, AbortController>();
  private readonly streams = new Set<AbortController>();
  private waiters = new Set<() => void>();

  constructor(private readonly deps: LiveDeps) {}

  isFollowing(id: string): boolean {
    return this.followed.has(id);
  }

  start(id: string, req: LoadRequest): void {
    if (this.followed.has(id)) return;
    const ctl = new AbortController();
    this.followed.set(id, ctl);
    const run = req.mode === 'rpc' ? this.direct(id, req, ctl.signal) : this.api(id, req, ctl.signal);
    void run
      .catch(() => {})
      .finally(() => {
        if (this.followed.get(id) === ctl) this.followed.delete(id);
      });
  }

  async stop(id: string): Promise<void> {
    const ctl = this.followed.get(id);
    this.followed.delete(id);
    ctl?.abort();
    const r = await markLive(this.deps.db, id, null, this.deps.now());
    if (r) this.deps.onProgress?.(r);
  }

  wake(): void {
    const w = this.waiters;
    this.waiters = new Set();
    for (const f of w) f();
  }

  offline(): void {
    for (const s of this.streams) s.abort(new Error('offline'));
  }

  /** Resolves after `ms`, at a wake, or when `signal` aborts. */
  private pause(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.waiters.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Following stops on a refusal: the reason on the load row (a 401 marks the key refused), the toggle off. */
  private async refused(id: string, e: ApiError): Promise<void> {
    this.followed.delete(id);
    await this.deps.db.wallets.update(id, { live: false });
    const r = await this.deps.db.transaction('rw', this.deps.db.loads, async () => {
      const row = await this.deps.db.loads.get(id);
      if (!row) return null;
      Object.assign(row, { liveState: null, liveCheckedAt: null, error: e.message, errorCode: e.code, updatedAt: this.deps.now() });
      await this.deps.db.loads.put(row);
      return row;
    });
    if (r) this.deps.onProgress?.(r);
  }

  private async mark(id: string, state: LiveState, checked = false): Promise<void> {
    const r = await markLive(this.deps.db, id, state, this.deps.now(), checked);
    if (r) this.deps.onProgress?.(r);
  }

  /** The history first: a walk or re-read under way is finished by the loader before live lines are stored above it. */
  private async loaded(id: string, req: LoadRequest, signal: AbortSignal): Promise<boolean> {
    const r = await this.deps.db.loads.get(id);
    if (r && r.status === 'complete' && !r.walk && !r.refresh && !r.reread && !this.deps.loader.isRunning(id)) return true;
    const done = await this.deps.loader.load({ ...req, refresh: false });
    if (signal.aborted) return false;
    return done?.status === 'complete';
  }

  private async api(id: string, req: LoadRequest, signal: AbortSignal): Promise<void> {
    let wait = LIVE_RETRY_MS;
    while (!signal.aborted) {
      if (!this.deps.online()) {
        await this.mark(id, 'offline');
        await this.pause(LIVE_RETRY_MAX_MS, signal);
        continue;
      }
      if (!(await this.loaded(id, req, signal))) {
        if (!signal.aborted) await this.mark(id, 'offline');
        await this.pause(wait, signal);
        wait = Math.min(wait * 2, LIVE_RETRY_MAX_MS);
        continue;
      }
      await this.mark(id, 'connecting');
      const stream = new AbortController();
      const stop = () => stream.abort();
      signal.addEventListener('abort', stop, { once: true });
      this.streams.add(stream);
      try {
        const how = await followOnce(this.deps, id, req, stream.signal, () => (wait = LIVE_RETRY_MS));
        if (how === 'end') continue;
      } catch (e) {
        if (signal.aborted) return;
        // The stored cursor is refused (the server's secret changed): catch up from the top again.
        if (e instanceof ApiError && e.code === 'invalid_cursor') {
          await this.deps.db.loads.update(id, { liveCursor: null });
          continue;
        }
        // Any other refusal (the key revoked, a server that does not follow) is not retried: as the
        // loader's retry policy has it, a 4xx but 429 ends it. Live is turned off with the reason.
        if (e instanceof ApiError && e.status < 500 && e.status !== 429) return this.refused(id, e);
      } finally {
        this.streams.delete(stream);
        signal.removeEventListener('abort', stop);
      }
      if (signal.aborted) return;
      await this.mark(id, 'offline');
      await this.pause(wait, signal);
      wait = Math.min(wait * 2, LIVE_RETRY_MAX_MS);
    }
  }

  private async direct(id: string, req: LoadRequest, signal: AbortSignal): Promise<void> {
    if (!this.deps.source) throw new Error('Direct mode is not available here.');
    await this.mark(id, 'connecting');
    const source = await this.deps.source(req);
    let due = true;
    const stage = source.realtime ? (p: RealtimeParameters) => source.realtime!(p) : pollingRealtime(DIRECT_POLL_MS);
    void stage({
      wallets: () => [req.address],
      onActivity: () => {
        due = true;
        this.wake();
      },
      signal,
    }).catch(() => {});
    while (!signal.aborted) {
      if (!this.deps.online()) {
        await this.mark(id, 'offline');
        // What came meanwhile is read once the network is back.
        due = true;
      } else if (due) {
        due = false;
        // The read a reload does above the stored head: new trades slide in on top.
        const r = await this.deps.loader.load({ ...req, refresh: true });
        if (signal.aborted) return;
        await this.mark(id, r?.status === 'error' ? 'offline' : 'live', r?.status !== 'error');
        if (r?.status === 'error') due = true;
      }
      // A realtime notice or a wake brings the next read; the stage's own poll (or ours) at the latest.
      await this.pause(LIVE_RETRY_MAX_MS, signal);
    }
  }
}
