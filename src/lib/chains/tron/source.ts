import type { ChainSource, HistoryBatch, HistoryParameters, TokenCache } from '../../core/chain-source.js';
import { formatUnits } from '../../core/decimal.js';
import { HistoryError } from '../../core/errors.js';
import { isoFromUnixSeconds, type SourceTrade } from '../../core/trade.js';
import { createHttpJsonClient, type HttpJsonClient, type HttpJsonStats } from '../../rpc/http-json.js';
import type { Limiter } from '../../rpc/limiter.js';
import { hexToTron, toInternalHex, tronToHex } from './address.js';
import { decodeTronTransaction, type TronTransactionInfo } from './decode/decode-transaction.js';
import { recentWalletTokens, resolveTronTokens, type RecentTokens } from './tokens/resolve-tokens.js';
import { getAccountTransactions, getTransactionInfo, type TronAccountTransaction, type TronPage } from './rpc-methods.js';

/**
 * The Tron chain source, on the four TronGrid endpoints of tron-endpoints.md.
 *
 * A walk pages through the wallet's own confirmed transactions newest first (200 a page, the
 * next page fetched while this one is decoded), keeps the successful contract calls the wallet
 * sent, fetches their transaction infos (as many at once as the chain's limiter lets through)
 * and decodes them. A page yields one batch.
 *
 * Positions. TronGrid gives no index within a block, so a trade's position is its block, then
 * its transaction id read as a number: `{block:12}.{txid as 78 decimal digits}` (decisions.md:
 * block number, then transaction id). A fingerprint only lives as long as TronGrid's cursor, so a
 * batch's position is durable instead: `{block}.{block timestamp ms}`, meaning "every block above
 * this one is delivered; resume with this block", which a later walk turns into
 * `max_timestamp`. A page can end inside a block, and TronGrid orders a block's transactions by
 * nothing we know, so the page's oldest block is held back and delivered with the next page:
 * batches then go strictly down the trade order, as the store's readers expect.
 * The head marker has the same form: the newest block the walk saw (`0.0` for none); a refresh
 * walks down to it, exclusive.
 */

export interface TronSourceOptions {
  rpcUrl: string;
  /** The chain's slug (`tron`). */
  chain?: string;
  tokens: TokenCache;
  /** Sent with every request (TRON-PRO-API-KEY). */
  headers?: Record<string, string>;
  /** HTTP requests in flight (RPC_MAX_IN_FLIGHT_TRON, default 8) and started per second (RPC_RPS_TRON). */
  maxInFlight?: number;
  requestsPerSecond?: number;
  timeoutMs?: number;
  /** A limiter shared beyond this source (the server's cross-instance rate); else its own. */
  limiter?: Limiter;
  /** Records per account page; TronGrid's maximum, 200, by default. */
  pageSize?: number;
  fetch?: typeof fetch;
  /** A client to share (tests count its requests); built from rpcUrl when absent. */
  client?: HttpJsonClient;
}

export interface TronSource extends ChainSource {
  /** HTTP requests, retries and parse time of its client, and the milliseconds spent decoding. */
  readonly stats: HttpJsonStats & { decodeMs: number };
}

/** Calls that cannot be a swap: TRC-20 `transfer`, `approve`, `transferFrom` (no info fetched for them). */
const NOT_A_SWAP = new Set(['a9059cbb', '095ea7b3', '23b872dd']);

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const TXID = /^[0-9a-f]{64}$/;

export function tronTradePosition(block: number, txid: string): string {
  return `${pad(block, 12)}.${BigInt('0x' + txid)
    .toString()
    .padStart(78, '0')}`;
}

interface Marker {
  block: number;
  ts: number;
}

function parseMarker(s: string, what: string): Marker {
  const m = /^(\d{1,12})\.(\d{1,15})$/.exec(s);
  if (!m) throw new HistoryError('invalid_position', `Tron ${what} is not a block and timestamp (block.ms)`);
  return { block: Number(m[1]), ts: Number(m[2]) };
}

const marker = (m: Marker) => `${m.block}.${m.ts}`;

/** The wallet's successful contract call in a record, or null. */
function ownCall(r: TronAccountTransaction, wallet: string) {
  const c = r.raw_data?.contract?.[0];
  if (c?.type !== 'TriggerSmartContract' || r.ret?.[0]?.contractRet !== 'SUCCESS') return null;
  const v = c.parameter?.value;
  if (!v?.owner_address || !v.contract_address) return null;
  let owner: string;
  let contract: string;
  try {
    owner = toInternalHex(v.owner_address);
    contract = toInternalHex(v.contract_address);
  } catch {
    return null;
  }
  if (owner !== wallet) return null;
  if (NOT_A_SWAP.has((v.data ?? '').slice(0, 8).toLowerCase())) return null;
  const cv = v.call_value === undefined ? 0n : BigInt(String(v.call_value));
  return { owner, contract, callValue: cv };
}

