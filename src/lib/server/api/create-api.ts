import { HistoryError } from '../../core/errors.js';
import { createMetrics, type Metrics } from '../metrics.js';
import type { ChainRegistry } from '../../chains/registry.js';
import type { Database } from '../store/database.js';
import type { LoaderRegistry } from '../sync/loader-registry.js';
import { authenticate, type Principal } from './authenticate.js';
import type { CursorCodec } from './cursor.js';
import type { HistoryContext } from './history.js';
import type { Realtime } from '../sync/realtime/create-realtime.js';
import type { WebhookFollows } from '../webhooks/webhook-follows.js';
import type { WebhookSettings } from './webhook-request.js';

/**
 * What the v1 handlers share: the history context, the per-account rate limit and the count of
 * history requests in flight. Built once by createServer; each operation is a file of its own
 * (get-history.ts, get-usage.ts, get-chains.ts, get-openapi.ts) called by its route file.
 */
export interface CreateApiParameters {
  db: Database;
  chains: ChainRegistry;
  loaders: LoaderRegistry;
  cursors: CursorCodec;
  budgetMs: number;
  keepaliveMs?: number;
  readRows?: number;
  /** Requests per minute per account; 0 turns the limit off. */
  rateLimitPerMinute?: number;
  maxConcurrentRequests?: number;
  /** History requests in flight per account before 429 (MAX_STREAMS_PER_KEY; default maxConcurrentRequests). */
  maxRequestsPerAccount?: number;
  /** How a chain's source finds wallets' transactions, once its first walk chose (EVM: ots or logs). */
  discoveryOf?: (slug: string) => string | undefined;
  /** Follow streams open at once, on this instance and per account, before 429 (MAX_FOLLOW_STREAMS, MAX_FOLLOW_STREAMS_PER_KEY). */
  maxFollowStreams?: number;
  maxFollowStreamsPerAccount?: number;
  /** FOLLOW_MAX_SECONDS in ms: how long a follow stream stays open (default an hour). */
  followMaxMs?: number;
  /** The realtime stages that wake followed wallets' walkers; without it follow streams only see what other reads store. */
  realtime?: Realtime;
  /** Several instances on PostgreSQL: the wallet's next commit by any of them (the leases' NOTIFY). */
  commits?: (walletId: number, ms: number, signal: AbortSignal) => Promise<void>;
  /** Prices for include=usd; without it every price is null (tests that never price). */
  usd?: HistoryContext['usd'];
  /** Webhooks (issue 24): settings, the follows of their wallets, and a way to wake the sender. */
  webhooks?: ApiWebhooks;
}

export interface ApiWebhooks extends WebhookSettings {
  follows?: WebhookFollows;
  wakeSender?: () => void;
}

export interface Api {
  readonly history: HistoryContext;
  readonly metrics: Metrics;
  readonly db: Database;
  readonly chains: ChainRegistry;
  readonly webhooks?: ApiWebhooks;
  discoveryOf(slug: string): string | undefined;
  /**
   * Shutting down (SIGTERM): open streams end now with their final line and a cursor, pages
   * answer with what is stored; the process then drains and closes.
   */
  beginShutdown(): void;
  /** The request's account, counted against its rate limit; throws unauthorized or rate_limited. */
  authenticate(request: Request): Promise<Principal>;
  /**
   * Takes a place among the history requests in flight (503 overloaded when none is free) for as
   * long as `run`'s response body is being read: a stream holds its place until it ends or the
   * client leaves, not just until its headers are sent.
   */
  admit(run: () => Promise<Response>, accountId?: number, kind?: 'history' | 'follow'): Promise<Response>;
}

/**
 * A fixed one-minute window per account, counted in the database: every instance on the same
 * database shares it, so N instances never allow N times the limit. One upsert per authenticated
 * request, only when a limit is set; windows older than the current minute are dropped now and then.
 */
function createRateLimiter(perMinute: number, db: Database) {
  let lastSweep = 0;
  return async (accountId: number) => {
    if (perMinute <= 0) return;
    const now = Date.now();
    const minute = Math.floor(now / 60_000);
    const rows = await db.query<{ count: number }>(
      `INSERT INTO rate_windows (account_id, minute, count) VALUES ($1, $2, 1)
       ON CONFLICT (account_id, minute) DO UPDATE SET count = rate_windows.count + 1 RETURNING count`,
      [accountId, minute],
    );
    if (minute !== lastSweep) {
      lastSweep = minute;
      await db.query('DELETE FROM rate_windows WHERE minute < $1', [minute]);
    }
    if (Number(rows[0].count) > perMinute) {
      throw new HistoryError('rate_limited', `More than ${perMinute} requests in a minute for this account.`, {
        retryAfter: Math.ceil(((minute + 1) * 60_000 - now) / 1000),
      });
    }
  };
}

