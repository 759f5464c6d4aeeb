import type { ChainKeyedCache } from '../core/chain-source.js';
import type { RpcTransport } from '../rpc/json-rpc.js';
import { createLogsRange } from '../chains/evm/discovery/logs-range.js';
import { createScanLogs } from '../chains/evm/discovery/scan-logs.js';

/**
 * A feed's rounds over a span of time read from its aggregators' `AnswerUpdated` logs (issue 22):
 * where the RPC serves them, every round of a span costs a few requests, however many trades and
 * rounds. Two steps:
 *
 * - the blocks of the span's two ends, by a search over block timestamps that reads 20 headers a
 *   step for both ends in one batch (each step narrows 21-fold: Ethereum's 24 M blocks in 6 steps);
 * - the logs between them, in the block ranges the provider takes (learned from its refusals, as
 *   the EVM walk learns them, and kept in the same hint), many ranges a request.
 *
 * `AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt)`: the answer
 * and the aggregator's own round id are topics, the update time is the data.
 */
export const ANSWER_UPDATED_TOPIC = '0x0559884fd3a460db3073b7fc896cc77986f16e378210ded43186175bf646fc5f';

const HEADERS_PER_STEP = 20;
/** Block ranges per HTTP request while scanning. */
const RANGES_PER_REQUEST = 20;

export interface LoggedRound {
  aggregator: string;
  /** The aggregator's round id (without the phase). */
  round: bigint;
  answer: bigint;
  updatedAt: number;
}

export interface RoundLogsOptions {
  transport: RpcTransport;
  /** The chain's slug: the learned getLogs range is kept under it. */
  chain: string;
  /** RPC_LOGS_RANGE_<SLUG>, when the operator set it. */
  logsRange?: number;
  hints?: ChainKeyedCache<number>;
}

export interface RoundLogs {
  /** Every round the aggregators published with an update time in [from, to] (unix seconds). */
  roundsBetween(aggregators: readonly string[], from: number, to: number, signal?: AbortSignal): Promise<LoggedRound[]>;
}

type Header = { number: string; timestamp: string } | null;

const int256 = (hex: string): bigint => {
  const v = BigInt(hex);
  return v >= 1n << 255n ? v - (1n << 256n) : v;
};

export function createRoundLogs(o: RoundLogsOptions): RoundLogs {
  const range = createLogsRange({ chain: o.chain, logsRange: o.logsRange, hints: o.hints });
  const scan = createScanLogs({ rpc: o.transport, range, maxRange: 1_000_000_000, rangesPerRequest: RANGES_PER_REQUEST });

  /** For each time, the last block at or before it (lo) and the first after it (hi), found together. */
  async function blocksAround(times: readonly number[], signal?: AbortSignal): Promise<number[]> {
    const head = await o.transport.call<Header>('eth_getBlockByNumber', ['latest', false], { signal });
    if (!head) throw new Error('the RPC has no latest block');
    const last = Number(BigInt(head.number));
    const brackets = times.map(() => ({ lo: 0, hi: last }));
    const timeOf = new Map<number, number>([[last, Number(BigInt(head.timestamp))]]);
    for (;;) {
      const open = brackets.filter((b) => b.hi - b.lo > 1);
      if (!open.length) break;
      const want = new Set<number>();
      for (const b of open) {
        const step = (b.hi - b.lo) / (HEADERS_PER_STEP + 1);
        for (let i = 1; i <= HEADERS_PER_STEP; i++) {
          const n = Math.floor(b.lo + step * i);
          if (n > b.lo && n < b.hi && !timeOf.has(n)) want.add(n);
        }
      }
      const ns = [...want];
      const headers = await o.transport.callMany<Header>(
        ns.map((n) => ({ method: 'eth_getBlockByNumber', params: ['0x' + n.toString(16), false] })),
        { signal },
      );
      ns.forEach((n, i) => timeOf.set(n, headers[i] ? Number(BigInt(headers[i]!.timestamp)) : Infinity));
      times.forEach((t, k) => {
        const b = brackets[k];
        for (const [n, time] of timeOf) {
          if (n <= b.lo || n >= b.hi) continue;
          if (time <= t) b.lo = n;
          else b.hi = n;
        }
      });
    }
    return brackets.map((b, k) => ((timeOf.get(b.hi) ?? Infinity) <= times[k] ? b.hi : b.lo));
  }

  return {
    async roundsBetween(aggregators, from, to, signal) {
      if (!aggregators.length) return [];
      const [fromBlock, toBlock] = await blocksAround([from, to], signal);
      const logs = await scan(
        fromBlock,
        toBlock + 1,
        (a, b) => [{ fromBlock: '0x' + a.toString(16), toBlock: '0x' + b.toString(16), address: [...aggregators], topics: [ANSWER_UPDATED_TOPIC] }],
        signal,
      );
      return logs.flatMap((l) =>
        l.topics.length >= 3
          ? [{ aggregator: l.address.toLowerCase(), answer: int256(l.topics[1]), round: BigInt(l.topics[2]), updatedAt: Number(BigInt(l.data.slice(0, 66))) }]
          : [],
      );
    },
  };
}
