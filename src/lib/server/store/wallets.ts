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
}

const COLUMNS = 'id, chain, address, head_marker, tail_position, complete, trade_count, first_trade, head_checked_at, load_all';

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

/** Wallets a stream asked to load whole that are not complete yet: loading resumes at start. */
export async function walletsToResume(db: Queryable): Promise<WalletState[]> {
  const rows = await db.query<WalletRow>(`SELECT ${COLUMNS} FROM wallets WHERE load_all AND NOT complete ORDER BY id`);
  return rows.map(toState);
}
