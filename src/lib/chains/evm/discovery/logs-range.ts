import type { ChainKeyedCache } from '../../../core/chain-source.js';
import { rpcError } from '../rpc-methods.js';

/** The hint under which the provider's largest eth_getLogs range is kept. */
const LOGS_RANGE_HINT = 'logsRange';
/** Refusals for too many results rather than too many blocks (Infura, Alchemy, QuickNode wordings). */
const RESULT_LIMIT_TEXT = /result|response size|too many logs/i;

/**
 * The block-range size a refusal suggests: a range given as `[0x.., 0x..]` (Alchemy, Infura),
 * else a number of blocks named in the text ("max range 1000", "up to 2000 blocks", "2K block
 * range"), else null (halve).
 */
export function suggestedRange(message: string): number | null {
  const text = message.replace(/(\d),(\d{3})/g, '$1$2');
  const pair = /\[\s*(0x[0-9a-f]+|\d+)\s*,\s*(0x[0-9a-f]+|\d+)\s*\]/i.exec(text);
  if (pair) {
    const a = Number(BigInt(pair[1]));
    const b = Number(BigInt(pair[2]));
    if (b >= a) return b - a + 1;
  }
  const k = /(\d+)\s*k\s*block/i.exec(text);
  if (k) return Number(k[1]) * 1000;
  // A limit keyword first ("maximum block range is 1000"), so the requested size is not taken.
  const m = /(?:max(?:imum)?|limit(?:ed)?|up to|at most)[^0-9[]{0,30}?(\d{1,9})/i.exec(text) ?? /(\d{1,9})\s*blocks?\b/i.exec(text);
  return m ? Number(m[1]) : null;
}

export interface LogsRange {
  /**
   * The largest block range the provider takes, once a refusal taught it (or RPC_LOGS_RANGE_<SLUG>
   * said it), else null.
   */
  cap(): Promise<number | null>;
  /**
   * The range to try after a refusal of one `size` blocks long: the one the message suggests, else
   * half. Any refusal shrinks the range (providers word them in many ways); one block still
   * refused is a real error (thrown). A limit on the range is the provider's for good and is
   * learned; one on the results depends on how dense this stretch of the chain is, so it shrinks
   * the caller's walk only.
   */
  afterRefusal(size: number, error: { code: number; message: string }): number;
}

export interface LogsRangeOptions {
  chain: string;
  /** The provider's largest range when configured (RPC_LOGS_RANGE_<SLUG>): never exceeded, no refusal paid. */
  logsRange?: number;
  /** Where the learned range is kept across walks and restarts (the server's store). */
  hints?: ChainKeyedCache<number>;
}

/**
 * What one chain's provider takes in an eth_getLogs, learned from its refusals: kept for every
 * later walk of this source and in `hints`, so a refusal is paid once per chain, not once per
 * walk and again each time the range grows back.
 */
export function createLogsRange({ chain, logsRange, hints }: LogsRangeOptions): LogsRange {
  let learnedRange: Promise<number | null> | null = null;
  const cap = (): Promise<number | null> =>
    (learnedRange ??= logsRange
      ? Promise.resolve(logsRange)
      : (hints?.get(chain, [LOGS_RANGE_HINT]) ?? Promise.resolve(new Map<string, number>())).then(
          (m) => m.get(LOGS_RANGE_HINT) ?? null,
          () => null,
        ));

  function learnRange(size: number): void {
    learnedRange = cap().then((known) => {
      const next = known === null ? size : Math.min(known, size);
      if (next !== known) void hints?.put(chain, new Map([[LOGS_RANGE_HINT, next]])).catch(() => {});
      return next;
    });
  }

  function afterRefusal(size: number, error: { code: number; message: string }): number {
    if (size <= 1) throw rpcError('eth_getLogs', error);
    const suggested = suggestedRange(error.message);
    const next = suggested !== null && suggested > 0 && suggested < size ? suggested : Math.max(1, Math.floor(size / 2));
    if (!RESULT_LIMIT_TEXT.test(error.message)) learnRange(next);
    return next;
  }

  return { cap, afterRefusal };
}
