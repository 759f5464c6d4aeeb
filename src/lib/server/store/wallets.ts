import { isHistoryError, isUpstreamFault } from '../../core/errors.js';
import type { Queryable } from './database.js';

/** The load state of one wallet on one chain; it survives restarts so loading resumes where it stopped. */
export interface WalletState {
  id: number;
  chain: string;
  address: string;
  /** The chain source's marker of the newest point scanned (a refresh walks down to it). */
  headMarker: string | null;
  /** The chain source's resume position toward older history. */
  tailPosition: string | null;
  complete: boolean;
  tradeCount: number;
  /** ISO time of the oldest trade stored. */
  firstTrade: string | null;
  headCheckedAt: Date | null;
  /** A stream asked for the whole history; loading goes on in the background, also after a restart. */
  loadAll: boolean;
  /**
   * The decoder version every stored trade was decoded with, at least (0: stored before versions
   * were kept). It moves up when a re-decode ends (store/redecode.ts), or when the first trades of
   * a wallet with none are stored.
   */
  decoderVersion: number;
  /** Unexplained transactions stored (core/activity.ts): found so far while loading, all of them once complete. */
  unexplainedCount: number;
}

interface WalletRow {
  id: number;
  chain: string;
  address: string;
  head_marker: string | null;
  tail_position: string | null;
  complete: boolean;
  trade_count: number;
  first_trade: string | null;
  head_checked_at: Date | string | null;
  load_all: boolean;
  decoder_version: number;
  unexplained_count: number;
}

const COLUMNS =
  'id, chain, address, head_marker, tail_position, complete, trade_count, first_trade, head_checked_at, load_all, decoder_version, unexplained_count';

function toState(r: WalletRow): WalletState {
  return {
    id: r.id,
    chain: r.chain,
    address: r.address,
    headMarker: r.head_marker,
    tailPosition: r.tail_position,
    complete: r.complete,
    tradeCount: Number(r.trade_count),
    firstTrade: r.first_trade,
    headCheckedAt: r.head_checked_at === null ? null : new Date(r.head_checked_at),
    loadAll: r.load_all,
    decoderVersion: Number(r.decoder_version),
    unexplainedCount: Number(r.unexplained_count),
  };
}

export async function getOrCreateWallet(db: Queryable, chain: string, address: string): Promise<WalletState> {
  const rows = await db.query<WalletRow>(
    `INSERT INTO wallets (chain, address) VALUES ($1, $2)
     ON CONFLICT (chain, address) DO UPDATE SET chain = EXCLUDED.chain
     RETURNING ${COLUMNS}`,
    [chain, address],
  );
  return toState(rows[0]);
}

/** The wallet's state as stored now (another instance may have moved it). */
export async function getWalletById(db: Queryable, id: number): Promise<WalletState> {
  const rows = await db.query<WalletRow>(`SELECT ${COLUMNS} FROM wallets WHERE id = $1`, [id]);
  if (!rows.length) throw new Error(`wallet ${id} is not in the store`);
  return toState(rows[0]);
}

export async function setLoadAll(db: Queryable, walletId: number): Promise<void> {
  await db.query('UPDATE wallets SET load_all = true WHERE id = $1', [walletId]);
}

/**
 * Wallets a stream asked to load whole that are not complete yet, and wallets whose re-decode was
 * under way: both resume at start and in the sweep, once a failure's backoff has run out.
 */
export async function walletsToResume(db: Queryable): Promise<WalletState[]> {
  const rows = await db.query<WalletRow>(
    `SELECT ${COLUMNS} FROM wallets
     WHERE ((load_all AND NOT complete) OR redecode_version IS NOT NULL) AND ${RETRY_DUE} ORDER BY id`,
  );
  return rows.map(toState);
}

/** A wallet the server may resume on its own: no failure waiting out its backoff. */
const RETRY_DUE = '(retry_at IS NULL OR retry_at <= now())';

/**
 * The first wait after a failure, and the longest: 30 s doubled per failure in a row, at most an
 * hour, so a wallet whose RPC is down costs a few requests an hour instead of a walk at every
 * start and every 30 s sweep.
 */
export const RETRY_FIRST_SECONDS = 30;
export const RETRY_MAX_SECONDS = 3600;

/**
 * A walk or re-decode of the wallet stopped on `e`: when an endpoint failed (not a fault of this
 * server), the server resumes it no sooner than the backoff allows. Never throws: a store that
 * cannot record it costs a retry sooner, not the caller's error.
 */
export async function recordUpstreamFailure(db: Queryable, walletId: number, e: unknown): Promise<void> {
  if (isHistoryError(e) && isUpstreamFault(e.code)) await recordFailure(db, walletId).catch(() => {});
}

