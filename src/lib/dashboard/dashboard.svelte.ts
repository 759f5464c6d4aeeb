/**
 * The dashboard's state and actions, as svelte.dev's REPL keeps its bundler: a class that owns
 * its workers (the loader, which fills IndexedDB, and the PnL computation) and exposes `$state`
 * the components read. Construct it during a component's initialisation (its effects belong to
 * that component) and call `start()` in `onMount` (workers exist only in the browser).
 */
import * as Comlink from 'comlink';
import { liveQuery } from 'dexie';
import { replaceState } from '$app/navigation';
import { fetchChains, type ChainInfo } from './api-client.js';
import { parsePublicChains } from '../chains/registry.js';
import { FALLBACK_CHAINS } from './chains.js';
import {
  deleteWallet,
  getDb,
  getSetting,
  putSetting,
  walletId,
  walletUnexplained,
  type LoadMode,
  type LoadRow,
  type TradeRow,
  type UnexplainedRow,
  type WalletRow,
} from './db.js';
import type { LoaderWorkerApi } from './loader.worker.js';
import { downloadText } from './download.js';
import type { ExportFormat } from '../pnl/export-csv.js';
import type { PnlMethod, PnlPoint } from './pnl.js';
import type { PnlWorkerApi, WalletPnl } from './pnl.worker.js';
import { arrivedOnTop, NO_ROWS } from './live-view.js';
import { Portfolio } from './portfolio.svelte.js';
import { exportFileName } from './portfolio.js';
import { TradeMirror } from './trade-mirror.js';

/**
 * While loading, PnL is recomputed at most this often, and never sooner than PNL_LOADING_GAP times
 * the last computation took (reading a large wallet and the engine over it take a core for most of
 * a second, which the loader and the page need while it loads); at once when loading stops.
 */
const PNL_WHILE_LOADING_MS = 1500;
const PNL_LOADING_GAP = 4;
/** How long a trade that arrived live stays highlighted in the table. */
const FRESH_MS = 4000;
/** `#portfolio` in the URL: the portfolio view (a wallet id always has a colon, so none is this). */
const PORTFOLIO_HASH = 'portfolio';

export class Dashboard {
  readonly db = getDb();
  chains = $state<ChainInfo[]>(FALLBACK_CHAINS);
  apiKey = $state('');
  /**
   * What the server last said of the key: `ok` (an answer to it), `refused` (401), `unchecked`
   * (none yet, or offline). Checked when saved and at start, and a load refused with 401 marks it.
   */
  keyState = $state<'unchecked' | 'ok' | 'refused'>('unchecked');
  rpcUrl = $state('');
  online = $state(true);
  ready = $state(false);
  selected = $state<string | null>(null);
  /** The selected wallet's load state (it sees the worker's writes). */
  load = $state<LoadRow | null>(null);
  /**
   * Trades are coming in (a load, or a live follow): the PnL is computed at most every 1.5 s.
   * Derived, so the PnL effect re-runs when this changes, not at every write to the load row (a
   * live stream's keep-alive every 15 s, a realtime check every 3 s).
   */
  #arriving = $derived(this.load?.status === 'loading' || this.load?.liveState === 'live');
  /** The selected wallet's trades, in the API's delivery order. */
  rows = $state.raw<TradeRow[]>([]);
  /** The selected wallet's transactions no trade explains (issue 20), newest first. */
  unexplained = $state.raw<UnexplainedRow[]>([]);
  /** The selected wallet's PnL by `method`, and the chart's points (computed after the figures). */
  pnl = $state.raw<WalletPnl | null>(null);
  series = $state.raw<{ method: PnlMethod; points: PnlPoint[] } | null>(null);
  dexes = $state.raw<string[]>([]);
  /** Trades that just slid in on top while following live: highlighted for a moment. */
  fresh = $state.raw<ReadonlySet<TradeRow>>(NO_ROWS);
  /** Average cost or FIFO lots, for every figure shown; remembered in the settings. */
  method = $state<PnlMethod>('average');
  /** What the page shows: a wallet (`selected`) or the portfolio of stored wallets. */
  view = $state<'wallet' | 'portfolio'>('wallet');
  readonly portfolio: Portfolio;
  /** Every wallet opened here, most recent first: a Dexie live query, used as a store (`$wallets`). */
  readonly wallets = liveQuery(() => this.db.wallets.orderBy('openedAt').reverse().toArray());

