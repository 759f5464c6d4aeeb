/**
 * The dashboard's IndexedDB, shared by the page and the loader worker (same origin, same database,
 * so the page's liveQuery sees the worker's writes).
 *
 * Trades are stored as batches: one record per stored batch holding its trades in delivery order.
 * Measured in this machine's Chromium: one record per trade stores about 11,000 trades/s whatever
 * the transaction size or indexes; one record per 500-trade batch about 200,000 trades/s. The
 * issue's 20,000 trades/s target needs batch records.
 *
 * Order: a batch's `order` is the order key of its first (newest) trade, and descending key order
 * is the API's delivery order (newest first). API mode: `order = epoch(6) + ':' + (999999999999 -
 * index)(12)`, where epoch 0 is the first walk and each refresh takes a higher epoch, so trades a
 * refresh finds above the stored head sort above it. RPC mode: `tradeKey(position, leg)`.
 *
 * A history decoded again (a newer decoder, issue 23): the API mode re-reads the wallet from the top
 * into a staging area (`stagingId`) and swaps it in whole at the end (reread.ts); the RPC mode
 * decodes the stored transactions again batch by batch (redecode-direct.ts).
 */
import { Dexie, type Table } from 'dexie';
import type { SourceUnexplained, UnexplainedChange } from '../core/activity.js';
import { tradeKey, type Trade } from '../core/trade.js';

export type LoadMode = 'api' | 'rpc';

export interface WalletRow {
  /** `${chain}:${address}` */
  id: string;
  chain: string;
  address: string;
  mode: LoadMode;
  /** RPC mode: the endpoint the person gave. */
  rpcUrl?: string;
  addedAt: number;
  openedAt: number;
  /**
   * The person's name for the wallet (issue 25), kept only here. Neither it nor `inPortfolio` is
   * indexed, so rows stored before they existed need no schema version: absent reads as no label.
   */
  label?: string;
  /** In the portfolio unless taken out (false): every stored wallet is in it by default. */
  inPortfolio?: boolean;
  /** The "Live" toggle (issue 24): the worker follows the wallet while it is on, and again after a reload. Not indexed. */
  live?: boolean;
}

/**
 * Where following a wallet live stands (live.ts): `connecting` (opening the stream or the realtime
 * stage), `live` (a line or a check came), `offline` (no network or no answer: it resumes by itself).
 */
export type LiveState = 'connecting' | 'live' | 'offline';

/**
 * A trade's USD figures where they were had (issue 22): API mode, the server's `include=usd`
 * fields; direct mode, priced in the worker from the chain's own feed, with the time the price came
 * into force. Absent on trades stored before prices were kept.
 */
export interface TradeUsd {
  nativeUsd?: string | null;
  valueUsd?: string | null;
  /** Direct mode: the feed round's update time (unix seconds). */
  priceTime?: number | null;
}

/** A trade as stored: the eight fields, and its USD figures. */
export type StoredTrade = Trade & TradeUsd;

/** A trade with its order key, as the loader produces it and the page lists it. */
export interface TradeRow extends StoredTrade {
  walletId: string;
  order: string;
}

/** One stored batch: trades newest first, keyed by its first trade's order. */
export interface BatchRow {
  walletId: string;
  order: string;
  trades: StoredTrade[];
  /**
   * RPC mode: each trade's order key (`tradeKey(position, leg)`), so a newer decoder can fetch the
   * stored transactions again by signature and position. Absent in API mode and on batches
   * stored before keys were kept (those are re-read whole instead).
   */
  keys?: string[];
}

/**
 * A transaction whose balance changes no trade explains (decisions.md, "Unexplained activity"), as
 * the API lists it. `order`: descending is newest first. API mode, its rank in the server's list
 * (`apiOrder(0, rank)`: the list is read whole and replaces the stored one); direct mode, the key
 * its leg 0 would have (`tradeKey(position, 0)`), so it sorts among the batches' keys.
 */
export interface UnexplainedRow {
  walletId: string;
  order: string;
  signature: string;
  blockTime: string;
  changes: UnexplainedChange[];
  programs: string[];
}

export type LoadStatus = 'idle' | 'loading' | 'paused' | 'complete' | 'error';

/** The walk in progress: from the top (epoch 0) or a refresh epoch that stops at `stopAt`. */
export interface WalkState {
  epoch: number;
  /** Next index inside the epoch (API mode). */
  index: number;
  /** API mode: last cursor received; RPC mode: chain position reached (`before`). */
  cursor: string | null;
  /** Refresh: fingerprint (API) or head marker (RPC) of the first already stored trade. */
  stopAt: string | null;
  /** Fingerprint of the last trade this walk stored (API mode): where a restarted walk picks up. */
  lastFp: string | null;
  /** After an invalid_cursor restart: skip delivered trades up to and including this one. */
  skipUntil: string | null;
  /** Refresh: head found by this refresh, made the wallet's head when it ends. Re-read: its newest trade (API) or head (RPC). */
  newHead: string | null;
  /** Re-read: the decoder version it reads at (the server's, or the source's). */
  version?: number;
  /** Re-read (API mode): a final line said some prices were not had. */
  pricesMissed?: boolean;
}

