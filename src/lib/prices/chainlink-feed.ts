import { decodeFunctionResult, encodeFunctionData, parseAbi, type Hex } from 'viem';
import { formatUnits } from '../core/decimal.js';
import { HistoryError } from '../core/errors.js';
import type { RpcCall, RpcTransport } from '../rpc/json-rpc.js';
import { createMemoryCache } from '../core/chain-source.js';
import type { PricePoint, PriceSource, RoundCache, StoredRound } from './price-source.js';
import type { RoundLogs } from './chainlink-logs.js';

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
 * Where the RPC serves the aggregators' logs (chainlink-logs.ts), the first search that needs a
 * round from the chain reads every round of the call's span from the `AnswerUpdated` logs instead,
 * and each search then starts between the rounds known around its time: a year of hourly rounds
 * in a handful of requests. Measured in `npm run bench` (BENCH_ONLY=prices), both ways.
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
  /** Where rounds read are kept (the store on the server); memory when absent. */
  rounds?: RoundCache;
  /** The cache key of this feed: `<chain slug>:<proxy>`. */
  feedKey?: string;
  /** Milliseconds since the epoch (tests). */
  now?: () => number;
  /** The aggregators' AnswerUpdated logs, where the RPC serves them; bisection alone without. */
  logs?: RoundLogs;
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
  aggregator: string;
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

/**
 * Dense times: when a phase's open searches span fewer unknown rounds than this many per search,
 * every one of those rounds is read at once (100 a batch request) instead of bisecting, whose
 * midpoints double each step until they are the rounds themselves. Measured on anvil, 5,000 times
 * over 2,000 hourly rounds: at most 25 requests this way, 31 by bisection alone.
 */
const DENSE_ROUNDS_PER_SEARCH = 4;
/** The feed's phases and latest rounds are read again after this long (new rounds appear). */
const BOUNDS_TTL_MS = 60_000;
/**
 * A time this close to when the bounds were read (or later) reads them again: a round updated at
 * or before it may have reached the node only since (blocks and the node's view lag seconds).
 */
const FRESH_LAG_SECONDS = 60;
/** ...but not more often than this. */
const FRESH_REREAD_MS = 5_000;
/** The aggregator's own round id within a proxy round id. */
const ROUND_MASK = (1n << 64n) - 1n;
/** Past its heartbeat, a round still counts for this share of it more, at least a minute: blocks and relays lag. */
const HEARTBEAT_MARGIN = 0.1;
const MIN_MARGIN_SECONDS = 60;
/** After the logs failed (not served, refused), bisection alone for this long before they are tried again. */
const LOGS_RETRY_MS = 600_000;

/**
 * Each search's price: its round (the latest at or before the time) where usable there: a positive
 * answer, not updated after the time or after now, and not older than the heartbeat and margin.
 */
function pointsOf(
  searches: ReadonlyMap<number, Search>,
  rounds: ReadonlyMap<bigint, Round>,
  decimals: number,
  heartbeatSeconds: number,
  nowSeconds: number,
): Map<number, PricePoint | null> {
  const margin = Math.max(MIN_MARGIN_SECONDS, heartbeatSeconds * HEARTBEAT_MARGIN);
  const priced = new Map<number, PricePoint | null>();
  for (const [t, s] of searches) {
    const id = roundIdOf(s.phase.id, s.lo);
    const r = rounds.get(id);
    const usable = r && r.answer > 0n && r.updatedAt <= t && r.updatedAt <= nowSeconds && t - r.updatedAt <= heartbeatSeconds + margin;
    priced.set(t, usable ? { price: formatUnits(r.answer, decimals), roundTime: r.updatedAt, round: id.toString() } : null);
  }
  return priced;
}

function groupBy<T, K>(items: Iterable<T>, key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const group = out.get(key(item));
    if (group) group.push(item);
    else out.set(key(item), [item]);
  }
  return out;
}

/** A search for the round in force at a time: [lo, hi) over a phase's aggregator round ids. */
type Search = { phase: Phase; lo: bigint; hi: bigint };

/**
 * Starts each search between the rounds already known around its time (lo's update at or
 * before it, hi's after it): rounds of an earlier call, or of the logs, cost no step.
 */
