/**
 * A TronGrid replay of our own (node:http on a real socket, port 0) serving exactly the four
 * endpoints of tron-endpoints.md over recorded and derived transactions, and 404 for anything
 * else, so a source that strays outside the contract fails its tests:
 *  1. GET /v1/accounts/{a}/transactions  (only_from / only_to semantics, limit <= 200,
 *     fingerprint paging that resumes strictly after the last record, min/max_timestamp)
 *  2. GET /v1/accounts/{a}/transactions/trc20  (one record per Transfer/Approval log naming the account)
 *  3. POST|GET /wallet(solidity)/gettransactioninfobyid
 *  4. POST /wallet(solidity)/triggerconstantcontract  (symbol, decimals, name of the served tokens;
 *     a SunSwap V4 manager's `poolIdToPoolKey(bytes32)` from the served pool facts, zeros for an
 *     id it does not hold, as the public mapping answers)
 * Within one block timestamp, records come in an order that is not the transaction id's (a hash
 * of it), as TronGrid promises no order there. Latency, 429 (with or without Retry-After), 5xx,
 * timeouts, truncated bodies and reset connections are injected on demand from a seeded PRNG.
 *
 * Transactions can be added while it serves (`addTransactions`, e.g. append.ts's `reissueLater` of
 * a capture), confirmed (solidified) or not yet: one not yet confirmed is in a block but not under
 * the solidified head, so it is listed by 1 and 2 unless `only_confirmed=true` (and by
 * `only_unconfirmed=true`), and its info is answered by `/wallet/` but not yet by `/walletsolidity/`
 * (`{}`, as for an unknown id), until `confirm` solidifies it. Each request is logged (`requests`),
 * so a test can tell which parameters a source sent.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { hexToTron, isTronAddress, toInternalHex, tronToHex } from '../../../src/lib/chains/tron/address.js';
import { createPrng } from '../sol-replay/synth.js';
import type { TronV4PoolFacts } from './constructed.js';
import type { TronReplayTx, TronTokenFacts } from './fixtures.js';

export type TronFaultKind = '429' | '429-retry-after' | '5xx' | 'timeout' | 'truncate' | 'reset';

export interface TronReplayConfig {
  latencyMs: number;
  faults?: { rate: number; kinds?: TronFaultKind[]; seed?: number; hangMs?: number };
  /** A fault for matching requests (by endpoint name: transactions, trc20, info, constant). */
  failWhen?: (endpoint: string, url: URL) => TronFaultKind | null;
  /**
   * The node serving the account lists is ahead of the solidity node (TronGrid's nodes are not one):
   * `only_confirmed=true` lists transactions added with `confirmed: false` too, whose infos
   * `/walletsolidity/` still answers `{}` until `confirm` names them.
   */
  listingAhead?: boolean;
}

export interface TronReplayStats {
  httpRequests: number;
  byEndpoint: Record<string, number>;
  faults: Record<string, number>;
  notFound: number;
  maxInFlight: number;
  /** Constant calls of `poolIdToPoolKey` (counted under `constant` too). */
  poolKeyCalls: number;
}

/** One request as the replay saw it (`requests`, emptied by `resetStats`; at least the last 10,000 kept). */
export interface TronReplayRequest {
  /** Date.now() when the request had arrived (before any latency the replay adds). */
  at: number;
  method: string;
  /** transactions, trc20, info, constant; null for a path outside the subset (answered 404). */
  endpoint: string | null;
  path: string;
  /** The query parameters, as sent. */
  query: Record<string, string>;
  /** A POST's JSON body (e.g. `{ value: txid }`), when it parses. */
  body?: any;
}

export interface TronReplayServer {
  url: string;
  config: TronReplayConfig;
  stats: TronReplayStats;
  /** Requests since the start or the last `resetStats`, oldest first. */
  readonly requests: readonly TronReplayRequest[];
  resetStats(): void;
  /**
   * Serves more transactions from now on (while streams are open too). `confirmed: false` adds
   * them in blocks not solidified yet (see the file comment) until `confirm` names them.
   */
  addTransactions(txs: Iterable<TronReplayTx>, o?: { confirmed?: boolean }): void;
  /** Solidifies transactions added with `confirmed: false` (by id). */
  confirm(ids: Iterable<string>): void;
  close(): Promise<void>;
}

