/// <reference lib="webworker" />
/**
 * PnL off the main thread and off the loader: computing 100,000 trades with exact bigints takes
 * about 500 ms here, which on the page would drop ~30 frames, and in the loader worker would stall
 * ingestion. It reads the wallet from IndexedDB itself, so only the report crosses threads.
 */
import * as Comlink from 'comlink';
import { getDb, tradesNewestFirst } from './db.js';
import { computePnlNewestFirst, type PnlReport } from './pnl.js';

export interface PnlResult extends PnlReport {
  dexes: string[];
  trades: number;
}

const exposed = {
  async compute(walletId: string): Promise<PnlResult> {
    const rows = await tradesNewestFirst(getDb(), walletId);
    const report = computePnlNewestFirst(rows);
    const dexes = new Set<string>();
    for (const r of rows) dexes.add(r.dex);
    return { ...report, dexes: [...dexes].sort(), trades: rows.length };
  },
};

export type PnlWorkerApi = typeof exposed;
Comlink.expose(exposed);