function tighten(rounds: ReadonlyMap<bigint, Round>, searches: ReadonlyMap<number, Search>): void {
  for (const [phase, group] of groupBy(searches, (e) => e[1].phase)) {
    // The phase's rounds known, in round order: a walk over what is known, not over every round
    // id of the phase (tens of thousands on a live feed), at every call.
    const known: { r: bigint; at: number }[] = [];
    for (const [id, round] of rounds) {
      if (round && id >> 64n === BigInt(phase.id)) known.push({ r: id & ROUND_MASK, at: round.updatedAt });
    }
    known.sort((a, b) => (a.r < b.r ? -1 : a.r > b.r ? 1 : 0));
    if (!known.length) continue;
    for (const [t, s] of group) {
      // The last known round at or before t (update times grow with round ids).
      let lo = -1;
      for (let a = 0, z = known.length - 1; a <= z;) {
        const m = (a + z) >> 1;
        if (known[m].at <= t) {
          lo = m;
          a = m + 1;
        } else z = m - 1;
      }
      if (lo >= 0 && known[lo].r > s.lo && known[lo].r < s.hi) s.lo = known[lo].r;
      const hi = known[lo + 1];
      if (hi && hi.r < s.hi && hi.r > s.lo) s.hi = hi.r;
    }
  }
}

/** The rounds of the open searches' phases whose update falls in their span (the heartbeat and margin before the first time), by round id. */
async function roundsFromLogs(
  logs: RoundLogs,
  open: [number, Search][],
  heartbeatSeconds: number,
  signal?: AbortSignal,
): Promise<Map<bigint, NonNullable<Round>>> {
  const phases = [...new Set(open.map(([, s]) => s.phase))];
  let first = Infinity;
  let last = -Infinity;
  for (const [t] of open) {
    if (t < first) first = t;
    if (t > last) last = t;
  }
  const margin = Math.max(MIN_MARGIN_SECONDS, heartbeatSeconds * HEARTBEAT_MARGIN);
  const logged = await logs.roundsBetween(
    phases.map((p) => p.aggregator),
    first - heartbeatSeconds - margin,
    last,
    signal,
  );
  const out = new Map<bigint, NonNullable<Round>>();
  for (const l of logged) {
    const phase = phases.find((p) => p.aggregator === l.aggregator);
    if (phase && l.round >= 1n && l.round <= phase.last) out.set(roundIdOf(phase.id, l.round), { answer: l.answer, updatedAt: l.updatedAt });
  }
  return out;
}

/** One eth_call: the contract, the function, its arguments. */
type Read = readonly [to: string, functionName: string, args?: unknown[]];
const call = ([to, functionName, args = []]: Read): RpcCall => ({
  method: 'eth_call',
  params: [{ to, data: encodeFunctionData({ abi: ABI, functionName, args } as never) }, 'latest'],
});

/** eth_calls in one batch; a call that reverts answers null, any other error of the node fails the read. */
function createReader(o: ChainlinkFeedOptions) {
  return async function read(reads: readonly Read[], signal?: AbortSignal): Promise<unknown[]> {
    if (!reads.length) return [];
    const out = await o.transport.callManySettled<Hex>(reads.map(call), { signal });
    return out.map((r, i) => {
      const functionName = reads[i][1];
      if (!r.ok) {
        if (r.error.code === 3 || /revert/i.test(r.error.message)) return null;
        throw new HistoryError('rpc_error', `${o.coin}/USD feed ${o.proxy}: ${functionName}: ${r.error.message}`, { retryable: true });
      }
      if (r.result === '0x') return null;
      try {
        return decodeFunctionResult({ abi: ABI, functionName, data: r.result } as never) as unknown;
      } catch (e) {
        throw new HistoryError('rpc_malformed_response', `${o.coin}/USD feed ${o.proxy}: ${functionName} answered what it cannot: ${(e as Error).message}`, {
          cause: e,
        });
      }
    });
  };
}

export const roundIdOf = (phase: number, aggregatorRound: bigint): bigint => (BigInt(phase) << 64n) | aggregatorRound;