const TOPIC_TRANSFER = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const TOPIC_APPROVAL = '8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';
const SELECTORS: Record<string, 'symbol' | 'decimals' | 'name'> = { '95d89b41': 'symbol', '313ce567': 'decimals', '06fdde03': 'name' };
/** `poolIdToPoolKey(bytes32)`. */
const POOL_ID_TO_POOL_KEY = '0e2d484a';

interface Entry {
  tx: TronReplayTx;
  ts: number;
  /** Tie-break within a timestamp: a hash of the id, so not the id's own order. */
  tie: string;
  from: Set<string>;
  to: Set<string>;
  internal: Set<string>;
}

interface Trc20Entry {
  record: any;
  ts: number;
  tie: string;
  from: string;
  to: string;
  token: string;
}

const hashOf = (s: string) => createHash('sha256').update(s).digest('hex');

/** Newest first; the tie-break reversed for `asc`. */
const compare = (a: { ts: number; tie: string }, b: { ts: number; tie: string }) => b.ts - a.ts || (a.tie < b.tie ? 1 : a.tie > b.tie ? -1 : 0);

function entryOf(tx: TronReplayTx): Entry {
  const c = tx.record.raw_data.contract[0];
  const v = c.parameter.value;
  const from = new Set<string>([hexToTron(v.owner_address)]);
  const to = new Set<string>();
  for (const k of ['to_address', 'contract_address', 'receiver_address']) if (v[k]) to.add(hexToTron(v[k]));
  const internal = new Set<string>();
  for (const it of tx.info?.internal_transactions ?? []) {
    if (it.caller_address) internal.add('from:' + hexToTron(it.caller_address));
    if (it.transferTo_address) internal.add('to:' + hexToTron(it.transferTo_address));
  }
  return { tx, ts: tx.record.block_timestamp, tie: hashOf(tx.record.txID), from, to, internal };
}

/** Parses an account path segment: base58, 41-hex or 0x-hex. */
function accountOf(s: string): string | null {
  if (isTronAddress(s)) return s;
  if (/^41[0-9a-fA-F]{40}$/.test(s) || /^0x[0-9a-fA-F]{40}$/.test(s)) return hexToTron(s);
  return null;
}

const bool = (u: URL, snake: string, camel: string) => (u.searchParams.get(snake) ?? u.searchParams.get(camel)) === 'true';
const num = (u: URL, ...names: string[]) => {
  for (const n of names) {
    const v = u.searchParams.get(n);
    if (v !== null) return Number(v);
  }
  return undefined;
};

function encodeFingerprint(o: { q: string; ts: number; tie: string }): string {
  return Buffer.from(JSON.stringify(o)).toString('base64url');
}
function decodeFingerprint(s: string): { q: string; ts: number; tie: string } | null {
  try {
    const o = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    return typeof o.q === 'string' && typeof o.ts === 'number' && typeof o.tie === 'string' ? o : null;
  } catch {
    return null;
  }
}