/** The same response, calling `done` once when its body has been read to the end, failed or was cancelled. */
function onBodyEnd(response: Response, done: () => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  let called = false;
  const once = () => {
    if (!called) {
      called = true;
      done();
    }
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const r = await reader.read();
          if (r.done) {
            once();
            controller.close();
          } else controller.enqueue(r.value);
        } catch (e) {
          once();
          controller.error(e);
        }
      },
      async cancel(reason) {
        once();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: response.status, headers: response.headers });
}

export function createApi(p: CreateApiParameters): Api {
  const closing = new AbortController();
  const metrics = createMetrics();
  const history: HistoryContext = {
    closing: closing.signal,
    metrics,
    db: p.db,
    chains: p.chains,
    loaders: p.loaders,
    cursors: p.cursors,
    budgetMs: p.budgetMs,
    keepaliveMs: p.keepaliveMs ?? 10_000,
    readRows: p.readRows ?? 4_000,
    usd: p.usd,
    follow: { maxMs: p.followMaxMs ?? 3_600_000, keepaliveMs: 15_000, realtime: p.realtime, commits: p.commits },
  };
  const rateLimit = createRateLimiter(p.rateLimitPerMinute ?? 0, p.db);
  const maxInFlight = p.maxConcurrentRequests ?? 512;
  const pools = {
    history: createPool(
      maxInFlight,
      p.maxRequestsPerAccount ?? maxInFlight,
      () => new HistoryError('overloaded', 'The server is at its limit of concurrent history requests; retry shortly.', { retryAfter: 2 }),
    ),
    // Follow streams stay open for up to an hour: their own caps, so they never crowd out history reads.
    follow: createPool(
      p.maxFollowStreams ?? 1_000,
      p.maxFollowStreamsPerAccount ?? 20,
      () => new HistoryError('rate_limited', 'The server is at its limit of follow streams; retry later.', { retryAfter: 30 }),
    ),
  };
  return {
    history,
    metrics,
    db: p.db,
    chains: p.chains,
    webhooks: p.webhooks,
    discoveryOf: (slug) => p.discoveryOf?.(slug),
    beginShutdown: () => closing.abort(),
    async authenticate(request) {
      const principal = await authenticate(p.db, request);
      await rateLimit(principal.accountId);
      return principal;
    },
    async admit(run, accountId, kind = 'history') {
      const release = pools[kind].take(accountId, kind === 'follow' ? 'follow streams' : 'history requests');
      let response: Response;
      try {
        response = await run();
      } catch (e) {
        release();
        throw e;
      }
      if (!response.headers.get('content-type')?.startsWith('application/x-ndjson')) return onBodyEnd(response, release);
      metrics.streamOpened();
      return onBodyEnd(response, () => {
        metrics.streamClosed();
        release();
      });
    },
  };
}

/** Places for requests whose bodies stay open: a total, and a share per account (past it, that account's 429). */
function createPool(max: number, perAccount: number, full: () => HistoryError) {
  let inFlight = 0;
  const byAccount = new Map<number, number>();
  return {
    /** Takes a place or throws; returns the release. */
    take(accountId: number | undefined, what: string): () => void {
      if (inFlight >= max) throw full();
      const mine = accountId === undefined ? 0 : (byAccount.get(accountId) ?? 0);
      // One key cannot hold every place: its own requests past the cap are its rate limit.
      if (accountId !== undefined && mine >= perAccount) {
        throw new HistoryError('rate_limited', `This key already has ${mine} ${what} open (the limit per key); retry when one ends.`, { retryAfter: 3 });
      }
      inFlight++;
      if (accountId !== undefined) byAccount.set(accountId, mine + 1);
      return () => {
        inFlight--;
        if (accountId === undefined) return;
        const n = (byAccount.get(accountId) ?? 1) - 1;
        if (n <= 0) byAccount.delete(accountId);
        else byAccount.set(accountId, n);
      };
    },
  };
}