export function createChainlinkFeed(o: ChainlinkFeedOptions): PriceSource {
  const now = o.now ?? Date.now;
  // Rounds known in this process; the cache behind it keeps them for every process and restart.
  const rounds = new Map<bigint, Round>();
  const cache: RoundCache = o.rounds ?? createMemoryCache<StoredRound>();
  const feedKey = o.feedKey ?? o.proxy.toLowerCase();
  const toStored = (r: NonNullable<Round>): StoredRound => ({ answer: r.answer.toString(), updatedAt: r.updatedAt });
  const fromStored = (r: StoredRound): Round => (r.answer === null ? null : { answer: BigInt(r.answer), updatedAt: r.updatedAt });
  let bounds: Promise<Bounds> | null = null;

  const read = createReader(o);

  type RoundTuple = readonly [bigint, bigint, bigint, bigint, bigint];
  const roundOf = (t: RoundTuple | null): Round => (t && t[3] > 0n ? { answer: t[1], updatedAt: Number(t[3]) } : null);

  /** Three batched requests: decimals and phase; each phase's aggregator; each phase's latest and first rounds. */
  async function readBounds(signal?: AbortSignal): Promise<Bounds> {
    const [decimals, phaseId] = (await read(
      [
        [o.proxy, 'decimals'],
        [o.proxy, 'phaseId'],
      ],
      signal,
    )) as [number | null, number | null];
    if (decimals === null || phaseId === null) throw new Error(`${o.coin}/USD feed ${o.proxy}: not a Chainlink proxy (decimals, phaseId)`);
    const ids = Array.from({ length: Number(phaseId) }, (_, i) => i + 1);
    const aggregators = (await read(
      ids.map((p) => [o.proxy, 'phaseAggregators', [p]] as const),
      signal,
    )) as (string | null)[];
    const live = ids.flatMap((id, i) => (aggregators[i] && !/^0x0{40}$/i.test(aggregators[i]!) ? [{ id, aggregator: aggregators[i]! }] : []));
    const ends = (await read(
      live.flatMap((p) => [[p.aggregator, 'latestRoundData'] as const, [o.proxy, 'getRoundData', [roundIdOf(p.id, 1n)]] as const]),
      signal,
    )) as (RoundTuple | null)[];
    const latest = live.map((_, i) => ends[2 * i]);
    const first = live.map((_, i) => ends[2 * i + 1]);
    const phases: Phase[] = [];
    live.forEach((p, i) => {
      const l = latest[i];
      const f = roundOf(first[i]);
      const lr = roundOf(l);
      if (!l || !f || !lr) return; // a phase with no round
      const last = l[0] & ROUND_MASK;
      rounds.set(roundIdOf(p.id, 1n), f);
      rounds.set(roundIdOf(p.id, last), lr);
      phases.push({ id: p.id, aggregator: p.aggregator.toLowerCase(), last, firstTime: f.updatedAt, lastTime: lr.updatedAt });
    });
    return { decimals: Number(decimals), phases, readAt: now() };
  }

  /** The bounds, read again when older than a minute or than `latest` (a time a round read since may be in force at). */
  async function currentBounds(signal?: AbortSignal, latest = -Infinity): Promise<Bounds> {
    if (bounds) {
      const b = await bounds.catch(() => null);
      const age = b ? now() - b.readAt : Infinity;
      if (b && age < BOUNDS_TTL_MS && (latest < b.readAt / 1000 - FRESH_LAG_SECONDS || age < FRESH_REREAD_MS)) return b;
    }
    // Shared by the calls of the next minute: read without any one caller's signal, which each caller races instead.
    bounds = readBounds();
    return signal ? raceAbort(bounds, signal) : bounds;
  }

  /**
   * The round ids strictly inside the searches' brackets not known yet, each once (the brackets
   * merged); null as soon as there are more than `cap` (then bisection is cheaper).
   */
  function unknownBetween(phase: Phase, group: readonly { lo: bigint; hi: bigint }[], cap: number): bigint[] | null {
    const spans = group.map((s) => [s.lo + 1n, s.hi - 1n] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const out: bigint[] = [];
    let next = 0n;
    for (const [from, to] of spans) {
      for (let r = from > next ? from : next; r <= to; r++) {
        const id = roundIdOf(phase.id, r);
        if (rounds.has(id)) continue;
        if (out.length === cap) return null;
        out.push(id);
      }
      if (to + 1n > next) next = to + 1n;
    }
    return out;
  }

  let logsFailedAt = -Infinity;

  /** Every round of the open searches' span from the aggregators' logs; false when the logs could not be had. */
  async function readLogs(open: [number, Search][], signal?: AbortSignal): Promise<boolean> {
    if (!o.logs || now() - logsFailedAt < LOGS_RETRY_MS) return false;
    let logged: Map<bigint, NonNullable<Round>>;
    try {
      logged = await roundsFromLogs(o.logs, open, o.heartbeatSeconds, signal);
    } catch (e) {
      if (signal?.aborted) throw e;
      logsFailedAt = now();
      return false;
    }
    for (const [id, r] of logged) rounds.set(id, r);
    if (logged.size) await cache.put(feedKey, new Map([...logged].map(([id, r]) => [id.toString(), toStored(r)])));
    return true;
  }

  async function pricesAt(times: readonly number[], signal?: AbortSignal): Promise<(PricePoint | null)[]> {
    let latest = -Infinity;
    for (const t of times) if (t > latest) latest = t;
    const b = await currentBounds(signal, latest);
    // One search per distinct time: [lo, hi) over a phase's aggregator rounds, with lo's time at
    // or before the time and hi's after it (hi = last + 1: none after).
    const searches = new Map<number, Search>();
    for (const t of new Set(times)) {
      const phase = b.phases.findLast((p) => p.firstTime <= t);
      if (!phase) continue; // before the feed's first round
      searches.set(t, t >= phase.lastTime ? { phase, lo: phase.last, hi: phase.last + 1n } : { phase, lo: 1n, hi: phase.last });
    }
    tighten(rounds, searches);
    let loggedThisCall = false;
    for (;;) {
      const open = [...searches].filter(([, s]) => s.hi - s.lo > 1n);
      if (!open.length) break;
      const wanted = new Set<bigint>();
      for (const [phase, group] of groupBy(
        open.map(([, s]) => s),
        (s) => s.phase,
      )) {
        const cap = DENSE_ROUNDS_PER_SEARCH * group.length;
        const unknown = unknownBetween(phase, group, cap);
        if (unknown) for (const id of unknown) wanted.add(id);
        else
          for (const s of group) {
            const id = roundIdOf(phase.id, (s.lo + s.hi) / 2n);
            if (!rounds.has(id)) wanted.add(id);
          }
      }
      // Kept ones first; the others from the feed, then kept.
      const kept = wanted.size ? await cache.get(feedKey, [...wanted].map(String)) : new Map<string, StoredRound>();
      for (const [k, v] of kept) rounds.set(BigInt(k), fromStored(v));
      const ids = [...wanted].filter((id) => !kept.has(id.toString()));
      // The first round this call needs from the chain: the whole span from the logs instead, once.
      if (ids.length && !loggedThisCall) {
        loggedThisCall = true;
        if (await readLogs(open, signal)) {
          tighten(rounds, searches);
          continue;
        }
      }
      const got = (await read(
        ids.map((id) => [o.proxy, 'getRoundData', [id]] as const),
        signal,
      )) as (RoundTuple | null)[];
      const fresh = new Map<string, StoredRound>();
      ids.forEach((id, i) => {
        const r = roundOf(got[i]);
        rounds.set(id, r);
        // A round the feed said it lacks is not kept: only what was published is final.
        if (r) fresh.set(id.toString(), toStored(r));
      });
      if (fresh.size) await cache.put(feedKey, fresh);
      for (const [t, s] of open) {
        const mid = (s.lo + s.hi) / 2n;
        const r = rounds.get(roundIdOf(s.phase.id, mid));
        // A round the feed does not have is taken as later than any time: the search goes below it.
        if (!r || r.updatedAt > t) s.hi = mid;
        else s.lo = mid;
      }
    }
    const priced = pointsOf(searches, rounds, b.decimals, o.heartbeatSeconds, Math.floor(now() / 1000));
    return times.map((t) => priced.get(t) ?? null);
  }

  return { coin: o.coin, pricesAt };
}

/** `p`, or the signal's reason as soon as it aborts (p goes on for whoever else waits on it). */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}