export function createTronSource(options: TronSourceOptions): TronSource {
  const slug = options.chain ?? 'tron';
  const client =
    options.client ??
    createHttpJsonClient({
      url: options.rpcUrl,
      headers: options.headers,
      maxInFlight: options.maxInFlight,
      requestsPerSecond: options.requestsPerSecond,
      limiter: options.limiter,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    });
  const pageSize = Math.min(200, Math.max(1, options.pageSize ?? 200));
  let decodeMs = 0;

  /** Decodes records (newest first) into trades, newest first. */
  async function tradesOf(
    walletT: string,
    wallet: string,
    records: readonly TronAccountTransaction[],
    recent: () => Promise<RecentTokens>,
    signal?: AbortSignal,
  ): Promise<SourceTrade[]> {
    const calls = records.flatMap((r) => {
      if (!TXID.test(r.txID)) throw new HistoryError('rpc_malformed_response', `TronGrid listed a transaction id that is not 64 hex digits: ${r.txID}`);
      const call = ownCall(r, wallet);
      return call ? [{ r, call }] : [];
    });
    if (!calls.length) return [];
    const infos: TronTransactionInfo[] = await Promise.all(calls.map(({ r }) => getTransactionInfo(client, r.txID, signal)));
    const t0 = performance.now();
    const decoded = calls.map(({ call }, i) => decodeTronTransaction(call, infos[i], wallet));
    decodeMs += performance.now() - t0;
    const tokenSet = [...new Set(decoded.flat().map((d) => hexToTron(d.token)))];
    const info = await resolveTronTokens({
      chain: slug,
      wallet: walletT,
      tokens: tokenSet,
      cache: options.tokens,
      client,
      to41: (t) => '41' + tronToHex(t)!.slice(2),
      recent,
      signal,
    });
    const out: SourceTrade[] = [];
    calls.forEach(({ r }, i) => {
      const block = infos[i].blockNumber ?? r.blockNumber;
      const ms = infos[i].blockTimeStamp ?? r.block_timestamp;
      decoded[i].forEach((d, leg) => {
        const token = hexToTron(d.token);
        const ti = info.get(token);
        out.push({
          signature: r.txID,
          side: d.side,
          token: ti?.symbol ?? '',
          tokenMint: token,
          amountSol: d.nativeRaw === null ? null : formatUnits(d.nativeRaw, 6),
          amount: ti && ti.decimals >= 0 ? formatUnits(d.amountRaw, ti.decimals) : null,
          dex: d.poolKind,
          blockTime: isoFromUnixSeconds(Math.floor(ms / 1000)),
          position: tronTradePosition(block, r.txID),
          leg,
        });
      });
    });
    out.sort((a, b) => (a.position === b.position ? a.leg - b.leg : a.position < b.position ? 1 : -1));
    return out;
  }

  async function* history(p: HistoryParameters): AsyncIterable<HistoryBatch> {
    const wallet = tronToHex(p.wallet);
    if (!wallet) throw new HistoryError('invalid_address', `not a Tron address: ${p.wallet}`);
    const signal = p.signal;
    const before = p.before !== undefined ? parseMarker(p.before, 'position') : null;
    const until = p.until !== undefined ? parseMarker(p.until, 'head marker') : null;
    // A walk from the newest point names its head on its first batch.
    let head: string | undefined;
    let headGiven = before !== null;

    const fetchPage = (fingerprint?: string): Promise<TronPage<TronAccountTransaction>> =>
      getAccountTransactions(client, {
        wallet: p.wallet,
        limit: pageSize,
        fingerprint,
        maxTimestamp: before?.ts,
        minTimestamp: until?.ts,
        signal,
      });
    // Records in the walk's window: at or below `before`'s block, above `until`'s.
    const inWindow = (r: TronAccountTransaction) => (before === null || r.blockNumber <= before.block) && (until === null || r.blockNumber > until.block);

    // The wallet's recent tokens, asked once a walk and only when a token is not cached.
    let recentTokens: Promise<RecentTokens> | null = null;
    const recent = () => (recentTokens ??= recentWalletTokens(client, p.wallet, signal));
    let carry: TronAccountTransaction[] = [];
    let next: Promise<TronPage<TronAccountTransaction>> | null = fetchPage();
    while (next) {
      signal?.throwIfAborted();
      const pg: TronPage<TronAccountTransaction> = await next;
      // Newest first: a record at or below the refresh's floor means nothing older is wanted.
      const floorReached = until !== null && pg.data.some((r) => r.blockNumber <= until.block);
      // Fetch the next page while this one's infos load; a failure is seen when it is awaited.
      next = pg.fingerprint && !floorReached ? fetchPage(pg.fingerprint) : null;
      next?.catch(() => {});
      const records = pg.data.filter(inWindow);
      if (!headGiven) {
        const newest = records[0];
        head = newest ? marker({ block: newest.blockNumber, ts: newest.block_timestamp }) : until ? marker(until) : '0.0';
        headGiven = true;
      }
      const last = next === null;
      let ready: TronAccountTransaction[];
      let position: string;
      if (last) {
        ready = [...carry, ...records];
        carry = [];
        position = '0.0';
      } else {
        // Hold back the oldest block of the page: more of it may be on the next page.
        const all = [...carry, ...records];
        const oldest = all.at(-1) ?? pg.data.at(-1);
        if (!oldest) throw new HistoryError('rpc_malformed_response', 'TronGrid gave an empty page with a fingerprint for more', { retryable: true });
        ready = all.filter((r) => r.blockNumber > oldest.blockNumber);
        carry = all.filter((r) => r.blockNumber <= oldest.blockNumber);
        position = marker({ block: oldest.blockNumber, ts: oldest.block_timestamp });
      }
      const trades = await tradesOf(p.wallet, wallet, ready, recent, signal);
      yield { trades, position, ...(head !== undefined ? { head } : {}), done: last };
      head = undefined;
    }
  }

  return {
    chain: slug,
    get stats() {
      return { ...client.stats, decodeMs };
    },
    history,
  };
}
