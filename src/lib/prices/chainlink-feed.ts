import { decodeFunctionResult, encodeFunctionData, parseAbi, type Hex } from 'viem';
import { formatUnits } from '../core/decimal.js';
import type { RpcCall, RpcTransport } from '../rpc/json-rpc.js';
import type { PricePoint, PriceSource } from './price-source.js';

/**
 * A Chainlink price feed read over plain JSON-RPC (issue 22): no archive node, no price API key.
 *
 * The proxy answers old rounds from current state: `getRoundData(roundId)` with round ids
 * `(phaseId << 64) | aggregatorRoundId`, one phase per aggregator the proxy has pointed to. Three
 * batched requests bound the search: `decimals()` and `phaseId()`; each phase's aggregator; and
 * each phase's first and latest round. The price in force at a time is then the latest round
 * updated at or before it, found by bisection over that phase's rounds, all the times of a call at
 * once: each step is one batch of `getRoundData` for the midpoints of every search still open, so
 * 10,000 trades over a year of hourly rounds (8,760) cost about 14 steps, not 14 requests a trade.
 * Rounds read are kept and never read twice.
 *
 * A round is not used for a time when its answer is zero or negative, when it claims an update
 * after now, or when it is older at that time than the feed's heartbeat allows (plus a margin):
 * the feed was not publishing then, and its last answer is not the price in force.
 */

export interface ChainlinkFeedOptions {
  /** The coin priced (`ETH`, `SOL`, ...). */
  coin: string;
  /** The JSON-RPC of the EVM chain that carries the feed. */
  transport: RpcTransport;
  /** The feed's proxy (its stable address). */
  proxy: string;
  /** Seconds the feed promises between updates at most: ETH/USD on Ethereum, 3,600. */
  heartbeatSeconds: number;
  /** Milliseconds since the epoch (tests). */
  now?: () => number;
}

const ABI = parseAbi([
  'function decimals() view returns (uint8)',
  'function phaseId() view returns (uint16)',
  'function phaseAggregators(uint16) view returns (address)',
  'function getRoundData(uint80) view returns (uint80, int256, uint256, uint256, uint80)',
  'function latestRoundData() view returns (uint80, int256, uint256, uint256, uint80)',
]);

/** A round's answer and update time (unix seconds); null when the feed has no such round. */
type Round = { answer: bigint; updatedAt: number } | null;

interface Phase {
  id: number;
  /** The aggregator's round ids run 1..last. */
  last: bigint;
  firstTime: number;
  lastTime: number;
}

interface Bounds {
  decimals: number;
  phases: Phase[];
  readAt: number;
}

/** The feed's phases and latest rounds are read again after this long (new rounds appear). */
const BOUNDS_TTL_MS = 60_000;
/** Past its heartbeat, a round still counts for this share of it more, at least a minute: blocks and relays lag. */
const HEARTBEAT_MARGIN = 0.1;
const MIN_MARGIN_SECONDS = 60;

export const roundIdOf = (phase: number, aggregatorRound: bigint): bigint => (BigInt(phase) << 64n) | aggregatorRound;

