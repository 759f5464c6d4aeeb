import { HistoryError } from '../../core/errors.js';
import type { ChainRegistry } from '../../chains/registry.js';
import type { Database } from '../store/database.js';
import type { LoaderRegistry } from '../sync/loader-registry.js';
import { authenticate, type Principal } from './authenticate.js';
import type { CursorCodec } from './cursor.js';
import type { HistoryContext } from './history.js';

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
}

export interface Api {
  readonly history: HistoryContext;
  readonly db: Database;
  readonly chains: ChainRegistry;
  /** The request's account, counted against its rate limit; throws unauthorized or rate_limited. */
  authenticate(request: Request): Promise<Principal>;
  /**
   * Takes a place among the history requests in flight (503 overloaded when none is free) for as
   * long as `run`'s response body is being read: a stream holds its place until it ends or the
   * client leaves, not just until its headers are sent.
   */
  admit(run: () => Promise<Response>): Promise<Response>;
}

/** A fixed one-minute window per account: cheap, and exact enough to keep one client from starving others. */
function createRateLimiter(perMinute: number) {
  const windows = new Map<number, { start: number; count: number }>();
  return (accountId: number) => {
    if (perMinute <= 0) return;
    const now = Date.now();
    let w = windows.get(accountId);
    if (!w || now - w.start >= 60_000) windows.set(accountId, (w = { start: now, count: 0 }));
    if (++w.count > perMinute) {
      throw new HistoryError('rate_limited', `More than ${perMinute} requests in a minute for this account.`, {
        retryAfter: Math.ceil((w.start + 60_000 - now) / 1000),
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
  const history: HistoryContext = {
    db: p.db,
    chains: p.chains,
    loaders: p.loaders,
    cursors: p.cursors,
    budgetMs: p.budgetMs,
    keepaliveMs: p.keepaliveMs ?? 10_000,
    readRows: p.readRows ?? 4_000,
  };
  const rateLimit = createRateLimiter(p.rateLimitPerMinute ?? 0);
  const maxInFlight = p.maxConcurrentRequests ?? 512;
  let inFlight = 0;
  return {
    history,
    db: p.db,
    chains: p.chains,
    async authenticate(request) {
      const principal = await authenticate(p.db, request);
      rateLimit(principal.accountId);
      return principal;
    },
    async admit(run) {
      if (inFlight >= maxInFlight)
        throw new HistoryError('overloaded', 'The server is at its limit of concurrent history requests; retry shortly.', { retryAfter: 2 });
      inFlight++;
      let response: Response;
      try {
        response = await run();
      } catch (e) {
        inFlight--;
        throw e;
      }
      return onBodyEnd(response, () => inFlight--);
    },
  };
}
