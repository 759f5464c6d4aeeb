/**
 * A Solana JSON-RPC replay server of our own (node:http on a real socket, port 0): recorded
 * getTransaction results, getSignaturesForAddress pages built from them, getMultipleAccounts /
 * getAccountInfo for synthesised metadata accounts, getTokenAccountsByOwner from the served
 * transactions' token balances, batch arrays, latency per request, a rate
 * limit answering 429 with Retry-After, and injected faults from a seeded PRNG.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { attachLogsSubscriptions, type LogsSubscriptions } from './logs-subscriptions.js';
import type { Socket } from 'node:net';
import type { ReplayTransaction } from './fixtures.js';
import { base58Decode } from '../../../src/lib/chains/sol/address.js';
import { createPrng } from './synth.js';
import type { ReplayAccount } from './token-accounts.js';

export type FaultKind = '5xx' | 'timeout' | 'truncate' | '429' | 'reset';

export interface ReplayFaults {
  /** Share of HTTP requests that get a fault, 0..1. */
  rate: number;
  kinds?: FaultKind[];
  seed?: number;
  /** How long a 'timeout' request is held before its socket is dropped. Default 20 s. */
  hangMs?: number;
}

export interface ParsedCall {
  method: string;
  params: any[];
}

export interface ReplayConfig {
  /** Delay before each HTTP response, ms. */
  latencyMs: number;
  /** Accept JSON-RPC batch arrays (else 400 with -32600, as some providers do). */
  batch: boolean;
  /** Largest batch array accepted (else 413). */
  maxBatchSize: number;
  /** Sliding-window limit on HTTP requests, answered 429 with Retry-After. */
  rateLimit?: { requests: number; perMs: number; retryAfterSeconds?: number };
  faults?: ReplayFaults;
  /** Forces a fault for matching requests (persistent failures in tests). */
  failWhen?: (calls: ParsedCall[]) => FaultKind | null;
  /** A JSON-RPC error for one call (inside a batch too), e.g. -32005 "node is behind". */
  itemError?: (call: ParsedCall) => { code: number; message: string } | null;
  /**
   * Parks matching requests unanswered until `releaseHeld()`: a test freezes a walk at a known
   * point (e.g. every signatures page after the first) instead of racing a timer.
   */
  holdWhen?: (calls: ParsedCall[]) => boolean;
}

export interface ReplayStats {
  /** JSON-RPC calls answered (batch items counted one by one). */
  requests: number;
  httpRequests: number;
  byMethod: Record<string, number>;
  batches: number;
  faults: Record<string, number>;
  rateLimited: number;
  /** Most HTTP requests seen in flight at once. */
  maxInFlight: number;
  bytesOut: number;
}

export interface ReplayServerOptions extends Partial<ReplayConfig> {
  transactions?: Iterable<ReplayTransaction>;
  accounts?: Map<string, ReplayAccount>;
  host?: string;
  port?: number;
}

export interface ReplayServer {
  url: string;
  close(): Promise<void>;
  stats: ReplayStats;
  /** Live settings: change latency, faults, batching while the server runs. */
  config: ReplayConfig;
  resetStats(): void;
  /** HTTP requests being answered right now. */
  readonly inFlight: number;
  /** Adds transactions (e.g. newer ones for a refresh test); `logsSubscribe` subscribers of their accounts are told. */
  addTransactions(txs: Iterable<ReplayTransaction>): void;
  /** The RPC's WebSocket (logsSubscribe), ws:// on the same port: drop its connections, or refuse new ones. */
  ws: LogsSubscriptions;
  /**
   * The owner's open token accounts after the newest served transaction (what
   * getTokenAccountsByOwner answers); computed on first use, so a benchmark calls it before timing.
   */
  tokenAccountsOf(owner: string): ReplayTokenAccount[];
  /** Answers every request `holdWhen` parked; later ones are parked again while `holdWhen` matches. */
  releaseHeld(): void;
  /** Requests parked by `holdWhen` right now. */
  readonly heldCount: number;
}

export interface ReplayTokenAccount {
  pubkey: string;
  mint: string;
  owner: string;
  amount: bigint;
  /** Token program owning the account. */
  program: string;
}

