import { HistoryError } from '../../core/errors.js';
import type { ChainRegistry } from '../../chains/registry.js';
import type { Database } from '../store/database.js';
import { accountUsage } from '../store/accounts.js';
import type { LoaderRegistry } from '../sync/loader-registry.js';
import { authenticate, type Principal } from './authenticate.js';
import type { CursorCodec } from './cursor.js';
import { handleHistory, parseHistoryRequest, type HistoryContext } from './history.js';
import { openApiDocument } from './openapi.js';
import { problemResponse } from './problem.js';

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
  /** Handles a request under /v1; returns null for paths outside it. */
  handle(request: Request): Promise<Response | null>;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

function json(body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { headers: { ...JSON_HEADERS, ...headers } });
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

/** `%ZZ` and the like cannot be an address: 400 invalid_address rather than a 500. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HistoryError('invalid_address', `The address in the path is not valid percent-encoding: "${segment}".`);
  }
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
  const ctx: HistoryContext = {
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

  async function authed(request: Request): Promise<Principal> {
    const principal = await authenticate(p.db, request);
    rateLimit(principal.accountId);
    return principal;
  }

  /** History reads are metered and start loads, so HEAD is not offered there. */
  function onlyGet(request: Request, allowHead = true): void {
    if (request.method !== 'GET' && !(allowHead && request.method === 'HEAD')) {
      throw new HistoryError('method_not_allowed', `${request.method} is not allowed here; use GET.`, {
        context: { allow: allowHead ? 'GET, HEAD' : 'GET' },
      });
    }
  }

  async function route(request: Request, url: URL): Promise<Response | null> {
    const path = url.pathname.replace(/\/+$/, '');
    const history = /^\/v1\/wallets\/([^/]+)\/history$/.exec(path);
    if (history) {
      onlyGet(request, false);
      const principal = await authed(request);
      const target = parseHistoryRequest(ctx, decodePathSegment(history[1]), url);
      if (inFlight >= maxInFlight)
        throw new HistoryError('overloaded', 'The server is at its limit of concurrent history requests; retry shortly.', { retryAfter: 2 });
      inFlight++;
      let response: Response;
      try {
        response = await handleHistory(ctx, principal, target, request.signal);
      } catch (e) {
        inFlight--;
        throw e;
      }
      // A stream holds its place until its body ends (or the client leaves), not just its headers.
      return onBodyEnd(response, () => inFlight--);
    }
    switch (path) {
      case '/v1/usage': {
        onlyGet(request);
        const principal = await authed(request);
        return json({ account: principal.account, trades: await accountUsage(p.db, principal.accountId) });
      }
      case '/v1/chains':
        onlyGet(request);
        return json({
          chains: p.chains.list().map((c) => ({
            slug: c.slug,
            family: c.family,
            nativeSymbol: c.nativeSymbol,
            chainId: c.chainId,
            explorerUrl: c.explorerUrl,
            default: c.slug === 'sol',
            // What a browser needs to decode this chain itself (direct mode); never the RPC URL.
            ...(c.evm
              ? {
                  evm: {
                    wrappedNative: c.evm.wrappedNative,
                    confirmation: c.evm.confirmation,
                    dexes: c.evm.dexes,
                    entryPoints: c.evm.entryPoints,
                    aggregators: c.evm.aggregators,
                  },
                }
              : {}),
          })),
        });
      case '/v1/openapi.json':
        onlyGet(request);
        return json(openApiDocument(p.chains.list().map((c) => c.slug)), { 'cache-control': 'public, max-age=300' });
    }
    if (path.startsWith('/v1/') || path === '/v1') throw new HistoryError('not_found', `No operation at ${url.pathname}. See /v1/openapi.json.`);
    return null;
  }

  return {
    async handle(request) {
      const url = new URL(request.url);
      if (url.pathname !== '/v1' && !url.pathname.startsWith('/v1/')) return null;
      try {
        return await route(request, url);
      } catch (e) {
        return problemResponse(e);
      }
    },
  };
}
