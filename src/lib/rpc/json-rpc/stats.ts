/**
 * The client's counts (RpcTransportStats), kept by every part: the HTTP pipeline counts requests
 * and retries (http.ts), the sender calls, the readers the cost of reading answers.
 */
import type { ReadCost } from '../read-batch.js';
import type { RpcTransportStats } from './types.js';

export function createRpcStats(): RpcTransportStats {
  return { httpRequests: 0, calls: 0, retries: 0, parseMs: 0, scanMs: 0, responseChars: 0 };
}

/** What reading a batch answer cost, here or in a worker (its map's time is the caller's, not counted). */
export function addReadCost(stats: RpcTransportStats, cost: ReadCost): void {
  stats.parseMs += cost.parseMs;
  stats.scanMs += cost.scanMs;
  stats.responseChars += cost.chars;
}
