import { HistoryError } from '../../core/errors.js';
import { nextTurn, onAbort, sleep } from '../../core/wait.js';
import { validateAddress, type ChainRegistry, DEFAULT_CHAIN } from '../../chains/registry.js';
import type { Database } from '../store/database.js';
import { countBelow, hasTradeBelow, legsOf, newestKey, pageBounds, readRun, TOP_KEY, type TradeRun } from '../store/trades.js';
import { usdRun, usdRunUnpriced } from '../../prices/usd-run.js';
import type { Pricer } from '../prices/create-pricer.js';
import { meterRun } from '../store/usage.js';
import type { LoaderRegistry } from '../sync/loader-registry.js';
import type { WalletLoader } from '../sync/wallet-loader.js';
import type { Metrics } from '../metrics.js';
import type { Principal } from './authenticate.js';
import type { CursorCodec } from './cursor.js';
import { parseLimit } from './parse-limit.js';
import type { Realtime } from '../sync/realtime/create-realtime.js';
import { liveLines } from './live.js';
import { streamError } from './problem.js';

export interface HistoryContext {
  db: Database;
  chains: ChainRegistry;
  loaders: LoaderRegistry;
  cursors: CursorCodec;
  /** STREAM_MAX_SECONDS in ms: one budget for streams and pages. */
  budgetMs: number;
  /** A stream that has nothing to send writes an empty batch line at least this often (10 s). */
  keepaliveMs: number;
  /** Rows per stored read: each read is one database round trip (string_agg), so larger is faster up to memory. */
  readRows: number;
  /**
   * Aborted when the server is shutting down (SIGTERM): open streams end at once with their
   * final line and a cursor, as they do at the budget, so a client resumes on another instance.
   */
  closing?: AbortSignal;
  /** Counts trades delivered (GET /metrics). */
  metrics?: Pick<Metrics, 'delivered'>;
  /** include=usd: the prices, and which coin is each chain's native one (null: none priced). */
  usd?: { pricer: Pricer; coinOf(chain: string): string | null };
  /** follow=true: how long a follow stream stays open, its empty-line rhythm, the realtime stages. */
  follow?: {
    maxMs: number;
    keepaliveMs: number;
    realtime?: Realtime;
    /**
     * Several instances on PostgreSQL: resolves at the next commit of the wallet by any instance
     * (its NOTIFY), so a follow stream on an instance that does not walk the wallet (ROLE=api, or
     * another worker holding its lease) sees new trades when they are stored, not at its next empty line.
     */
    commits?: (walletId: number, ms: number, signal: AbortSignal) => Promise<void>;
  };
}

/**
 * The USD figures of a run's trades (include=usd): the run's text with two fields more on each
 * trade, and `complete` false when some price could not be had within PRICE_WAIT_MS.
 */
export async function usdOfRun(ctx: HistoryContext, t: Target, walletId: number, json: string): Promise<{ json: string; complete: boolean }> {
  const coin = ctx.usd?.coinOf(t.chain) ?? null;
  const pricer = ctx.usd?.pricer;
  try {
    return await usdRun(json, {
      chain: t.chain,
      pricesAt: async (times) => (coin && pricer ? pricer.pricesWithin(coin, times) : times.map(() => null)),
      legsOf: (signatures) => legsOf(ctx.db, walletId, signatures),
    });
  } catch {
    // Prices never cost a trade: the run goes out without them (a later read prices it).
    return { json: usdRunUnpriced(json), complete: false };
  }
}

/** `include`: a comma-separated list, each value one this API knows (only `usd`); anything else is refused. */
function parseInclude(url: URL): boolean {
  const values = url.searchParams.getAll('include').flatMap((v) => v.split(','));
  for (const v of values) {
    if (v !== 'usd') throw new HistoryError('invalid_parameter', `include takes "usd", got "${v}".`);
  }
  return values.length > 0;
}

/** Waits for the loader's next change, or until the server starts shutting down. */
function nextChangeOrClosing(ctx: HistoryContext, loader: WalletLoader, ms: number, since: number): Promise<void> {
  const closing = ctx.closing;
  if (!closing) return loader.nextChange(ms, since);
  if (closing.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const off = onAbort(closing, resolve);
    void loader.nextChange(ms, since).then(() => {
      off();
      resolve();
    });
  });
}