export function createChainlinkFeed(o: ChainlinkFeedOptions): PriceSource {
  const now = o.now ?? Date.now;
  const rounds = new Map<bigint, Round>();
  let bounds: Promise<Bounds> | null = null;

  const call = (to: string, functionName: string, args: unknown[] = []): RpcCall => ({
    method: 'eth_call',
    params: [{ to, data: encodeFunctionData({ abi: ABI, functionName, args } as never) }, 'latest'],
  });

  /** eth_calls in one batch; a call that reverts answers null. */
  async function read<T>(calls: RpcCall[], functionName: string, signal?: AbortSignal): Promise<(T | null)[]> {
    if (!calls.length) return [];
    const out = await o.transport.callManySettled<Hex>(calls, { signal });
    return out.map((r) => {
      if (!r.ok || r.result === '0x') return null;
      return decodeFunctionResult({ abi: ABI, functionName, data: r.result } as never) as T;
    });
  }

  type RoundTuple = readonly [bigint, bigint, bigint, bigint, bigint];
  const roundOf = (t: RoundTuple | null): Round => (t && t[3] > 0n ? { answer: t[1], updatedAt: Number(t[3]) } : null);

  async function readBounds(signal?: AbortSignal): Promise<Bounds> {
    const [decimals, phaseId] = await Promise.all([
      read<number>([call(o.proxy, 'decimals')], 'decimals', signal),
      read<number>([call(o.proxy, 'phaseId')], 'phaseId', signal),
    ]);
    if (decimals[0] === null || phaseId[0] === null) throw new Error(`${o.coin}/USD feed ${o.proxy}: not a Chainlink proxy (decimals, phaseId)`);
    const ids = Array.from({ length: Number(phaseId[0]) }, (_, i) => i + 1);
    const aggregators = await read<string>(
      ids.map((p) => call(o.proxy, 'phaseAggregators', [p])),
      'phaseAggregators',
      signal,
    );
    const live = ids.flatMap((id, i) => (aggregators[i] && !/^0x0{40}$/i.test(aggregators[i]!) ? [{ id, aggregator: aggregators[i]! }] : []));
    const [latest, first] = await Promise.all([
      read<RoundTuple>(
        live.map((p) => call(p.aggregator, 'latestRoundData')),
        'latestRoundData',
        signal,
      ),
      read<RoundTuple>(
        live.map((p) => call(o.proxy, 'getRoundData', [roundIdOf(p.id, 1n)])),
        'getRoundData',
        signal,
      ),
    ]);
    const phases: Phase[] = [];
    live.forEach((p, i) => {
      const l = latest[i];
      const f = roundOf(first[i]);
      const lr = roundOf(l);
      if (!l || !f || !lr) return; // a phase with no round
      const last = l[0] & ((1n << 64n) - 1n);
      rounds.set(roundIdOf(p.id, 1n), f);
      rounds.set(roundIdOf(p.id, last), lr);
      phases.push({ id: p.id, last, firstTime: f.updatedAt, lastTime: lr.updatedAt });
    });
    return { decimals: Number(decimals[0]), phases, readAt: now() };
  }

  async function currentBounds(signal?: AbortSignal): Promise<Bounds> {
    if (bounds) {
      const b = await bounds.catch(() => null);
      if (b && now() - b.readAt < BOUNDS_TTL_MS) return b;
    }
    bounds = readBounds(signal);
    return bounds;
  }

  async function pricesAt(times: readonly number[], signal?: AbortSignal): Promise<(PricePoint | null)[]> {
    const b = await currentBounds(signal);
    // One search per distinct time: [lo, hi) over a phase's aggregator rounds, with lo's time at
    // or before the time and hi's after it (hi = last + 1: none after).
    const searches = new Map<number, { phase: Phase; lo: bigint; hi: bigint }>();
    for (const t of new Set(times)) {
      const phase = b.phases.findLast((p) => p.firstTime <= t);
      if (!phase) continue; // before the feed's first round
      searches.set(t, t >= phase.lastTime ? { phase, lo: phase.last, hi: phase.last + 1n } : { phase, lo: 1n, hi: phase.last });
    }
    for (;;) {
      const open = [...searches].filter(([, s]) => s.hi - s.lo > 1n);
      if (!open.length) break;
      const wanted = new Set<bigint>();
      for (const [, s] of open) {
        const id = roundIdOf(s.phase.id, (s.lo + s.hi) / 2n);
        if (!rounds.has(id)) wanted.add(id);
      }
      const ids = [...wanted];
      const got = await read<RoundTuple>(
        ids.map((id) => call(o.proxy, 'getRoundData', [id])),
        'getRoundData',
        signal,
      );
      ids.forEach((id, i) => rounds.set(id, roundOf(got[i])));
      for (const [t, s] of open) {
        const mid = (s.lo + s.hi) / 2n;
        const r = rounds.get(roundIdOf(s.phase.id, mid));
        // A round the feed does not have is taken as later than any time: the search goes below it.
        if (!r || r.updatedAt > t) s.hi = mid;
        else s.lo = mid;
      }
    }
    const nowSeconds = Math.floor(now() / 1000);
    const margin = Math.max(MIN_MARGIN_SECONDS, o.heartbeatSeconds * HEARTBEAT_MARGIN);
    const priced = new Map<number, PricePoint | null>();
    for (const [t, s] of searches) {
      const id = roundIdOf(s.phase.id, s.lo);
      const r = rounds.get(id);
      const usable = r && r.answer > 0n && r.updatedAt <= t && r.updatedAt <= nowSeconds && t - r.updatedAt <= o.heartbeatSeconds + margin;
      priced.set(t, usable ? { price: formatUnits(r.answer, b.decimals), roundTime: r.updatedAt, round: id.toString() } : null);
    }
    return times.map((t) => priced.get(t) ?? null);
  }

  return { coin: o.coin, pricesAt };
}
