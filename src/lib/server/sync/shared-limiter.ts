import { createLimiter, type Limiter } from '../../rpc/limiter.js';
import { sleep } from '../../core/wait.js';
import type { Queryable } from '../store/database.js';
import { claimRpcStart, pruneRpcRate } from '../store/rpc-rate.js';

export interface CreateSharedLimiterParameters {
  db: Queryable;
  chain: string;
  /** Requests started per second by all instances together (RPC_RPS_<SLUG>). */
  requestsPerSecond: number;
  /** HTTP requests in flight in this instance (RPC_MAX_IN_FLIGHT_<SLUG>). */
  maxInFlight: number;
}

/**
 * A limiter whose rate holds across every instance on one PostgreSQL database: the in-flight
 * bound stays per instance (it protects this process), the start rate is claimed in the database
 * (it protects the upstream, which sees all instances). One round trip per HTTP request to the
 * RPC, only where RPC_RPS_<SLUG> is set.
 */
export function createSharedLimiter({ db, chain, requestsPerSecond, maxInFlight }: CreateSharedLimiterParameters): Limiter {
  const local = createLimiter({ maxInFlight });
  const perSecond = Math.max(1, Math.floor(requestsPerSecond));
  let claims = 0;
  return {
    get inFlight() {
      return local.inFlight;
    },
    run(task, priority, signal) {
      return local.run(
        async () => {
          for (;;) {
            const c = await claimRpcStart(db, chain, perSecond);
            if (c.ok) break;
            await sleep(c.waitMs, signal);
          }
          if (++claims % 500 === 0) void pruneRpcRate(db).catch(() => {});
          return task();
        },
        priority,
        signal,
      );
    },
  };
}