/** pageSize of an unbounded limit (decisions.md). */
export const UNBOUNDED_PAGE_SIZE = Number.MAX_SAFE_INTEGER;
/**
 * Stream lines start at 250 trades and double up to readRows: the first rows reach a client at
 * once (a refresh that stops at the first trade it has reads little), while long streams still
 * read 4,000 rows per round trip (one read and one metering transaction per line).
 */
const FIRST_LINE_ROWS = 250;
/** A read from the top waits this long for a refresh of a stale head (one or two RPC round trips, usually). */
const REFRESH_WAIT_MS = 5_000;
/** A cold stream waits this long for its first batch before sending headers, so an RPC that fails at once gets a 502. */
const FIRST_LINE_WAIT_MS = 1_500;

export interface Target {
  chain: string;
  /** Stored form of the address (EVM lowercase) and the form echoed to clients (EIP-55). */
  stored: string;
  shown: string;
  limit: number | null;
  /** Key and signature of the last trade delivered (exclusive start), null from the newest trade. */
  after: string | null;
  afterSignature: string | null;
  /** include=usd: each trade gains nativeUsd and valueUsd. */
  usd: boolean;
  /** follow=true: after the history, new trades as they are confirmed (decisions.md "Following a wallet live"). */
  follow: boolean;
  /** follow=true&liveCursor=...: no history part; forward from this key (null: from the oldest trade). */
  live: { key: string | null; signature: string | null } | null;
}

/**
 * Validates everything at the boundary, before any store write or network call. `list`: the
 * request pages through the wallet's unexplained transactions, whose cursors are their own.
 */
export function parseHistoryRequest(ctx: HistoryContext, address: string, url: URL, list?: 'unexplained'): Target {
  const slug = url.searchParams.get('chain') ?? DEFAULT_CHAIN;
  const chain = ctx.chains.get(slug);
  if (!chain) {
    const known = ctx.chains
      .list()
      .map((c) => c.slug)
      .join(', ');
    throw new HistoryError('unknown_chain', `Unknown chain "${slug}". Chains served here: ${known}.`);
  }
  const { stored, shown } = validateAddress(chain, address);
  const limit = parseLimit(url.searchParams.get('limit'));
  const usd = list ? false : parseInclude(url);
  const rawCursor = url.searchParams.get('cursor');
  const cursor = rawCursor === null ? null : ctx.cursors.decode(rawCursor, { chain: chain.slug, wallet: stored, list });
  const follow = list ? false : parseFollow(url, limit);
  const rawLive = url.searchParams.get('liveCursor');
  // A forward cursor reads newer trades, oldest first: only a follow stream does that.
  if (rawLive !== null && !follow) throw new HistoryError('invalid_cursor', 'liveCursor is a forward cursor: send it with follow=true.');
  const liveCursor = rawLive === null ? null : ctx.cursors.decode(rawLive, { chain: chain.slug, wallet: stored, list: 'live' });
  if (liveCursor && cursor) throw new HistoryError('invalid_parameter', 'cursor (backward) and liveCursor (forward) cannot go together.');
  return {
    chain: chain.slug,
    stored,
    shown,
    limit,
    after: cursor?.key ?? null,
    afterSignature: cursor?.signature ?? null,
    usd,
    follow,
    live: liveCursor ? { key: liveCursor.key, signature: liveCursor.signature } : null,
  };
}

/**
 * A wallet's chain and address validated as history validates them, for the operations that take
 * no cursor or limit (pnl, export): history's own parameters are not read.
 */
export function parseWalletTarget(ctx: HistoryContext, address: string, url: URL): Target {
  const only = new URL(url.origin + url.pathname);
  const chain = url.searchParams.get('chain');
  if (chain !== null) only.searchParams.set('chain', chain);
  return parseHistoryRequest(ctx, address, only);
}

/** `follow`: `true` or `false`; stream mode only (a page has an end). */
function parseFollow(url: URL, limit: number | null): boolean {
  const v = url.searchParams.get('follow');
  if (v === null || v === 'false') return false;
  if (v !== 'true') throw new HistoryError('invalid_parameter', `follow takes "true" or "false", got "${v}".`);
  if (limit !== null) throw new HistoryError('invalid_parameter', 'follow=true keeps a stream open: it does not go with limit (page mode).');
  return true;
}

