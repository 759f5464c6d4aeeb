/// <reference lib="webworker" />
/**
 * The loader worker: owns all network loading and IndexedDB writes so the page stays at 60 fps
 * while 20,000+ trades a second are parsed and stored. The page talks to it through comlink and
 * watches progress with liveQuery on the `loads` table.
 */
import * as Comlink from 'comlink';
import type { TokenCache, TokenInfo } from '../core/chain-source.js';
import type { ChainInfo } from './api-client.js';
import { createDirectSource } from './chain-sources.js';
import { FALLBACK_CHAINS } from './chains.js';
import { getDb, walletId, type LoadRow } from './db.js';
import { explainDirectFailure } from './direct-failure.js';
import { createDirectPrices } from './direct-prices.js';
import { LiveFollower } from './live.js';
import { WalletLoader, type LoadRequest } from './loader.js';

const db = getDb();
let api = { baseUrl: '', apiKey: '' };

/** Token symbols cached in IndexedDB, so a direct-mode reload does not ask the RPC again. */
const tokenCache: TokenCache = {
  async get(chain, mints) {
    const rows = await db.tokens.bulkGet(mints.map((m) => [chain, m] as [string, string]));
    const out = new Map<string, TokenInfo>();
    rows.forEach((r) => r && out.set(r.mint, { symbol: r.symbol, decimals: r.decimals }));
    return out;
  },
  async put(chain, entries) {
    await db.tokens.bulkPut([...entries].map(([mint, v]) => ({ chain, mint, symbol: v.symbol, decimals: v.decimals })));
  },
};

/**
 * Chains as /v1/chains describes them (family; EVM: wrapped native, venues, confirmation), for
 * direct mode; the built-in list until the page sends the server's.
 */
const chainInfo = new Map<string, ChainInfo>(FALLBACK_CHAINS.map((c) => [c.slug, c]));

/** Direct mode: the chain's source, the server's code, for the wallet's RPC. */
async function directSource(req: LoadRequest) {
  if (!req.rpcUrl) throw new Error('Direct mode needs an RPC URL.');
  const info = chainInfo.get(req.chain);
  if (!info) throw new Error(`Unknown chain ${req.chain}.`);
  return createDirectSource({ chain: req.chain, family: info.family, rpcUrl: req.rpcUrl, tokenCache, info });
}

let progressListener: ((row: LoadRow) => void) | null = null;

const loader = new WalletLoader({
  db,
  api: () => api,
  source: directSource,
  onProgress: (row) => progressListener?.(row),
  prices: createDirectPrices({ nativeSymbolOf: (chain) => chainInfo.get(chain)?.nativeSymbol }),
  explainFailure: (e, req) => explainDirectFailure(e, req.rpcUrl, self.location.origin),
});

/** The network as the page last said it (its online/offline events), or the worker's own. */
let online = self.navigator.onLine;

const live = new LiveFollower({
  db,
  api: () => api,
  now: Date.now,
  loader,
  source: directSource,
  onProgress: (row) => progressListener?.(row),
  online: () => online,
});

function setOnline(value: boolean): void {
  online = value;
  if (value) live.wake();
  else live.offline();
}
self.addEventListener('online', () => setOnline(true));
self.addEventListener('offline', () => setOnline(false));

const exposed = {
  /** API origin and key; the page sends them at start and whenever the person changes them. */
  configure(config: { baseUrl: string; apiKey: string; chains?: Record<string, ChainInfo> }): void {
    api = { baseUrl: config.baseUrl, apiKey: config.apiKey };
    for (const [k, v] of Object.entries(config.chains ?? {})) chainInfo.set(k, v);
  },
  onProgress(listener: ((row: LoadRow) => void) | null): void {
    progressListener = listener;
  },
  async load(req: LoadRequest): Promise<LoadRow> {
    const id = walletId(req.chain, req.address);
    if (live.isFollowing(id)) {
      const w = await db.wallets.get(id);
      // A mode switch starts the wallet over: following it the old way stops.
      if (w && w.mode !== req.mode) {
        await db.wallets.update(id, { live: false });
        await live.stop(id);
      } else if (req.mode === 'api') {
        // Live keeps it current; a refresh beside the follow stream would store in the epoch a live line takes.
        req = { ...req, refresh: false };
      }
    }
    return loader.load(req);
  },
  async pause(chain: string, address: string): Promise<void> {
    await loader.pause(walletId(chain, address));
  },
  async cancel(chain: string, address: string): Promise<void> {
    await loader.cancel(walletId(chain, address));
  },
  isRunning(chain: string, address: string): boolean {
    return loader.isRunning(walletId(chain, address));
  },
  async resumeInterrupted(): Promise<string[]> {
    return loader.resumeInterrupted();
  },
  /** The "Live" toggle of a wallet (kept on its wallet row, so a reload resumes it). */
  async setLive(chain: string, address: string, on: boolean): Promise<void> {
    const id = walletId(chain, address);
    const w = await db.wallets.get(id);
    if (!w) return;
    await db.wallets.update(id, { live: on });
    if (on) live.start(id, { chain: w.chain, address: w.address, mode: w.mode, rpcUrl: w.rpcUrl });
    else await live.stop(id);
  },
  /** At start: every wallet whose Live toggle is on is followed again. */
  async resumeLive(): Promise<string[]> {
    const rows = (await db.wallets.toArray()).filter((w) => w.live);
    for (const w of rows) live.start(w.id, { chain: w.chain, address: w.address, mode: w.mode, rpcUrl: w.rpcUrl });
    return rows.map((w) => w.id);
  },
  /** The page's network and visibility: offline drops the open streams; online or visible again reconnects at once. */
  setOnline(value: boolean): void {
    setOnline(value);
  },
  wake(): void {
    live.wake();
  },
};

export type LoaderWorkerApi = typeof exposed;
Comlink.expose(exposed);
