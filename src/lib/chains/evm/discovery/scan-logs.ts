import type { RpcTransport } from '../../../rpc/json-rpc.js';
import type { RpcLog } from '../decode/rpc-types.js';
import { ethGetLogsMany, rpcError, type LogFilter } from '../rpc-methods.js';
import type { LogsRange } from './logs-range.js';

const METHOD_NOT_FOUND = -32601;

/** Every log of `filtersFor` over [from, to]. */
export type ScanLogs = (from: number, to: number, filtersFor: (from: number, to: number) => LogFilter[], signal?: AbortSignal) => Promise<RpcLog[]>;

export interface ScanLogsDeps {
  rpc: RpcTransport;
  range: LogsRange;
  maxRange: number;
  /** Block ranges per HTTP request. */
  rangesPerRequest: number;
}

/**
 * A bounded scan of any logs (the ots path's settlement events), in ranges the provider takes:
 * the learned cap, shrunk on refusal; a refused range and those after it are scanned again.
 */
export function createScanLogs({ rpc, range: logsRange, maxRange, rangesPerRequest }: ScanLogsDeps): ScanLogs {
  return async function scanLogs(from, to, filtersFor, signal) {
    const out: RpcLog[] = [];
    let range = Math.min(maxRange, (await logsRange.cap()) ?? maxRange);
    let t = to;
    while (t >= from) {
      signal?.throwIfAborted();
      const ranges: [number, number][] = [];
      for (let x = t; ranges.length < rangesPerRequest && x >= from;) {
        const f = Math.max(from, x - range + 1);
        ranges.push([f, x]);
        x = f - 1;
      }
      const per = ranges.map(([a, b]) => filtersFor(a, b));
      const answers = await ethGetLogsMany(rpc, per.flat(), signal);
      let k = 0;
      for (let i = 0; i < ranges.length; i++) {
        const n = per[i].length;
        const mine = answers.slice(k, k + n);
        k += n;
        const bad = mine.find((a) => !a.ok);
        if (bad && !bad.ok) {
          // A node without the method: no smaller range helps, and none is learned from it.
          if (bad.error.code === METHOD_NOT_FOUND) throw rpcError('eth_getLogs', bad.error);
          range = logsRange.afterRefusal(ranges[i][1] - ranges[i][0] + 1, bad.error);
          break;
        }
        for (const a of mine) if (a.ok && Array.isArray(a.result)) out.push(...a.result);
        t = ranges[i][0] - 1;
      }
    }
    return out;
  };
}