const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

/** A transaction's account keys in index order: static keys, then loaded writable, then readonly. */
function orderedKeys(tx: any): string[] {
  const keys: string[] = [];
  for (const k of tx.transaction?.message?.accountKeys ?? []) keys.push(typeof k === 'string' ? k : k.pubkey);
  const loaded = tx.meta?.loadedAddresses;
  if (loaded) keys.push(...(loaded.writable ?? []), ...(loaded.readonly ?? []));
  return keys;
}

/** SPL token account layout (165 bytes; Token-2022 adds the account-type byte 2 at 165). */
function tokenAccountData(a: ReplayTokenAccount): Buffer {
  const b = Buffer.alloc(a.program === TOKEN_PROGRAM_ID ? 165 : 166);
  Buffer.from(base58Decode(a.mint)!).copy(b, 0);
  Buffer.from(base58Decode(a.owner)!).copy(b, 32);
  b.writeBigUInt64LE(a.amount, 64);
  b[108] = 1; // AccountState::Initialized
  if (b.length === 166) b[165] = 2; // AccountType::Account
  return b;
}

/** The per-address list, newest first: slot descending, then later in the block first. */
function compareNewestFirst(a: ReplayTransaction, b: ReplayTransaction): number {
  return b.slot - a.slot || b.indexInSlot - a.indexInSlot;
}

function emptyStats(): ReplayStats {
  return { requests: 0, httpRequests: 0, byMethod: {}, batches: 0, faults: {}, rateLimited: 0, maxInFlight: 0, bytesOut: 0 };
}

class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The calls of a request body as `holdWhen` sees them; an unparsable body is no calls. */
function parseCalls(raw: string): ParsedCall[] {
  try {
    const body = JSON.parse(raw) as unknown;
    const list = (Array.isArray(body) ? body : [body]) as Array<{ method?: unknown; params?: unknown }>;
    return list.map((c) => ({ method: String(c?.method), params: Array.isArray(c?.params) ? c.params : [] }));
  } catch {
    return [];
  }
}