export async function handleHistory(ctx: HistoryContext, principal: Principal, target: Target, signal: AbortSignal): Promise<Response> {
  const started = Date.now();
  const deadline = started + ctx.budgetMs;
  const loader = await ctx.loaders.get(target.chain, target.stored);
  // Only a read from the newest trade refreshes the head: a walk under way only moves toward older
  // trades. A slow refresh goes on in the background; the request serves what is stored meanwhile.
  if (target.after === null) await untilDeadline(loader.refreshIfStale(), Math.min(deadline, started + REFRESH_WAIT_MS));
  return target.limit === null
    ? stream(ctx, principal, target, loader, started, deadline, signal)
    : page(ctx, principal, target, target.limit, loader, deadline);
}

/** Waits for `p` until `deadline` (ms) at most; `p` goes on behind. */
export function untilDeadline(p: Promise<unknown>, deadline: number): Promise<unknown> {
  const ms = deadline - Date.now();
  if (ms <= 0) return Promise.resolve();
  const stop = new AbortController();
  return Promise.race([p, sleep(ms, stop.signal).catch(() => {})]).finally(() => stop.abort());
}

function cursorFor(ctx: HistoryContext, t: Target, key: string | null, signature: string | null): string {
  return ctx.cursors.encode({ chain: t.chain, wallet: t.stored, key, signature });
}

