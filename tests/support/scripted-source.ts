import type { SourceUnexplained } from '../../src/lib/core/activity.js';
import {
  pollingRealtime,
  type ChainSource,
  type HistoryBatch,
  type HistoryParameters,
  type RedecodeParameters,
  type RedecodeResult,
} from '../../src/lib/core/chain-source.js';
import { formatUnits } from '../../src/lib/core/decimal.js';
import { HistoryError } from '../../src/lib/core/errors.js';
import { isoFromUnixSeconds, type SourceTrade } from '../../src/lib/core/trade.js';

/**
 * A chain source for tests only: a wallet history of controllable size and pace.
 * Transaction i (0 = oldest) sits at position i+1; every 7th transaction has two legs (a
 * token-to-token swap: sell then buy), the others one. Positions and markers are the index
 * in decimal: `before` resumes strictly below it, `until` stops at it.
 */
export interface ScriptedSourceOptions {
  chain?: string;
  /** Transactions in the history at the start. */
  transactions: number;
  /** Transactions per batch. */
  batchSize?: number;
  /** Milliseconds before each batch (the RPC's pace). */
  delayMs?: number;
  /** Fail with a retryable upstream error once this many batches were yielded in total. */
  failAfterBatches?: number;
  /** Fail every walk right away (an RPC that is down). */
  failImmediately?: boolean;
  /**
   * The decoder version (1 or 2) this source decodes with; given, it also offers `redecode`.
   * Version 2 decodes some transactions differently from version 1 (tradesAt says how), as a
   * corrected decoder would. Absent: version 1's trades, no version, no redecode.
   */
  decoderVersion?: number;
  /** Milliseconds before each redecode answer. */
  redecodeDelayMs?: number;
  /** Redecode calls after this many never answer until aborted (a hold: the test decides when the walk stops, not the clock). */
  redecodeStallAfter?: number;
  /**
   * Transaction i with i % unexplainedEvery === 1 is also yielded as unexplained (a token no
   * trade names: unexplainedOf), beside its trades in the same batch; with i even it has no trade
   * at all (an unknown venue's swap alone). Absent: none. Decoder version 2 reads those with
   * i % 4 of 1 or 2 (the venue recognised): a leg buying their token, and they leave the list.
   */
  unexplainedEvery?: number;
  /** A realtime stage that polls every followed wallet this often (issue 24); absent, the server's fallback poll. */
  realtimePollMs?: number;
  /** Transaction i's time (ISO), in place of tradesOf's fixed 2023 ones (webhooks announce only trades after their creation). */
  blockTimeOf?: (i: number) => string;
}

export interface ScriptedSource extends ChainSource {
  /**
   * Trades yielded, walks toward older history started, head refreshes (walks with `until`), and
   * redecode calls with the transactions they named.
   */
  readonly stats: {
    tradesYielded: number;
    batchesYielded: number;
    walks: number;
    refreshes: number;
    redecodeCalls: number;
    redecodedTransactions: number;
  };
  /** Adds newer transactions at the head (a wallet that keeps trading). */
  append(transactions: number): void;
  /** Every trade of the history of `wallet`, newest first, as the API must return them. */
  expected(wallet: string): SourceTrade[];
  /** Every unexplained transaction of the history of `wallet`, newest first. */
  expectedUnexplained(wallet: string): SourceUnexplained[];
  setDelay(ms: number): void;
  setFailure(opts: { failAfterBatches?: number; failImmediately?: boolean }): void;
  /** Every redecode call fails from now on (true) or answers again (false). */
  setRedecodeFailure(fail: boolean): void;
  /** Transactions named by redecode calls so far, each signature once per time it was named. */
  readonly redecoded: string[];
}

const POS_WIDTH = 12;
export const pos = (i: number) => String(i + 1).padStart(POS_WIDTH, '0');