/** RPC mode: stored transactions decoded again by a newer decoder, oldest first (redecode-direct.ts). */
export interface RedecodeState {
  version: number;
  /** Batches whose order is above this key are still to do ('' when none is done). */
  after: string;
  /** The newest batch's order when it began: what was stored by the older decoder. */
  end: string;
}

export interface LoadRow {
  walletId: string;
  status: LoadStatus;
  mode: LoadMode;
  /** The walk toward older trades; null when it reached the start of the history. */
  walk: WalkState | null;
  /** A refresh from the top under way (resumable like the walk). */
  refresh: WalkState | null;
  /**
   * A re-read from the top into the staging area, under way: the stored rows came from an older
   * decoder. It replaces them whole when it reaches the end (and ends the walk and any refresh).
   */
  reread?: WalkState | null;
  /** RPC mode: the stored transactions decoded again batch by batch, under way. */
  redecode?: RedecodeState | null;
  /**
   * The decoder version the stored rows come from, at least: API mode, the server's version of the
   * wallet when they were read; RPC mode, the source's. Absent on rows stored before it was kept
   * (taken as 0, older than any). Null until the first read says it.
   */
  decoderVersion?: number | null;
  /** Grows each time the rows are replaced other than at the ends (a re-read swapped in, a re-decode): the page reads them again. */
  generation?: number;
  /** Fingerprints of the newest and the oldest stored trade (API mode), for refresh and restart. */
  headFp: string | null;
  tailFp: string | null;
  /** RPC mode: marker of the newest point scanned, for refreshes (`until`). */
  head: string | null;
  tradeCount: number;
  /**
   * Every stored trade carries its USD figures as the server could give them (include=usd said
   * `pricesComplete`). False when a line came without some; absent on rows stored before prices
   * were kept. API mode re-reads the wallet for them (loader.ts), at most every 10 minutes.
   */
  pricesComplete?: boolean;
  /** When the last re-read for prices began (ms), and how many in a row have begun. */
  pricesRereadAt?: number;
  pricesRereads?: number;
  /** Unexplained transactions stored here (absent on rows stored before they were kept: 0). */
  unexplainedCount?: number;
  /** API mode: the count the server's last final line said (the list is read again when it differs from what is stored). */
  serverUnexplained?: number | null;
  /** Trades received over the network in total, stored or not (shows re-fetching). */
  received: number;
  /** The server's tradeCount and firstTrade from the last final line. */
  serverTradeCount: number | null;
  firstTrade: string | null;
  /** Trades per second over the last seconds of loading. */
  rate: number;
  error: string | null;
  errorCode: string | null;
  restarts: number;
  /** When the first batch with trades was stored (Date.now in the worker): first-paint latency is measured from it. */
  firstBatchAt: number | null;
  startedAt: number;
  updatedAt: number;
  /**
   * API mode, following live: the forward cursor past the newest live trade stored (the follow
   * stream's `liveCursor`), written with the trades it passed, so a reopened stream neither loses
   * nor repeats one. Null or absent: the next start catches up from the top first.
   */
  liveCursor?: string | null;
  /** When the last live line or realtime check came (Date.now in the worker). */
  liveCheckedAt?: number | null;
  /** Following live: how it stands; absent or null when the wallet is not followed. */
  liveState?: LiveState | null;
}

export interface SettingRow {
  key: string;
  value: unknown;
}

export interface TokenRow {
  chain: string;
  mint: string;
  symbol: string;
  decimals: number;
}

export const DB_NAME = 'wallet-history';

export class DashboardDb extends Dexie {
  wallets!: Table<WalletRow, string>;
  batches!: Table<BatchRow, [string, string]>;
  loads!: Table<LoadRow, string>;
  settings!: Table<SettingRow, string>;
  tokens!: Table<TokenRow, [string, string]>;
  unexplained!: Table<UnexplainedRow, [string, string]>;

  constructor(name = DB_NAME) {
    super(name);
    // Version 1: one record per trade. The compound primary key keeps a wallet's trades together in delivery order.
    this.version(1).stores({
      wallets: 'id, openedAt',
      trades: '[walletId+order], walletId',
      loads: 'walletId, status',
      settings: 'key',
      tokens: '[chain+mint]',
    });
    // Version 2: one record per batch (see above); version-1 trades move into batches of 1,000.
    this.version(2)
      .stores({ trades: null, batches: '[walletId+order]' })
      .upgrade(async (tx) => {
        const old = (await tx.table('trades').toCollection().reverse().toArray()) as TradeRow[];
        const out: BatchRow[] = [];
        let cur: BatchRow | null = null;
        for (const r of old) {
          if (!cur || cur.walletId !== r.walletId || cur.trades.length === 1000) {
            cur = { walletId: r.walletId, order: r.order, trades: [] };
            out.push(cur);
          }
          cur.trades.push(stripRow(r));
        }
        await tx.table('batches').bulkPut(out);
      });
    // Version 3: the unexplained transactions of each wallet (issue 20), kept offline with its trades.
    this.version(3).stores({ unexplained: '[walletId+order]' });
  }
}