async function stream(
  ctx: HistoryContext,
  principal: Principal,
  t: Target,
  loader: WalletLoader,
  started: number,
  deadline: number,
  signal: AbortSignal,
): Promise<Response> {
  await loader.wantAll();
  const walletId = loader.state.id;
  if (t.usd) ctx.usd?.pricer.want(walletId);
  let pricesComplete = true;
  let below = t.after ?? TOP_KEY;
  let belowSig = t.afterSignature;
  let cursorKey = t.after;
  let cancelled = false;
  signal.addEventListener('abort', () => (cancelled = true), { once: true });
  /**
   * follow=true: where the live part starts, the newest trade the history part delivers. Set by
   * its first read from the top; a read resumed from a cursor delivers nothing newer than the
   * newest stored now; with liveCursor there is no history part.
   */
  let liveFrom: string | null | undefined = t.live ? t.live.key : t.follow && t.after !== null ? await newestKey(ctx.db, walletId) : undefined;

  // Before the first byte: wait briefly for something to send, so an upstream failure on a cold
  // wallet can still be a 502 problem rather than an empty stream.
  const firstWaitEnd = t.live ? 0 : Math.min(deadline, Date.now() + FIRST_LINE_WAIT_MS);
  // What the wait found: the first run to send (read once, not counted and then read again),
  // with the loader's state from before that read.
  const firstRows = Math.min(FIRST_LINE_ROWS, ctx.readRows);
  let found: { run: TradeRun | null; s: typeof loader.state } | null = null;
  // With liveCursor there is no history part to wait for.
  while (!t.live) {
    const v = loader.version;
    const s = loader.state;
    // Nothing stored yet (a cold wallet): no read. On PGlite a read holds the thread for 1-5 ms,
    // just when the walk's first requests are being written to their sockets.
    const run = s.tradeCount === 0 ? null : await readRun(ctx.db, walletId, below, firstRows);
    if (run || s.complete) {
      found = { run, s };
      break;
    }
    if (!loader.running && loader.lastError) throw loader.lastError;
    const wait = firstWaitEnd - Date.now();
    if (wait <= 0 || ctx.closing?.aborted) break;
    await nextChangeOrClosing(ctx, loader, wait, v);
  }

  /** `failure`: the load stopped on it; the line says why (chain and RPC host only), resumable from the cursor. */
  const finalLine = (complete: boolean, failure?: unknown) => {
    const s = loader.state;
    const line: Record<string, unknown> = { complete, tradeCount: s.tradeCount, wallet: t.shown, firstTrade: s.firstTrade, unexplained: s.unexplainedCount };
    if (!complete) line.cursor = cursorFor(ctx, t, cursorKey, belowSig);
    if (t.usd) line.pricesComplete = pricesComplete;
    if (!complete && failure) line.error = streamError(failure, t.chain);
    // Nothing delivered from the top: the live part starts below every trade, so none is lost.
    if (t.follow) line.liveCursor = ctx.cursors.encode({ chain: t.chain, wallet: t.stored, key: (liveFrom ??= null), signature: null, list: 'live' });
    return JSON.stringify(line) + '\n';
  };

  async function* lines(): AsyncGenerator<string> {
    if (!t.live) yield* historyLines();
    if (!t.follow || cancelled) return;
    yield* liveLines({
      ctx,
      principal,
      t,
      loader,
      from: liveFrom ?? null,
      cancelled: () => cancelled,
      price: async (json) => {
        const priced = await usdOfRun(ctx, t, walletId, json);
        return priced.json;
      },
      nextChange: (l, ms, since) => nextChangeOrClosing(ctx, l, ms, since),
    });
  }

  async function* historyLines(): AsyncGenerator<string> {
    // The 10 s rhythm counts from the request: the client has waited since then.
    let lastLineAt = started;
    let lineRows = firstRows;
    if (!found) {
      // Nothing yet: a first empty line now, so the headers leave at once (adapter-node sends
      // them with the first body bytes) and the client has a cursor from the start.
      yield `{"trades":[],"cursor":"${cursorFor(ctx, t, cursorKey, belowSig)}"}\n`;
      lastLineAt = Date.now();
    }
    for (;;) {
      if (cancelled) return;
      if (ctx.closing?.aborted) return yield finalLine(false);
      // Snapshot before the read: if the history was complete before it, the read saw every trade.
      const v = loader.version;
      const s = found ? found.s : loader.state;
      const run = found ? found.run : await readRun(ctx.db, walletId, below, lineRows);
      found = null;
      if (run) {
        if (liveFrom === undefined && t.follow) liveFrom = run.hi;
        lineRows = Math.min(lineRows * 2, ctx.readRows);
        // Priced before it is counted and the cursor moves past it (pricing never throws).
        let json = run.json;
        if (t.usd) {
          const priced = await usdOfRun(ctx, t, walletId, json);
          json = priced.json;
          pricesComplete &&= priced.complete;
        }
        await meterRun(ctx.db, { accountId: principal.accountId, walletId, hi: run.hi, lo: run.lo, count: run.count, after: cursorKey });
        ctx.metrics?.delivered(run.count);
        below = run.lo;
        belowSig = run.loSignature;
        cursorKey = run.lo;
        yield `{"trades":[${json}],"cursor":"${cursorFor(ctx, t, cursorKey, belowSig)}"}\n`;
        lastLineAt = Date.now();
        if (lastLineAt >= deadline) return yield finalLine(false);
        continue;
      }
      if (s.complete) return yield finalLine(true);
      if (!loader.running) {
        // The walk stopped without finishing: an upstream error ends the stream, resumable from here.
        if (loader.lastError) return yield finalLine(false, loader.lastError);
        await loader.wantAll();
      }
      const now = Date.now();
      if (now >= deadline) return yield finalLine(false);
      const untilKeepalive = lastLineAt + ctx.keepaliveMs - now;
      if (untilKeepalive <= 0) {
        yield `{"trades":[],"cursor":"${cursorFor(ctx, t, cursorKey, belowSig)}"}\n`;
        lastLineAt = now;
        continue;
      }
      await nextChangeOrClosing(ctx, loader, Math.min(untilKeepalive, deadline - now), v);
    }
  }

  const it = lines();
  let wroteLine = false;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          // A turn of the event loop between lines: Node sends a written chunk when the socket is
          // uncorked, after every microtask queued meanwhile, and reading the next line from the
          // store is such a microtask. The first line waited 1.5-5 ms for it; now 0.5-3.
          if (wroteLine) await nextTurn();
          wroteLine = true;
          const r = await it.next();
          if (r.done) controller.close();
          else controller.enqueue(encoder.encode(r.value));
        } catch {
          // A store failure mid-stream: end with the normal final line, resumable from the last cursor.
          try {
            controller.enqueue(encoder.encode(finalLine(false)));
            controller.close();
          } catch {
            /* the client is gone */
          }
        }
      },
      cancel() {
        // The client left: stop reading; the loader goes on in the background (it wants the whole history).
        cancelled = true;
        void it.return(undefined);
      },
      // No line is read (and metered) ahead of the client's demand.
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    headers: {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // The decoder version of the stored history as the stream starts: a client that keeps a copy
      // re-reads it when this grows (a refresh stops early and never reads the final line).
      'x-decoder-version': String(loader.state.decoderVersion),
    },
  });
}