export function tradesOf(wallet: string, i: number): SourceTrade[] {
  const signature = `sig${wallet.slice(0, 6)}x${i}`;
  const blockTime = isoFromUnixSeconds(1_700_000_000 + i * 60);
  const base = { signature, position: pos(i), blockTime, dex: i % 2 ? 'raydium-amm' : 'pumpfun' };
  if (i % 7 === 3) {
    return [
      { ...base, leg: 0, side: 'sell', token: 'AAA', tokenMint: 'MintA', amountSol: null, amount: `${i}.5` },
      { ...base, leg: 1, side: 'buy', token: 'BBB', tokenMint: 'MintB', amountSol: null, amount: `${i + 1}` },
    ];
  }
  // 18-decimal amounts check that exact literals survive the whole path.
  return [
    {
      ...base,
      leg: 0,
      side: i % 3 ? 'buy' : 'sell',
      token: 'TKN',
      tokenMint: 'MintT',
      amountSol: formatUnits(BigInt(i) * 1_000_000_007n, 18),
      amount: `${1000 + i}.000000000000000001`,
    },
  ];
}

/**
 * Transaction i's trades as decoder `version` reads them. Version 2 differs from version 1 the way
 * a decoder fix changes a stored history:
 * - i % 5 === 0: the venue is recognised (`dex` becomes `jupiter`): same key, new content;
 * - i % 7 === 3 (token-to-token), i odd: the native middle leg is found (`amountSol` on both legs);
 * - i % 7 === 3, i % 3 === 0: the buy leg was a mistake (leg 1 vanishes; its key is gone);
 * - i % 11 === 4: a second token bought in the same transaction (a new leg 1: a key no trade had);
 * - i % 13 === 6: not a trade at all (every leg vanishes).
 * A transaction version 1 found no trade in does not exist here: each has one (they would not be
 * stored, so a re-decode never sees them).
 */
export function tradesAt(version: number, wallet: string, i: number): SourceTrade[] {
  const v1 = tradesOf(wallet, i);
  if (version < 2) return v1;
  if (i % 13 === 6) return [];
  let out = v1.map((t) => (i % 5 === 0 ? { ...t, dex: 'jupiter' } : { ...t }));
  if (i % 7 === 3) {
    if (i % 2 === 1) out = out.map((t) => ({ ...t, amountSol: `${i}.25` }));
    if (i % 3 === 0) out = out.filter((t) => t.leg === 0);
  }
  if (i % 11 === 4) out.push({ ...out[0], leg: out.length, side: 'buy', token: 'CCC', tokenMint: 'MintC', amountSol: null, amount: `${i}.75` });
  return out;
}