export async function startTronReplayServer(o: {
  transactions: Iterable<TronReplayTx>;
  tokens: Iterable<TronTokenFacts>;
  /** SunSwap V4 pools the managers answer for. */
  v4Pools?: Iterable<TronV4PoolFacts>;
  latencyMs?: number;
  faults?: TronReplayConfig['faults'];
  port?: number;
}): Promise<TronReplayServer> {
  const entries: Entry[] = [];
  const byId = new Map<string, TronReplayTx>();
  /** Ids served but not solidified yet. */
  const pending = new Set<string>();
  let trc20: Trc20Entry[] = [];
  const tokens = new Map<string, TronTokenFacts>();
  for (const t of o.tokens) tokens.set(tronToHex(t.address)!, t);
  const v4Pools = new Map<string, Map<string, TronV4PoolFacts>>();
  for (const p of o.v4Pools ?? []) {
    const m = tronToHex(p.manager)!;
    if (!v4Pools.has(m)) v4Pools.set(m, new Map());
    v4Pools.get(m)!.set(p.id.slice(2).toLowerCase(), p);
  }

  function add(txs: Iterable<TronReplayTx>, confirmed = true) {
    for (const tx of txs) {
      byId.set(tx.record.txID, tx);
      if (!confirmed) pending.add(tx.record.txID);
      entries.push(entryOf(tx));
      if (tx.record.ret?.[0]?.contractRet !== 'SUCCESS') continue;
      for (const l of tx.info?.log ?? []) {
        const t0 = l.topics[0];
        if ((t0 !== TOPIC_TRANSFER && t0 !== TOPIC_APPROVAL) || l.topics.length !== 3) continue;
        const token = tokens.get(toInternalHex(l.address));
        const from = hexToTron(l.topics[1]);
        const to = hexToTron(l.topics[2]);
        trc20.push({
          ts: tx.record.block_timestamp,
          tie: hashOf(tx.record.txID + l.topics.join('') + (l.data ?? '')),
          from,
          to,
          token: hexToTron(l.address),
          record: {
            transaction_id: tx.record.txID,
            token_info: token
              ? { symbol: token.symbol, address: token.address, decimals: token.decimals, name: token.name }
              : { address: hexToTron(l.address) },
            block_timestamp: tx.record.block_timestamp,
            from,
            to,
            type: t0 === TOPIC_TRANSFER ? 'Transfer' : 'Approval',
            value: BigInt('0x' + (l.data || '0')).toString(),
          },
        });
      }
    }
    entries.sort(compare);
    trc20 = trc20.sort(compare);
  }
  add(o.transactions);

  const config: TronReplayConfig = { latencyMs: o.latencyMs ?? 0, faults: o.faults };
  const fresh = (): TronReplayStats => ({ httpRequests: 0, byEndpoint: {}, faults: {}, notFound: 0, maxInFlight: 0, poolKeyCalls: 0 });
  let stats = fresh();
  let requests: TronReplayRequest[] = [];
  let inFlight = 0;
  let rng = createPrng(o.faults?.seed ?? 7);
  let rngSeed = o.faults?.seed;
  const sockets = new Set<Socket>();

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  };
  const bad = (res: ServerResponse, error: string) => send(res, 400, { success: false, error, statusCode: 400 });

  /** The page of `list` (sorted newest first) after the fingerprint, with TronGrid's meta. */
  function pageOf<T extends { ts: number; tie: string }>(u: URL, list: T[], q: string, res: ServerResponse, map: (t: T) => unknown) {
    const limit = num(u, 'limit') ?? 20;
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) return bad(res, `limit must be 1..200`);
    const asc = (u.searchParams.get('order_by') ?? 'block_timestamp,desc') === 'block_timestamp,asc';
    const min = num(u, 'min_timestamp', 'minTimestamp', 'min_block_timestamp');
    const max = num(u, 'max_timestamp', 'maxTimestamp', 'max_block_timestamp');
    let rows = list.filter((e) => (min === undefined || e.ts >= min) && (max === undefined || e.ts <= max));
    if (asc) rows = rows.slice().reverse();
    const fp = u.searchParams.get('fingerprint');
    if (fp !== null) {
      const f = decodeFingerprint(fp);
      if (!f || f.q !== q) return bad(res, 'fingerprint is not readable for this query');
      const after = (e: T) => (asc ? compare(e, f) < 0 : compare(e, f) > 0);
      rows = rows.filter(after);
    }
    const page = rows.slice(0, limit);
    const more = rows.length > limit;
    const meta: any = { at: Date.now(), page_size: page.length };
    if (more) {
      const last = page[page.length - 1];
      meta.fingerprint = encodeFingerprint({ q, ts: last.ts, tie: last.tie });
      const next = new URL(u.toString());
      next.searchParams.set('fingerprint', meta.fingerprint);
      meta.links = { next: next.toString() };
    }
    send(res, 200, { data: page.map(map), success: true, meta });
  }

  /** A record's place under only_confirmed / only_unconfirmed (neither: confirmed or not). */
  const solidityOk = (id: string, confirmed: boolean, unconfirmed: boolean) =>
    confirmed ? !pending.has(id) || config.listingAhead === true : unconfirmed ? pending.has(id) : true;

  /** The query's identity for fingerprints: every parameter but the fingerprint. */
  const queryKey = (path: string, u: URL) =>
    path +
    '?' +
    [...u.searchParams.entries()]
      .filter(([k]) => k !== 'fingerprint')
      .sort()
      .map(([k, v]) => `${k}=${v}`)
      .join('&');

  function accountTransactions(u: URL, account: string, res: ServerResponse) {
    const confirmed = bool(u, 'only_confirmed', 'onlyConfirmed');
    const unconfirmed = bool(u, 'only_unconfirmed', 'onlyUnconfirmed');
    if (confirmed && unconfirmed) return bad(res, 'only_confirmed and only_unconfirmed cannot both be true');
    let onlyFrom = bool(u, 'only_from', 'onlyFrom');
    let onlyTo = bool(u, 'only_to', 'onlyTo');
    if (onlyFrom && onlyTo) onlyFrom = onlyTo = false; // not exclusive: both is neither
    const internal = (u.searchParams.get('search_internal') ?? 'true') !== 'false';
    const list = entries.filter((e) => {
      if (!solidityOk(e.tx.record.txID, confirmed, unconfirmed)) return false;
      const sent = e.from.has(account) || (internal && e.internal.has('from:' + account));
      const got = e.to.has(account) || (internal && e.internal.has('to:' + account));
      return onlyFrom ? sent : onlyTo ? got : sent || got;
    });
    pageOf(u, list, queryKey(`tx/${account}`, u), res, (e) => e.tx.record);
  }

  function trc20Transfers(u: URL, account: string, res: ServerResponse) {
    const confirmed = bool(u, 'only_confirmed', 'onlyConfirmed');
    const unconfirmed = bool(u, 'only_unconfirmed', 'onlyUnconfirmed');
    if (confirmed && unconfirmed) return bad(res, 'only_confirmed and only_unconfirmed cannot both be true');
    let onlyFrom = bool(u, 'only_from', 'onlyFrom');
    let onlyTo = bool(u, 'only_to', 'onlyTo');
    if (onlyFrom && onlyTo) onlyFrom = onlyTo = false;
    const c = u.searchParams.get('contract_address');
    const token = c === null ? null : accountOf(c);
    if (c !== null && !token) return bad(res, 'contract_address is not an address');
    const list = trc20.filter(
      (e) =>
        solidityOk(e.record.transaction_id, confirmed, unconfirmed) &&
        (token === null || e.token === token) &&
        (onlyFrom ? e.from === account : onlyTo ? e.to === account : e.from === account || e.to === account),
    );
    pageOf(u, list, queryKey(`trc20/${account}`, u), res, (e) => e.record);
  }

  function constantCall(body: any, res: ServerResponse) {
    const hexMsg = (s: string) => Buffer.from(s).toString('hex');
    let contract: string | null;
    try {
      contract = body.visible ? tronToHex(String(body.contract_address)) : toInternalHex(String(body.contract_address));
    } catch {
      contract = null;
    }
    const data = String(body.data ?? '')
      .replace(/^0x/, '')
      .toLowerCase();
    const pools = contract ? v4Pools.get(contract) : undefined;
    if (pools && data.startsWith(POOL_ID_TO_POOL_KEY)) {
      stats.poolKeyCalls++;
      // the mapping's getter: currency0, currency1, hooks, fee, parameters; zeros for an unknown id
      const p = pools.get(data.slice(8, 72));
      const w = (v: bigint) => v.toString(16).padStart(64, '0');
      const a = (t: string) => BigInt(t.startsWith('T') ? tronToHex(t)! : t);
      const out = p ? w(a(p.currency0)) + w(a(p.currency1)) + w(a(p.hooks)) + w(BigInt(p.fee)) + w(p.parameters) : '0'.repeat(5 * 64);
      return send(res, 200, { result: { result: true }, energy_used: 1012, constant_result: [out], transaction: { ret: [{}], visible: false } });
    }
    const token = contract ? tokens.get(contract) : undefined;
    if (!token) return send(res, 200, { result: { code: 'CONTRACT_VALIDATE_ERROR', message: hexMsg('No contract or not a valid smart contract') } });
    const selector = body.data
      ? String(body.data).slice(0, 8).toLowerCase()
      : Object.entries(SELECTORS).find(([, n]) => `${n}()` === body.function_selector)?.[0];
    const what = selector ? SELECTORS[selector] : undefined;
    if (!what) return send(res, 200, { result: { code: 'CONTRACT_EXE_ERROR', message: hexMsg('REVERT opcode executed') }, constant_result: [''] });
    let out: string;
    if (what === 'decimals') out = BigInt(token.decimals).toString(16).padStart(64, '0');
    else {
      const b = Buffer.from(what === 'symbol' ? token.symbol : token.name, 'utf8');
      out = (32).toString(16).padStart(64, '0') + b.length.toString(16).padStart(64, '0') + b.toString('hex').padEnd(Math.ceil(b.length / 32) * 64 || 64, '0');
    }
    send(res, 200, { result: { result: true }, energy_used: 297, constant_result: [out], transaction: { ret: [{}], visible: false } });
  }

  function endpointOf(method: string, path: string): string | null {
    if (method === 'GET' && /^\/v1\/accounts\/[^/]+\/transactions$/.test(path)) return 'transactions';
    if (method === 'GET' && /^\/v1\/accounts\/[^/]+\/transactions\/trc20$/.test(path)) return 'trc20';
    if ((method === 'GET' || method === 'POST') && /^\/wallet(solidity)?\/gettransactioninfobyid$/.test(path)) return 'info';
    if (method === 'POST' && /^\/wallet(solidity)?\/triggerconstantcontract$/.test(path)) return 'constant';
    return null;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, bodyText: string, arrivedAt: number) {
    const u = new URL(req.url ?? '/', 'http://replay');
    const endpoint = endpointOf(req.method ?? 'GET', u.pathname);
    let logged: any;
    try {
      logged = bodyText ? JSON.parse(bodyText) : undefined;
    } catch {
      logged = undefined;
    }
    requests.push({ at: arrivedAt, method: req.method ?? 'GET', endpoint, path: u.pathname, query: Object.fromEntries(u.searchParams), body: logged });
    if (requests.length > 20_000) requests = requests.slice(-10_000);
    if (!endpoint) {
      stats.notFound++;
      return send(res, 404, { success: false, error: 'not part of the replayed TronGrid subset', statusCode: 404 });
    }
    stats.byEndpoint[endpoint] = (stats.byEndpoint[endpoint] ?? 0) + 1;

    const c = config.faults;
    if (c?.seed !== rngSeed) {
      rng = createPrng(c?.seed ?? 7);
      rngSeed = c?.seed;
    }
    const fault =
      config.failWhen?.(endpoint, u) ?? (c && c.rate > 0 && rng() < c.rate ? (c.kinds ?? ['429'])[Math.floor(rng() * (c.kinds ?? ['429']).length)] : null);
    if (fault) {
      stats.faults[fault] = (stats.faults[fault] ?? 0) + 1;
      if (fault === '429') return send(res, 429, { Error: 'request rate exceeded the allowed_rps(15), and the query server is suspended for 1 s' });
      if (fault === '429-retry-after')
        return send(res, 429, { Error: 'request rate exceeded the allowed_rps(15), and the query server is suspended for 1 s' }, { 'retry-after': '1' });
      if (fault === '5xx') return send(res, 503, { error: 'service unavailable' });
      if (fault === 'reset') return req.socket.destroy();
      if (fault === 'timeout') {
        setTimeout(() => req.socket.destroy(), c?.hangMs ?? 20_000).unref();
        return;
      }
      // truncate: a body cut short
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"data":[{"ret":');
    }

    if (endpoint === 'transactions' || endpoint === 'trc20') {
      const account = accountOf(decodeURIComponent(u.pathname.split('/')[3]));
      if (!account) return bad(res, 'invalid address');
      return endpoint === 'transactions' ? accountTransactions(u, account, res) : trc20Transfers(u, account, res);
    }
    let body: any;
    if (req.method === 'POST') {
      try {
        body = JSON.parse(bodyText || '{}');
      } catch {
        return bad(res, 'body is not JSON');
      }
    } else body = { value: u.searchParams.get('value') };
    if (endpoint === 'info') {
      const id = String(body.value ?? '');
      const tx = byId.get(id);
      // The solidified view knows a transaction once its block is under the solidified head.
      const known = tx && !(u.pathname.startsWith('/walletsolidity/') && pending.has(id));
      return send(res, 200, known ? tx.info : {});
    }
    return constantCall(body, res);
  }

  const server = createServer((req, res) => {
    stats.httpRequests++;
    inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const arrivedAt = Date.now();
      const go = () => void handle(req, res, Buffer.concat(chunks).toString('utf8'), arrivedAt).catch((e) => send(res, 500, { error: String(e) }));
      if (config.latencyMs > 0) setTimeout(go, config.latencyMs);
      else go();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(o.port ?? 0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    config,
    get stats() {
      return stats;
    },
    get requests() {
      return requests;
    },
    resetStats() {
      stats = fresh();
      requests = [];
    },
    addTransactions: (txs, opts) => add(txs, opts?.confirmed ?? true),
    confirm(ids) {
      for (const id of ids) {
        if (!pending.has(id)) throw new Error(`the replay has no pending transaction ${id}`);
        pending.delete(id);
      }
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