let shared: DashboardDb | null = null;
export function getDb(): DashboardDb {
  shared ??= new DashboardDb();
  return shared;
}

export function walletId(chain: string, address: string): string {
  return `${chain}:${address}`;
}

const INDEX_MAX = 999_999_999_999;
export function apiOrder(epoch: number, index: number): string {
  return `${String(epoch).padStart(6, '0')}:${String(INDEX_MAX - index).padStart(12, '0')}`;
}

/** The identity of a trade as delivered (all eight fields): used to find a stored trade again in a new stream. */
export function fingerprint(t: Trade): string {
  return [t.signature, t.side, t.tokenMint, t.amount ?? '', t.amountSol ?? '', t.dex, t.blockTime].join('|');
}

export function stripRow(r: TradeRow): Trade {
  return {
    signature: r.signature,
    side: r.side,
    token: r.token,
    tokenMint: r.tokenMint,
    amountSol: r.amountSol,
    amount: r.amount,
    dex: r.dex,
    blockTime: r.blockTime,
  };
}

/** A row as a batch keeps it: the eight fields and the USD figures it has. */
export function storedTrade(r: TradeRow): StoredTrade {
  const t: StoredTrade = stripRow(r);
  if (r.nativeUsd !== undefined) t.nativeUsd = r.nativeUsd;
  if (r.valueUsd !== undefined) t.valueUsd = r.valueUsd;
  if (r.priceTime !== undefined) t.priceTime = r.priceTime;
  return t;
}

/** All batches of a wallet, newest first. */
export function walletBatches(db: DashboardDb, id: string) {
  return db.batches.where('[walletId+order]').between([id, Dexie.minKey], [id, Dexie.maxKey]);
}

/** A wallet's stored unexplained transactions, by order (`.reverse()` for newest first). */
export function walletUnexplained(db: DashboardDb, id: string) {
  return db.unexplained.where('[walletId+order]').between([id, Dexie.minKey], [id, Dexie.maxKey]);
}

/** A source's unexplained transaction as direct mode stores it: at the key its leg 0 would have. */
export function unexplainedRow(walletId: string, u: SourceUnexplained): UnexplainedRow {
  return { walletId, order: tradeKey(u.position, 0), signature: u.signature, blockTime: u.blockTime, changes: u.changes, programs: u.programs };
}

/** Batches flattened to rows with a per-trade order key (`batchOrder/index`, unique within the wallet). */
export function flattenBatches(batches: readonly BatchRow[], into: TradeRow[] = []): TradeRow[] {
  for (const b of batches) {
    const n = b.trades.length;
    for (let i = 0; i < n; i++) into.push({ ...b.trades[i], walletId: b.walletId, order: `${b.order}/${String(i).padStart(5, '0')}` });
  }
  return into;
}

/** A wallet's trades in delivery order (newest first). */
export async function tradesNewestFirst(db: DashboardDb, id: string): Promise<TradeRow[]> {
  return flattenBatches(await walletBatches(db, id).reverse().toArray());
}

export async function countTrades(db: DashboardDb, id: string): Promise<number> {
  let n = 0;
  await walletBatches(db, id).each((b) => void (n += b.trades.length));
  return n;
}

/** A walk from the top (a refresh, a re-read) or from the start (the first walk) in an epoch. */
export function newWalk(epoch: number): WalkState {
  return { epoch, index: 0, cursor: null, stopAt: null, lastFp: null, skipUntil: null, newHead: null };
}

/** Where a re-read stores its rows until it reaches the end: another wallet id, so nothing of it is shown before. */
export function stagingId(id: string): string {
  return `${id}#reread`;
}

export async function deleteWallet(db: DashboardDb, id: string): Promise<void> {
  await db.transaction('rw', [db.wallets, db.batches, db.unexplained, db.loads], async () => {
    await walletBatches(db, id).delete();
    await walletBatches(db, stagingId(id)).delete();
    await walletUnexplained(db, id).delete();
    await walletUnexplained(db, stagingId(id)).delete();
    await db.loads.delete(id);
    await db.wallets.delete(id);
  });
}

export async function getSetting<T>(db: DashboardDb, key: string, fallback: T): Promise<T> {
  const row = await db.settings.get(key);
  return row === undefined ? fallback : (row.value as T);
}

export async function putSetting(db: DashboardDb, key: string, value: unknown): Promise<void> {
  await db.settings.put({ key, value });
}