/** Transaction i listed as unexplained: 3 SOL given, a token received that no trade names, one exact 18-decimal change. */
export function unexplainedOf(wallet: string, i: number): SourceUnexplained {
  const t = tradesOf(wallet, i)[0];
  return {
    signature: t.signature,
    blockTime: t.blockTime,
    position: t.position,
    changes: [
      { token: 'SOL', tokenMint: null, amount: '-3' },
      { token: 'ODD', tokenMint: `MintOdd${i % 4}`, amount: `${i}.000000000000000001` },
    ],
    programs: ['UnknownVenue111111111111111111111111111111', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'],
  };
}

function abortable(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const t = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(t);
      reject(new HistoryError('rpc_timeout', 'aborted'));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function createScriptedSource(o: ScriptedSourceOptions): ScriptedSource {
  const chain = o.chain ?? 'sol';
  const batchSize = o.batchSize ?? 100;
  let total = o.transactions;
  let delayMs = o.delayMs ?? 0;
  let failAfterBatches = o.failAfterBatches;
  let failImmediately = o.failImmediately ?? false;
  let failRedecode = false;
  const version = o.decoderVersion ?? 1;
  const stats = { tradesYielded: 0, batchesYielded: 0, walks: 0, refreshes: 0, redecodeCalls: 0, redecodedTransactions: 0 };
  const redecoded: string[] = [];
  const listed = (i: number) => o.unexplainedEvery !== undefined && i % o.unexplainedEvery === 1;
  /** Version 2 reads the venue of listed transactions with i % 4 of 1 or 2: they become trades and leave the list. */
  const explained = (i: number) => listed(i) && version >= 2 && (i % 4 === 1 || i % 4 === 2);
  const isUnexplained = (i: number) => listed(i) && !explained(i);
  /** Transaction i's trades at this source's version: a listed one with i even has none but the leg version 2 finds. */
  const tradesFor = (wallet: string, i: number): SourceTrade[] => {
    const timed = tradesForVersion(wallet, i);
    return o.blockTimeOf ? timed.map((t) => ({ ...t, blockTime: o.blockTimeOf!(i) })) : timed;
  };
  const tradesForVersion = (wallet: string, i: number): SourceTrade[] => {
    const out = listed(i) && i % 2 === 0 ? [] : tradesAt(version, wallet, i);
    if (!explained(i)) return out;
    const odd = unexplainedOf(wallet, i).changes[1];
    const base = tradesOf(wallet, i)[0];
    return [
      ...out,
      { ...base, leg: out.length, side: 'buy', token: odd.token, tokenMint: odd.tokenMint!, amountSol: '3', amount: odd.amount!, dex: 'jupiter' },
    ];
  };

  async function* history({ wallet, before, until, signal }: HistoryParameters): AsyncGenerator<HistoryBatch> {
    if (until === undefined) stats.walks++;
    else stats.refreshes++;
    if (failImmediately) throw new HistoryError('rpc_http_error', 'scripted RPC is down', { retryable: true });
    const head = String(total - 1);
    let next = before === undefined ? total - 1 : Number(before) - 1;
    const stop = until === undefined ? -1 : Number(until);
    let first = true;
    for (;;) {
      await abortable(delayMs, signal);
      if (failAfterBatches !== undefined && stats.batchesYielded >= failAfterBatches) {
        throw new HistoryError('rpc_http_error', 'scripted RPC failure', { retryable: true });
      }
      const trades: SourceTrade[] = [];
      const unexplained: SourceUnexplained[] = [];
      let n = 0;
      while (n < batchSize && next > stop) {
        trades.push(...tradesFor(wallet, next));
        if (isUnexplained(next)) unexplained.push(unexplainedOf(wallet, next));
        next--;
        n++;
      }
      const done = next <= stop;
      stats.batchesYielded++;
      stats.tradesYielded += trades.length;
      yield { trades, position: String(next + 1), head: first ? head : undefined, done, ...(unexplained.length ? { unexplained } : {}) };
      first = false;
      if (done) return;
    }
  }

  /** Each named transaction fetched again: its index from its position, checked against its signature. */
  async function redecode({ wallet, transactions, signal }: RedecodeParameters): Promise<RedecodeResult> {
    stats.redecodeCalls++;
    // A hold: it never answers, until the call is aborted (a walker stopping).
    if (o.redecodeStallAfter !== undefined && stats.redecodeCalls > o.redecodeStallAfter) {
      await new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(new HistoryError('rpc_timeout', 'aborted')), { once: true }));
    }
    await abortable(o.redecodeDelayMs ?? 0, signal);
    if (failRedecode) throw new HistoryError('rpc_http_error', 'scripted RPC failure (redecode)', { retryable: true });
    const trades: SourceTrade[] = [];
    const unexplained: SourceUnexplained[] = [];
    for (const t of transactions) {
      const i = Number(t.position) - 1;
      if (tradesOf(wallet, i)[0].signature !== t.signature) throw new Error(`scripted redecode: ${t.signature} is not at position ${t.position}`);
      stats.redecodedTransactions++;
      redecoded.push(t.signature);
      trades.push(...tradesFor(wallet, i));
      if (isUnexplained(i)) unexplained.push(unexplainedOf(wallet, i));
    }
    return { trades, unexplained };
  }

  return {
    chain,
    stats,
    redecoded,
    ...(o.decoderVersion === undefined ? {} : { decoderVersion: o.decoderVersion, redecode }),
    ...(o.realtimePollMs === undefined ? {} : { realtime: pollingRealtime(o.realtimePollMs) }),
    history,
    append(n) {
      total += n;
    },
    expected(wallet) {
      const out: SourceTrade[] = [];
      for (let i = total - 1; i >= 0; i--) out.push(...tradesFor(wallet, i));
      return out;
    },
    expectedUnexplained(wallet) {
      const out: SourceUnexplained[] = [];
      for (let i = total - 1; i >= 0; i--) if (isUnexplained(i)) out.push(unexplainedOf(wallet, i));
      return out;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    setFailure(f) {
      failAfterBatches = f.failAfterBatches;
      failImmediately = f.failImmediately ?? false;
    },
    setRedecodeFailure(fail) {
      failRedecode = fail;
    },
  };
}
