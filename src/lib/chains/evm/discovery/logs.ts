import type { RpcTransport } from '../../../rpc/json-rpc.js';
import { ERC20_TRANSFER_TOPIC } from '../../shared/uniswap-v2-events.js';
import type { RpcLog } from '../decode/rpc-types.js';
import type { MetadataPrefetch } from '../enrich/metadata-prefetch.js';
import { hex, num } from '../quantity.js';
import { ethGetLogsMany } from '../rpc-methods.js';
import { newestListed } from '../../../core/activity.js';
import { newestFirst } from '../../../core/trade.js';
import { evmPosition, type TxMap } from '../trade-position.js';
import type { TradesOf } from '../trades-of.js';
import type { LogsRange } from './logs-range.js';
import type { Walk } from './position.js';

export interface LogsWalkDeps {
  rpc: RpcTransport;
  range: LogsRange;
  /** First block range tried when none is known. */
  initialRange: number;
  /** Largest block range grown to. */
  maxRange: number;
  /** Block ranges per HTTP request (2 eth_getLogs calls each). */
  rangesPerRequest: number;
  /** Receipts decoded per yielded batch. */
  receiptsPerBatch: number;
  tradesOf: TradesOf;
  prefetch: MetadataPrefetch;
}

/**
 * The wallet's Transfer logs (as sender, as receiver) over several block ranges, newest first,
 * in one JSON-RPC batch: 2 calls a range, so one HTTP request scans `rangesPerRequest` ranges.
 * A range's outcome is its logs, or the first refusal a provider gave for it.
 */
async function getLogsRanges(rpc: RpcTransport, wallet: string, ranges: readonly [number, number][], signal?: AbortSignal) {
  const topic = '0x' + wallet.slice(2).padStart(64, '0');
  const answers = await ethGetLogsMany(
    rpc,
    ranges.flatMap(([from, to]) => {
      const base = { fromBlock: hex(from), toBlock: hex(to) };
      return [
        { ...base, topics: [ERC20_TRANSFER_TOPIC, topic] },
        { ...base, topics: [ERC20_TRANSFER_TOPIC, null, topic] },
      ];
    }),
    signal,
  );
  return ranges.map((_, i) => {
    const pair = answers.slice(2 * i, 2 * i + 2);
    for (const a of pair) if (!a.ok) return { error: a.error, logs: [] };
    return { error: null, logs: pair.flatMap((a) => (a.ok && Array.isArray(a.result) ? a.result : [])) };
  });
}

/** Transactions of the discovered logs, newest first, strictly below `below` when given. */
function transactionsOf(logs: RpcLog[], below: string | undefined): { txs: TxMap; hashes: string[] } {
  // 4-topic Transfer logs are ERC-721 (tokenId indexed): never a fungible trade.
  const fungible = logs.filter((l) => l.topics.length === 3);
  const txs: TxMap = new Map();
  for (const l of fungible) {
    const h = l.transactionHash.toLowerCase();
    const t = txs.get(h) ?? { block: num(l.blockNumber), index: num(l.transactionIndex) };
    if (l.blockTimestamp) t.ts = num(l.blockTimestamp);
    txs.set(h, t);
  }
  const pos = (h: string) => evmPosition(txs.get(h)!.block, txs.get(h)!.index);
  let hashes = [...txs.keys()];
  if (below) hashes = hashes.filter((h) => pos(h) < below);
  hashes.sort((a, b) => (pos(b) < pos(a) ? -1 : 1));
  return { txs, hashes };
}

/**
 * The log path: the wallet's Transfer logs, newest first, `rangesPerRequest` block ranges per
 * HTTP request, and the receipts of everything one request found in one batch (a wallet whose
 * trades are spread thinly pays one receipt request per scan request, not per range). The range
 * grows after each request taken whole, but only the request's first range tries the larger
 * size: a provider's limit then costs one refused range, not a request's worth.
 */
export function createLogsWalk(deps: LogsWalkDeps): Walk {
  const { rpc, initialRange, maxRange, rangesPerRequest, receiptsPerBatch, tradesOf } = deps;

  return async function* logsWalk({ wallet, from: cur, floor, head: firstHead, signal }) {
    let head = firstHead;
    const cap = await deps.range.cap();
    let range = Math.min(maxRange, cap ?? initialRange);
    let probe = range;
    let to = cur.top;
    let below = cur.below;
    while (to >= floor) {
      signal?.throwIfAborted();
      // The next ranges, newest first, down to the floor; one request scans them all.
      const ranges: [number, number][] = [];
      for (let t = to; ranges.length < rangesPerRequest && t >= floor;) {
        const f = Math.max(floor, t - (ranges.length === 0 ? probe : range) + 1);
        ranges.push([f, t]);
        t = f - 1;
      }
      const results = await getLogsRanges(rpc, wallet, ranges, signal);
      // The ranges taken, up to the first refused one (those after it are scanned again).
      let taken = 0;
      const logs: RpcLog[] = [];
      for (; taken < ranges.length; taken++) {
        const r = results[taken];
        if (r.error) {
          range = deps.range.afterRefusal(ranges[taken][1] - ranges[taken][0] + 1, r.error);
          probe = range;
          break;
        }
        logs.push(...r.logs);
      }
      if (taken > 0) {
        const from = ranges[taken - 1][0];
        const { txs, hashes } = transactionsOf(logs, below);
        below = undefined;
        // Token metadata and pool factories asked alongside the receipts (a miss is asked after).
        deps.prefetch.start(wallet, logs, signal);
        const done = from <= floor;
        // Dense stretches are decoded and delivered in parts, so a batch never waits for
        // thousands of receipts; a part's position is its oldest transaction (resume below it).
        for (let i = 0; i === 0 || i < hashes.length; i += receiptsPerBatch) {
          const part = hashes.slice(i, i + receiptsPerBatch);
          const { trades, unexplained } = await tradesOf({ wallet, txs, hashes: part, signal });
          trades.sort(newestFirst);
          const last = i + receiptsPerBatch >= hashes.length;
          const oldest = txs.get(part[part.length - 1]);
          const position = last ? String(from) : evmPosition(oldest!.block, oldest!.index);
          yield {
            trades,
            position,
            ...(head !== undefined ? { head } : {}),
            done: last && done,
            ...(unexplained.length ? { unexplained: unexplained.sort(newestListed) } : {}),
          };
          head = undefined;
        }
        if (done) return;
        to = from - 1;
        // A request taken whole: the probe size is the range now, and the next probe is twice
        // that, never past what the provider is known to take.
        if (taken === ranges.length) {
          range = Math.max(range, probe);
          probe = Math.min(maxRange, range * 2, (await deps.range.cap()) ?? Infinity);
        }
      }
    }
    // Only reached when floor > 0 and the loop ended exactly on it.
    yield { trades: [], position: String(floor), done: true };
  };
}