  #loader: Comlink.Remote<LoaderWorkerApi> | null = null;
  /** When the key was last saved or checked (Date.now, the clock the worker stamps load rows with). */
  #keyCheckedAt = 0;
  #pnlWorker: Comlink.Remote<PnlWorkerApi> | null = null;
  #pnlTimer: ReturnType<typeof setTimeout> | null = null;
  #freshTimer: ReturnType<typeof setTimeout> | null = null;
  #pnlBusy = false;
  #pnlAgain = false;
  /** How long the last figures took, asked to answered (ms). */
  #pnlLastMs = 0;

  constructor() {
    this.portfolio = new Portfolio(
      this.db,
      () => this.#pnlWorker,
      () => this.method,
      () => this.view === 'portfolio',
    );
    // The selected wallet: its load row through liveQuery, its rows through a mirror that reads
    // only what each stored batch added (re-reading 100,000 rows per batch is what it avoids).
    $effect(() => {
      const id = this.selected;
      if (!id) return;
      const mirror = new TradeMirror(this.db, id);
      this.rows = [];
      this.pnl = null;
      this.series = null;
      this.load = null;
      let live = true;
      const sub = liveQuery(() => this.db.loads.get(id)).subscribe({
        next: async (v) => {
          if (!live) return;
          this.load = v ?? null;
          // A 401 of a load made since the key was last checked: one from an earlier key says nothing of this one.
          if (v?.mode === 'api' && v.errorCode === 'unauthorized' && v.updatedAt >= this.#keyCheckedAt) this.keyState = 'refused';
          const before = this.rows;
          const changed = await mirror.sync(v?.tradeCount ?? 0, v?.generation ?? 0);
          if (!live || !changed) return;
          this.rows = mirror.rows;
          if (v?.liveState) this.#markFresh(before, mirror.rows);
        },
      });
      // Its unexplained transactions: few beside the trades, read whole when a write touches them.
      this.unexplained = [];
      const listed = liveQuery(() => walletUnexplained(this.db, id).reverse().toArray()).subscribe({
        next: (v) => {
          if (live) this.unexplained = v;
        },
      });
      return () => {
        live = false;
        sub.unsubscribe();
        listed.unsubscribe();
      };
    });
    // PnL over every stored trade, in its own worker: at once when loading stops, at most every
    // 1.5 s while trades arrive (loading, or live); one computation at a time.
    $effect(() => {
      const r = this.rows;
      const id = this.selected;
      const loading = this.#arriving;
      // Read so the figures are computed again when the method changes.
      void this.method;
      if (!id) return;
      if (r.length === 0) {
        this.pnl = null;
        this.series = null;
        return;
      }
      this.#schedulePnl(id, loading);
    });
  }

  /** Starts the workers and reads the stored settings; returns what stops them. */
  start(): () => void {
    this.online = navigator.onLine;
    const goOnline = () => {
      this.online = true;
      void this.#loader?.setOnline(true);
      void this.#loader?.resumeInterrupted();
    };
    const goOffline = () => {
      this.online = false;
      // The worker's own events may lag or not come (emulated offline): it drops its live streams now.
      void this.#loader?.setOnline(false);
    };
    // A tab back from sleep: a live stream that died meanwhile is reopened at once, not at its next retry.
    const visible = () => {
      if (document.visibilityState === 'visible') void this.#loader?.wake();
    };
    window.addEventListener('online', goOnline);
    window.addEventListener('offline', goOffline);
    document.addEventListener('visibilitychange', visible);
    // Ask once that the browser keep this data under storage pressure (the person's trade history).
    void navigator.storage?.persist?.().catch(() => {});

    // Vite turns `new Worker(new URL(...))` into a worker chunk; nothing reactive here.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const worker = new Worker(new URL('./loader.worker.ts', import.meta.url), { type: 'module' });
    this.#loader = Comlink.wrap<LoaderWorkerApi>(worker);
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const pnlThread = new Worker(new URL('./pnl.worker.ts', import.meta.url), { type: 'module' });
    this.#pnlWorker = Comlink.wrap<PnlWorkerApi>(pnlThread);

    void (async () => {
      this.apiKey = await getSetting(this.db, 'apiKey', '');
      void this.#checkKey();
      this.rpcUrl = await getSetting(this.db, 'rpcUrl', '');
      const method = await getSetting<string>(this.db, 'pnlMethod', 'average');
      if (method === 'fifo' || method === 'average') this.method = method;
      const cached = parsePublicChains(await getSetting<unknown>(this.db, 'chains', null));
      if (cached.length) this.chains = cached;
      await this.#configureWorker();
      const fromHash = decodeURIComponent(location.hash.slice(1));
      if (fromHash === PORTFOLIO_HASH) this.view = 'portfolio';
      else if (fromHash && (await this.db.wallets.get(fromHash))) this.selected = fromHash;
      this.ready = true;
      if (navigator.onLine) void this.#loader!.resumeInterrupted();
      void this.#loader!.setOnline(navigator.onLine);
      void this.#loader!.resumeLive();
      try {
        const list = await fetchChains({ baseUrl: '' });
        if (list.length) {
          this.chains = list;
          await putSetting(this.db, 'chains', list);
          await this.#configureWorker();
        }
      } catch {
        // Offline or an older server: the cached or built-in list stands.
      }
    })();

    return () => {
      window.removeEventListener('online', goOnline);
      window.removeEventListener('offline', goOffline);
      document.removeEventListener('visibilitychange', visible);
      if (this.#freshTimer) clearTimeout(this.#freshTimer);
      if (this.#pnlTimer) clearTimeout(this.#pnlTimer);
      this.portfolio.stop();
      worker.terminate();
      pnlThread.terminate();
    };
  }

  chain(slug: string | undefined): ChainInfo | undefined {
    return this.chains.find((c) => c.slug === slug) ?? FALLBACK_CHAINS.find((c) => c.slug === slug);
  }

  /** Shows a wallet (or none), with its id in the URL's hash so a reload opens it again. */
  select(id: string | null): void {
    this.selected = id;
    this.view = 'wallet';
    // The page's own URL with another hash: no route to resolve.
    // eslint-disable-next-line svelte/no-navigation-without-resolve
    replaceState(id ? `#${encodeURIComponent(id)}` : location.pathname, {});
  }

  /** Shows the portfolio (`#portfolio`, so a reload, offline too, opens it again). */
  showPortfolio(): void {
    this.selected = null;
    this.view = 'portfolio';
    // eslint-disable-next-line svelte/no-navigation-without-resolve
    replaceState(`#${PORTFOLIO_HASH}`, {});
  }

  async setMethod(method: PnlMethod): Promise<void> {
    this.method = method;
    await putSetting(this.db, 'pnlMethod', method);
  }

  /** Names a wallet (an empty name removes it); kept in this browser only. */
  async setLabel(id: string, label: string): Promise<void> {
    const name = label.trim().slice(0, 80);
    await this.db.wallets.update(id, { label: name || undefined });
  }

  async setInPortfolio(id: string, included: boolean): Promise<void> {
    await this.db.wallets.update(id, { inPortfolio: included });
  }

  /** One token's figures with the lots behind them, by the method shown. */
  async tokenLots(tokenMint: string) {
    const id = this.selected;
    if (!id || !this.#pnlWorker) return null;
    return this.#pnlWorker.tokenLots(id, this.pnl?.method ?? this.method, tokenMint);
  }

  /** Downloads a wallet's stored trades in one of the export formats (built in the PnL worker). */
  async exportWallet(w: WalletRow, format: ExportFormat): Promise<void> {
    if (!this.#pnlWorker) return;
    const native = this.chain(w.chain)?.nativeSymbol ?? w.chain.toUpperCase();
    const text = await this.#pnlWorker.exportCsv(w.id, format, native);
    downloadText(text, exportFileName(w, format));
  }

  async saveApiKey(key: string): Promise<void> {
    this.apiKey = key.trim();
    await putSetting(this.db, 'apiKey', this.apiKey);
    await this.#configureWorker();
    await this.#checkKey();
  }

  /** Asks the server about the key (GET /v1/usage: authenticated, not metered). */
  async #checkKey(): Promise<void> {
    const key = this.apiKey;
    this.keyState = 'unchecked';
    this.#keyCheckedAt = Date.now();
    if (!key || !navigator.onLine) return;
    try {
      const res = await fetch('/v1/usage', { headers: { authorization: `Bearer ${key}` }, cache: 'no-store' });
      if (key !== this.apiKey) return;
      if (res.ok) this.keyState = 'ok';
      else if (res.status === 401) this.keyState = 'refused';
    } catch {
      // Offline or the server is away: unchecked.
    }
  }

  async saveRpcUrl(url: string): Promise<void> {
    this.rpcUrl = url.trim();
    await putSetting(this.db, 'rpcUrl', this.rpcUrl);
  }

  /** Opens a wallet from the form and loads it (refreshing it when it was complete). */
  async open(chain: string, address: string, mode: LoadMode): Promise<void> {
    const id = walletId(chain, address);
    this.select(id);
    const existing = await this.db.loads.get(id);
    void this.#startLoad(chain, address, existing?.status === 'complete', mode);
  }

  /** The "Live" toggle: the worker follows the wallet (kept on the wallet row: a reload resumes it). */
  async setLive(w: WalletRow, on: boolean): Promise<void> {
    await this.#loader?.setLive(w.chain, w.address, on);
  }

  async pause(w: WalletRow): Promise<void> {
    // Live would start the load again at once: pausing stops following too.
    if (w.live) await this.setLive(w, false);
    await this.#loader?.pause(w.chain, w.address);
  }
  resume(w: WalletRow): void {
    void this.#startLoad(w.chain, w.address, false);
  }
  refresh(w: WalletRow): void {
    void this.#startLoad(w.chain, w.address, true);
  }
  async cancel(w: WalletRow): Promise<void> {
    if (w.live) await this.setLive(w, false);
    await this.#loader?.cancel(w.chain, w.address);
  }
  async remove(w: WalletRow): Promise<void> {
    if (w.live) await this.setLive(w, false);
    await this.#loader?.cancel(w.chain, w.address);
    await deleteWallet(this.db, w.id);
    if (this.selected === w.id) this.select(null);
  }

  async #configureWorker(): Promise<void> {
    const chains = Object.fromEntries(this.chains.map((c) => [c.slug, c]));
    await this.#loader?.configure($state.snapshot({ baseUrl: location.origin, apiKey: this.apiKey, chains }));
  }

  /** `asMode` given: the form's choice (a mode switch starts the wallet over); otherwise the wallet's own. */
  async #startLoad(chain: string, address: string, refresh: boolean, asMode?: LoadMode): Promise<void> {
    const w = await this.db.wallets.get(walletId(chain, address));
    const mode: LoadMode = asMode ?? w?.mode ?? 'api';
    const url = mode === 'rpc' ? (asMode ? this.rpcUrl : w?.rpcUrl) : undefined;
    await this.#loader?.load($state.snapshot({ chain, address, mode, rpcUrl: url || undefined, refresh }));
  }

  /** The rows that came in above the ones shown before (a live arrival), highlighted for FRESH_MS. */
  #markFresh(before: readonly TradeRow[], after: readonly TradeRow[]): void {
    const next = arrivedOnTop(before, after, this.fresh);
    if (next === this.fresh) return;
    this.fresh = next;
    if (this.#freshTimer) clearTimeout(this.#freshTimer);
    this.#freshTimer = setTimeout(() => (this.fresh = NO_ROWS), FRESH_MS);
  }

  #schedulePnl(id: string, loading: boolean): void {
    if (this.#pnlTimer && loading) return;
    if (this.#pnlTimer) clearTimeout(this.#pnlTimer);
    this.#pnlTimer = setTimeout(
      () => {
        this.#pnlTimer = null;
        void this.#computePnl(id);
      },
      loading ? Math.max(PNL_WHILE_LOADING_MS, PNL_LOADING_GAP * this.#pnlLastMs) : 0,
    );
  }

  async #computePnl(id: string): Promise<void> {
    if (this.#pnlBusy) {
      this.#pnlAgain = true;
      return;
    }
    this.#pnlBusy = true;
    try {
      const method = this.method;
      const worker = this.#pnlWorker;
      const t0 = performance.now();
      const r = worker ? await worker.compute(id, method) : null;
      this.#pnlLastMs = performance.now() - t0;
      if (r && this.selected === id) {
        this.pnl = r;
        this.dexes = r.dexes;
        // The worker made the chart's points in the figures' pass: this only carries them over.
        void worker!.series(id, method).then((points) => {
          if (points && this.selected === id && this.pnl?.method === method) this.series = { method, points };
        });
      }
    } finally {
      this.#pnlBusy = false;
      if (this.#pnlAgain) {
        this.#pnlAgain = false;
        this.#schedulePnl(id, this.#arriving);
      }
    }
  }
}