/** The wallet's load stopped on an upstream failure: the server resumes it no sooner than the backoff allows. */
export async function recordFailure(db: Queryable, walletId: number): Promise<{ failures: number; retryAt: Date }> {
  const rows = await db.query<{ failures: number; retry_at: Date | string }>(
    `UPDATE wallets SET failures = failures + 1,
       retry_at = now() + least($2::float8, $3::float8 * power(2, least(failures, 16))) * interval '1 second'
     WHERE id = $1 RETURNING failures, retry_at`,
    [walletId, RETRY_MAX_SECONDS, RETRY_FIRST_SECONDS],
  );
  return { failures: Number(rows[0].failures), retryAt: new Date(rows[0].retry_at) };
}

/** The channel API-only instances (ROLE=api) notify when they record demand; the payload is the wallet id. */
export const DEMAND_CHANNEL = 'wallet_demand';

/**
 * Records what an API-only instance needs of a wallet, for the workers, and wakes them (NOTIFY at
 * commit): the whole history (a stream), `more` trades than are stored (a page), a head refresh.
 */
export async function recordDemand(db: Queryable, walletId: number, d: { loadAll?: boolean; more?: number; refresh?: boolean }): Promise<void> {
  await db.query(
    `UPDATE wallets SET load_all = load_all OR $2,
       want_count = CASE WHEN $3::int > 0 THEN greatest(want_count, trade_count + $3::int) ELSE want_count END,
       refresh_wanted = refresh_wanted OR $4
     WHERE id = $1
     RETURNING pg_notify('${DEMAND_CHANNEL}', id::text)::text`,
    [walletId, d.loadAll ?? false, Math.max(0, Math.floor(d.more ?? 0)), d.refresh ?? false],
  );
}

export interface WalletDemand {
  id: number;
  chain: string;
  address: string;
  complete: boolean;
  loadAll: boolean;
  tradeCount: number;
  wantCount: number;
  refreshWanted: boolean;
  /** An API-only instance read the wallet, which was stored by an older decoder than the workers' (askRedecode). */
  redecodeWanted: boolean;
}

/**
 * Wallets with demand a worker has to serve (all of them, or the one named). The sweep over all of
 * them leaves out loads waiting out a failure's backoff; a wallet named (an API instance's
 * notification of a request) is served at once.
 */
export async function walletsWithDemand(db: Queryable, id?: number): Promise<WalletDemand[]> {
  const rows = await db.query<{
    id: number;
    chain: string;
    address: string;
    complete: boolean;
    load_all: boolean;
    trade_count: number;
    want_count: number;
    redecode_wanted: boolean;
    refresh_wanted: boolean;
  }>(
    `SELECT id, chain, address, complete, load_all, trade_count, want_count, redecode_wanted, refresh_wanted FROM wallets
     WHERE ($1::int IS NULL OR id = $1)
       AND ((NOT complete AND (load_all OR want_count > trade_count) AND ($1::int IS NOT NULL OR ${RETRY_DUE})) OR refresh_wanted OR redecode_wanted)
     ORDER BY id`,
    [id ?? null],
  );
  return rows.map((r) => ({
    id: r.id,
    chain: r.chain,
    address: r.address,
    complete: r.complete,
    loadAll: r.load_all,
    tradeCount: Number(r.trade_count),
    wantCount: Number(r.want_count),
    refreshWanted: r.refresh_wanted,
    redecodeWanted: r.redecode_wanted,
  }));
}

export async function clearRefreshWanted(db: Queryable, walletId: number): Promise<void> {
  await db.query('UPDATE wallets SET refresh_wanted = false WHERE id = $1', [walletId]);
}

/**
 * An API-only instance read the wallet: asks the workers to re-decode it (and wakes them) when
 * its trades were decoded by an older version than the one the chain's workers published
 * (settings.ts, publishDecoderVersion), or when none published one yet. One statement; nothing
 * is written or sent when the wallet is current, holds nothing, or was asked for already.
 */
export async function askRedecode(db: Queryable, walletId: number): Promise<void> {
  await db.query(
    `UPDATE wallets SET redecode_wanted = true
     WHERE id = $1 AND (trade_count > 0 OR unexplained_count > 0) AND NOT redecode_wanted
       AND decoder_version < coalesce((SELECT value::int FROM settings WHERE key = 'decoder_version:' || wallets.chain), 2147483647)
     RETURNING pg_notify('${DEMAND_CHANNEL}', id::text)::text`,
    [walletId],
  );
}

export async function clearRedecodeWanted(db: Queryable, walletId: number): Promise<void> {
  await db.query('UPDATE wallets SET redecode_wanted = false WHERE id = $1', [walletId]);
}