async function page(ctx: HistoryContext, principal: Principal, t: Target, limit: number, loader: WalletLoader, deadline: number): Promise<Response> {
  const walletId = loader.state.id;
  if (t.usd) ctx.usd?.pricer.want(walletId);
  let pricesComplete = true;
  /** A chunk of the page's body, with its USD figures under include=usd. */
  const chunk = async (json: string): Promise<string> => {
    if (!t.usd) return json;
    const priced = await usdOfRun(ctx, t, walletId, json);
    pricesComplete &&= priced.complete;
    return priced.json;
  };
  const below = t.after ?? TOP_KEY;
  const sqlLimit = Number.isFinite(limit) ? limit : null;

  // Fetch live just far enough to fill the page, within the budget (nothing to fetch once complete).
  const have = loader.state.complete ? limit : await countBelow(ctx.db, walletId, below, sqlLimit);
  if (have < limit && !loader.state.complete) {
    const fill = loader.wantMore(limit - have);
    try {
      while (fill.remaining > 0 && !loader.state.complete && Date.now() < deadline && !ctx.closing?.aborted) {
        const v = loader.version;
        if (!loader.running) break;
        await nextChangeOrClosing(ctx, loader, deadline - Date.now(), v);
      }
    } finally {
      fill.cancel();
    }
  }

  // Fix the page: its trades and its count are settled before the headers go out. A page of up to
  // readRows trades (the usual case) is one read; a larger one takes its bounds from the keys,
  // capped at the first chunk's newest trade, and streams the rest of its body in chunks.
  const snapshot = loader.state;
  const firstRun = await readRun(ctx.db, walletId, below, Math.min(limit, ctx.readRows));
  const bounds =
    firstRun && limit > ctx.readRows && firstRun.count === ctx.readRows
      ? await pageBounds(ctx.db, walletId, below, sqlLimit, firstRun.hi)
      : firstRun
        ? { count: firstRun.count, hi: firstRun.hi, lo: firstRun.lo, loSignature: firstRun.loSignature }
        : { count: 0, hi: null, lo: null, loSignature: null };
  if (bounds.count === 0 && !snapshot.complete && loader.lastError && !loader.running) throw loader.lastError;
  const counted =
    bounds.count > 0
      ? await meterRun(ctx.db, { accountId: principal.accountId, walletId, hi: bounds.hi!, lo: bounds.lo!, count: bounds.count, after: t.after })
      : 0;
  ctx.metrics?.delivered(bounds.count);
  const more = await hasTradeBelow(ctx.db, walletId, bounds.lo ?? below);
  const pageSize = Number.isFinite(limit) ? limit : UNBOUNDED_PAGE_SIZE;

  const head: Record<string, unknown> = {
    wallet: t.shown,
    complete: snapshot.complete,
    tradeCount: snapshot.tradeCount,
    pageSize,
  };
  if (snapshot.complete) head.totalPages = Math.ceil(snapshot.tradeCount / pageSize);
  if (!snapshot.complete || more) {
    head.cursor = bounds.lo ? cursorFor(ctx, t, bounds.lo, bounds.loSignature) : cursorFor(ctx, t, t.after, t.afterSignature);
  }
  const prefix = JSON.stringify(head).slice(0, -1) + ',"trades":[';
  const first = firstRun ? await chunk(firstRun.json) : '';
  // With include=usd the page says after its trades whether all their prices were had.
  const end = () => (t.usd ? `],"pricesComplete":${pricesComplete}}\n` : ']}\n');

  // The rest of a large page is written from the store in chunks, so a huge limit never sits in memory whole.
  let next = firstRun?.lo ?? below;
  let done = !firstRun || firstRun.lo === bounds.lo;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(prefix + first));
    },
    async pull(controller) {
      if (done) {
        controller.enqueue(encoder.encode(end()));
        controller.close();
        return;
      }
      // Bounded on both sides: a refresh committed since the bounds were fixed stays out of this page.
      const run = await readRun(ctx.db, walletId, next, ctx.readRows, bounds.lo!, bounds.hi!);
      if (!run) {
        // Nothing left in the bounds (a re-decode dropped trades meanwhile): end now, since a pull
        // that enqueues nothing is not called again.
        controller.enqueue(encoder.encode(end()));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(',' + (await chunk(run.json))));
      next = run.lo;
      if (run.lo === bounds.lo) done = true;
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-usage-trades': String(counted),
      'x-decoder-version': String(snapshot.decoderVersion),
    },
  });
}