export async function startSolanaReplayServer(options: ReplayServerOptions = {}): Promise<ReplayServer> {
  const bySignature = new Map<string, ReplayTransaction>();
  const byAddress = new Map<string, ReplayTransaction[]>();
  const accounts = options.accounts ?? new Map<string, ReplayAccount>();
  const config: ReplayConfig = {
    latencyMs: options.latencyMs ?? 0,
    batch: options.batch ?? true,
    maxBatchSize: options.maxBatchSize ?? 1000,
    rateLimit: options.rateLimit,
    faults: options.faults,
    failWhen: options.failWhen,
    itemError: options.itemError,
    holdWhen: options.holdWhen,
  };
  let stats = emptyStats();
  let rng = createPrng(config.faults?.seed ?? 7);
  let rngSeed = config.faults?.seed;
  const window: number[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let inFlight = 0;

  function addTransactions(txs: Iterable<ReplayTransaction>): void {
    const touched = new Set<ReplayTransaction[]>();
    for (const t of txs) {
      bySignature.set(t.signature, t);
      for (const a of t.accounts) {
        let list = byAddress.get(a);
        if (!list) byAddress.set(a, (list = []));
        list.push(t);
        touched.add(list);
      }
    }
    for (const list of touched) list.sort(compareNewestFirst);
    held.clear();
  }

  const held = new Map<string, ReplayTokenAccount[]>();
  function tokenAccountsOf(owner: string): ReplayTokenAccount[] {
    let out = held.get(owner);
    if (out) return out;
    const open = new Map<string, ReplayTokenAccount>();
    const list = byAddress.get(owner) ?? [];
    // Oldest first: each transaction's post balances are the accounts' state after it; an
    // account of the owner in its pre balances but not in its post ones was closed by it.
    for (let i = list.length - 1; i >= 0; i--) {
      const t = list[i];
      if (t.text === null || t.err !== null) continue;
      const tx = JSON.parse(t.text);
      const keys = orderedKeys(tx);
      const post = new Set<string>();
      for (const b of tx.meta?.postTokenBalances ?? []) {
        const pubkey = keys[b.accountIndex];
        if (b.owner !== owner || !pubkey) continue;
        post.add(pubkey);
        open.set(pubkey, { pubkey, mint: b.mint, owner, amount: BigInt(b.uiTokenAmount?.amount ?? '0'), program: b.programId ?? TOKEN_PROGRAM_ID });
      }
      for (const b of tx.meta?.preTokenBalances ?? []) {
        const pubkey = keys[b.accountIndex];
        if (b.owner === owner && pubkey && !post.has(pubkey)) open.delete(pubkey);
      }
    }
    out = [...open.values()];
    held.set(owner, out);
    return out;
  }
  addTransactions(options.transactions ?? []);

  /** Index of the first entry strictly older than `sig` in a newest-first list. */
  function indexAfter(list: ReplayTransaction[], sig: string): number {
    const t = bySignature.get(sig);
    if (!t) return -1;
    // Binary search on (slot, indexInSlot) descending.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareNewestFirst(list[mid], t) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo < list.length && list[lo].signature === sig ? lo : -1;
  }

  function getSignaturesForAddress(params: any[]): string {
    const [addr, cfg = {}] = params;
    if (typeof addr !== 'string') throw new RpcFailure(-32602, 'Invalid param: address');
    const limit = cfg.limit ?? 1000;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new RpcFailure(-32602, 'Invalid limit; max 1000');
    const list = byAddress.get(addr) ?? [];
    let start = 0;
    if (cfg.before) {
      const i = indexAfter(list, cfg.before);
      if (i < 0) return '[]';
      start = i + 1;
    }
    let end = list.length;
    if (cfg.until) {
      const i = indexAfter(list, cfg.until);
      if (i >= 0) end = i;
    }
    const page = list.slice(start, Math.min(end, start + limit));
    return JSON.stringify(
      page.map((t) => ({ signature: t.signature, slot: t.slot, err: t.err, memo: null, blockTime: t.blockTime, confirmationStatus: 'finalized' })),
    );
  }

  function getTransaction(params: any[]): string {
    const [sig, cfg = {}] = params;
    const t = bySignature.get(sig);
    if (!t || t.text === null) return 'null';
    if (t.version === 0 && cfg.maxSupportedTransactionVersion === undefined) {
      throw new RpcFailure(
        -32015,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      );
    }
    return t.text;
  }

  function accountJson(a: ReplayAccount | undefined): unknown {
    if (!a) return null;
    return {
      data: [Buffer.from(a.data).toString('base64'), 'base64'],
      executable: false,
      lamports: a.lamports,
      owner: a.owner,
      rentEpoch: 0,
      space: a.data.length,
    };
  }

  function getMultipleAccounts(params: any[]): string {
    const [keys] = params;
    if (!Array.isArray(keys)) throw new RpcFailure(-32602, 'Invalid param: keys');
    if (keys.length > 100) throw new RpcFailure(-32602, 'Too many inputs provided; max 100');
    return JSON.stringify({ context: { slot: 400_000_000, apiVersion: '2.2.0' }, value: keys.map((k: string) => accountJson(accounts.get(k))) });
  }

  function getTokenAccountsByOwner(params: any[]): string {
    const [owner, filter, cfg = {}] = params;
    if (typeof owner !== 'string' || !base58Decode(owner)) throw new RpcFailure(-32602, 'Invalid param: owner');
    const byProgram = typeof filter?.programId === 'string' ? filter.programId : undefined;
    const byMint = typeof filter?.mint === 'string' ? filter.mint : undefined;
    if (!byProgram === !byMint) throw new RpcFailure(-32602, 'Invalid param: filter must be { mint } or { programId }');
    if (cfg.encoding !== 'base64') throw new RpcFailure(-32602, 'this replay server answers getTokenAccountsByOwner in base64 only');
    const slice = cfg.dataSlice as { offset: number; length: number } | undefined;
    const value = tokenAccountsOf(owner)
      .filter((a) => (byProgram ? a.program === byProgram : a.mint === byMint))
      .map((a) => {
        const full = tokenAccountData(a);
        const data = slice ? full.subarray(slice.offset, slice.offset + slice.length) : full;
        return {
          pubkey: a.pubkey,
          account: { data: [data.toString('base64'), 'base64'], executable: false, lamports: 2_039_280, owner: a.program, rentEpoch: 0, space: full.length },
        };
      });
    return JSON.stringify({ context: { slot: 400_000_000, apiVersion: '2.2.0' }, value });
  }

  function answer(call: { id?: unknown; method?: unknown; params?: unknown }): string {
    const id = JSON.stringify(call?.id ?? null);
    const method = typeof call?.method === 'string' ? call.method : '';
    // Control methods for a server in another process (the benchmark): not counted.
    if (method === 'replay_stats') return `{"jsonrpc":"2.0","result":${JSON.stringify(stats)},"id":${id}}`;
    if (method === 'replay_resetStats') {
      stats = emptyStats();
      return `{"jsonrpc":"2.0","result":true,"id":${id}}`;
    }
    stats.requests++;
    stats.byMethod[method] = (stats.byMethod[method] ?? 0) + 1;
    const params = Array.isArray(call?.params) ? call.params : [];
    const itemError = config.itemError?.({ method, params });
    if (itemError) return JSON.stringify({ jsonrpc: '2.0', error: itemError, id: call?.id ?? null });
    try {
      let result: string;
      switch (method) {
        case 'getSignaturesForAddress':
          result = getSignaturesForAddress(params);
          break;
        case 'getTransaction':
          result = getTransaction(params);
          break;
        case 'getMultipleAccounts':
          result = getMultipleAccounts(params);
          break;
        case 'getTokenAccountsByOwner':
          result = getTokenAccountsByOwner(params);
          break;
        case 'getAccountInfo':
          result = JSON.stringify({ context: { slot: 400_000_000 }, value: accountJson(accounts.get(params[0])) });
          break;
        case 'getHealth':
          result = '"ok"';
          break;
        case 'getSlot': {
          let max = 0;
          for (const t of bySignature.values()) max = Math.max(max, t.slot);
          result = String(max);
          break;
        }
        default:
          throw new RpcFailure(-32601, 'Method not found');
      }
      return `{"jsonrpc":"2.0","result":${result},"id":${id}}`;
    } catch (e) {
      const f = e instanceof RpcFailure ? e : new RpcFailure(-32603, String(e));
      return JSON.stringify({ jsonrpc: '2.0', error: { code: f.code, message: f.message }, id: call?.id ?? null });
    }
  }

  const OPEN = Buffer.from('[');
  const COMMA = Buffer.from(',');
  const CLOSE = Buffer.from(']');
  const RESULT = Buffer.from('{"jsonrpc":"2.0","result":');
  /** What `answer` gives, as bytes: a getTransaction answer from the encoded text, anything else encoded now. */
  function answerBytes(call: { id?: unknown; method?: unknown; params?: unknown }): Buffer {
    const params = Array.isArray(call?.params) ? call.params : [];
    const t = call?.method === 'getTransaction' ? bySignature.get(params[0]) : undefined;
    const cfg = params[1] ?? {};
    if (!t || t.text === null || (t.version === 0 && cfg.maxSupportedTransactionVersion === undefined) || config.itemError) return Buffer.from(answer(call));
    stats.requests++;
    stats.byMethod.getTransaction = (stats.byMethod.getTransaction ?? 0) + 1;
    return Buffer.concat([RESULT, Buffer.from(t.text), Buffer.from(`,"id":${JSON.stringify(call?.id ?? null)}}`)]);
  }

  function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
    const buf = typeof body === 'string' ? Buffer.from(body) : body;
    stats.bytesOut += buf.length;
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(buf.length), ...headers });
    res.end(buf);
  }

  function later(ms: number, fn: () => void): void {
    if (ms <= 0) return fn();
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  }

  function pickFault(calls: ParsedCall[]): FaultKind | null {
    const forced = config.failWhen?.(calls);
    if (forced) return forced;
    const f = config.faults;
    if (!f || f.rate <= 0) return null;
    if (f.seed !== rngSeed) {
      rng = createPrng(f.seed ?? 7);
      rngSeed = f.seed;
    }
    if (rng() >= f.rate) return null;
    const kinds = f.kinds ?? ['5xx', 'timeout', 'truncate', '429'];
    return kinds[Math.floor(rng() * kinds.length)];
  }

  function handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    if (raw.includes('"replay_')) return send(res, 200, answer(JSON.parse(raw)));
    stats.httpRequests++;
    inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    if (req.method !== 'POST') return later(config.latencyMs, () => send(res, 405, '{"error":"POST only"}'));

    const rl = config.rateLimit;
    if (rl) {
      const now = performance.now();
      while (window.length > 0 && window[0] <= now - rl.perMs) window.shift();
      if (window.length >= rl.requests) {
        stats.rateLimited++;
        const retryAfter = String(rl.retryAfterSeconds ?? 1);
        return later(config.latencyMs, () =>
          send(res, 429, JSON.stringify({ jsonrpc: '2.0', error: { code: 429, message: 'Too many requests for a specific RPC call' }, id: null }), {
            'retry-after': retryAfter,
          }),
        );
      }
      window.push(now);
    }

    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return later(config.latencyMs, () => send(res, 200, '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}'));
    }
    const isBatch = Array.isArray(body);
    const calls = (isBatch ? (body as any[]) : [body]) as { method: string; params: any[]; id: unknown }[];
    const fault = pickFault(calls.map((c) => ({ method: c?.method, params: Array.isArray(c?.params) ? c.params : [] })));
    if (fault) {
      stats.faults[fault] = (stats.faults[fault] ?? 0) + 1;
      switch (fault) {
        case 'timeout':
          // Hold the request unanswered; the client's timeout must fire. Dropped later or on close.
          return later(config.faults?.hangMs ?? 20_000, () => req.socket.destroy());
        case 'reset':
          return later(config.latencyMs, () => req.socket.destroy());
        case '429':
          stats.rateLimited++;
          return later(config.latencyMs, () =>
            send(res, 429, '{"jsonrpc":"2.0","error":{"code":429,"message":"rate limited"},"id":null}', { 'retry-after': '0' }),
          );
        case '5xx':
          return later(config.latencyMs, () =>
            send(res, [500, 502, 503][Math.floor(rng() * 3)], '<html>upstream error</html>', { 'content-type': 'text/html' }),
          );
        case 'truncate':
          break; // answered below, cut in half
      }
    }
    let out: string | Buffer;
    if (isBatch) {
      if (!config.batch) {
        return later(config.latencyMs, () =>
          send(res, 400, '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Batch requests are not supported"},"id":null}'),
        );
      }
      if (calls.length > config.maxBatchSize) {
        return later(config.latencyMs, () =>
          send(res, 413, `{"jsonrpc":"2.0","error":{"code":-32600,"message":"Batch size too large; max ${config.maxBatchSize}"},"id":null}`),
        );
      }
      stats.batches++;
      const parts: Buffer[] = [OPEN];
      calls.forEach((c, i) => {
        if (i > 0) parts.push(COMMA);
        parts.push(answerBytes(c));
      });
      parts.push(CLOSE);
      out = Buffer.concat(parts);
    } else {
      out = answer(calls[0]);
    }
    if (fault === 'truncate') out = out.slice(0, Math.floor(out.length / 2));
    later(config.latencyMs, () => send(res, 200, out));
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (config.holdWhen && config.holdWhen(parseCalls(raw))) parked.push(() => handle(req, res, raw));
      else handle(req, res, raw);
    });
  });
  const parked: Array<() => void> = [];
  const ws = attachLogsSubscriptions(server);
  server.keepAliveTimeout = 30_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/`,
    get stats() {
      return stats;
    },
    get inFlight() {
      return inFlight;
    },
    config,
    resetStats() {
      stats = emptyStats();
    },
    addTransactions(txs) {
      const list = [...txs];
      addTransactions(list);
      for (const t of list) ws.notify(t.signature, t.slot, t.accounts);
    },
    ws,
    tokenAccountsOf,
    get heldCount() {
      return parked.length;
    },
    releaseHeld() {
      for (const run of parked.splice(0)) run();
    },
    close() {
      parked.length = 0;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
