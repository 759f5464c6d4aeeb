/**
 * The portfolio's state: the stored wallets the person keeps in it, each one's PnL and the sums,
 * computed in the Dashboard's PnL worker from the stored trades (so it works offline and for
 * direct-mode wallets alike). Recomputed when the portfolio is shown and something it reads
 * changes: who is in it, a wallet's stored trades, the method.
 */
import type * as Comlink from 'comlink';
import { liveQuery } from 'dexie';
import type { DashboardDb } from './db.js';
import type { PnlMethod } from './pnl.js';
import type { PnlWorkerApi } from './pnl.worker.js';
import { inPortfolio, type PortfolioSummary, type WalletPnlLine } from './portfolio.js';

/** While one of its wallets loads, the portfolio is recomputed at most this often. */
const WHILE_LOADING_MS = 1500;

interface Inputs {
  ids: string[];
  /** Changes whenever a wallet's stored trades do (count, replaced rows). */
  key: string;
  loading: boolean;
}

export class Portfolio {
  lines = $state.raw<WalletPnlLine[]>([]);
  summary = $state.raw<PortfolioSummary | null>(null);
  /** The figures shown are being computed again. */
  busy = $state(false);

  #timer: ReturnType<typeof setTimeout> | null = null;
  #last = '';
  #running = false;
  #pending: { inputs: Inputs; method: PnlMethod } | null = null;

  constructor(
    private readonly db: DashboardDb,
    private readonly worker: () => Comlink.Remote<PnlWorkerApi> | null,
    method: () => PnlMethod,
    active: () => boolean,
  ) {
    $effect(() => {
      if (!active()) return;
      const m = method();
      const sub = liveQuery(() => this.#inputs()).subscribe({ next: (inputs) => this.#schedule(inputs, m) });
      return () => {
        sub.unsubscribe();
        this.#last = '';
      };
    });
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  async #inputs(): Promise<Inputs> {
    const wallets = (await this.db.wallets.orderBy('openedAt').reverse().toArray()).filter(inPortfolio);
    const ids = wallets.map((w) => w.id);
    const loads = await this.db.loads.bulkGet(ids);
    const key = loads.map((l, i) => `${ids[i]}=${l ? `${l.tradeCount}:${l.generation ?? 0}:${l.headFp ?? l.head}` : '-'}`).join(',');
    return { ids, key, loading: loads.some((l) => l?.status === 'loading') };
  }

  #schedule(inputs: Inputs, method: PnlMethod): void {
    const key = `${method}|${inputs.key}`;
    if (key === this.#last) return;
    this.#pending = { inputs, method };
    if (this.#timer && inputs.loading) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        void this.#run();
      },
      inputs.loading && this.summary ? WHILE_LOADING_MS : 0,
    );
  }

  async #run(): Promise<void> {
    const worker = this.worker();
    const next = this.#pending;
    if (!next) return;
    if (!worker || this.#running) {
      // The worker starts in onMount, or one computation is under way: try again shortly.
      this.#timer = setTimeout(() => ((this.#timer = null), void this.#run()), 100);
      return;
    }
    this.#pending = null;
    this.#running = true;
    this.busy = true;
    try {
      const r = await worker.portfolio(next.inputs.ids, next.method);
      this.#last = `${next.method}|${next.inputs.key}`;
      this.lines = r.lines;
      this.summary = r.summary;
    } finally {
      this.#running = false;
      this.busy = this.#pending !== null;
    }
  }
}
