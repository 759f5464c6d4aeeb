import type { ChainSource, HistoryBatch, HistoryParameters } from '../../src/lib/core/chain-source.js';
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
}

export interface ScriptedSource extends ChainSource {
  /** Trades yielded, walks toward older history started, and head refreshes (walks with `until`). */
  readonly stats: { tradesYielded: number; batchesYielded: number; walks: number; refreshes: number };
  /** Adds newer transactions at the head (a wallet that keeps trading). */
  append(transactions: number): void;
  /** Every trade of the history of `wallet`, newest first, as the API must return them. */
  expected(wallet: string): SourceTrade[];
  setDelay(ms: number): void;
  setFailure(opts: { failAfterBatches?: number; failImmediately?: boolean }): void;
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
  const stats = { tradesYielded: 0, batchesYielded: 0, walks: 0, refreshes: 0 };

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
      let n = 0;
      while (n < batchSize && next > stop) {
        trades.push(...tradesOf(wallet, next));
        next--;
        n++;
      }
      const done = next <= stop;
      stats.batchesYielded++;
      stats.tradesYielded += trades.length;
      yield { trades, position: String(next + 1), head: first ? head : undefined, done };
      first = false;
      if (done) return;
    }
  }

  return {
    chain,
    stats,
    history,
    append(n) {
      total += n;
    },
    expected(wallet) {
      const out: SourceTrade[] = [];
      for (let i = total - 1; i >= 0; i--) out.push(...tradesOf(wallet, i));
      return out;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    setFailure(f) {
      failAfterBatches = f.failAfterBatches;
      failImmediately = f.failImmediately ?? false;
    },
  };
}
