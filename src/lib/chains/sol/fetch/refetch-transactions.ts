/**
 * Fetch, for a re-decode: named transactions of the wallet again, by signature, through the walk's
 * own fetch stage (fetch-transactions.ts): one getTransaction batch per `batchSize` signatures,
 * each transaction decoded as its part of the answer is read, here or in the offload, and a null
 * answer asked again before it fails the whole call (retryable): what a re-decode returns replaces
 * every stored row of the named transactions, so a transaction left out would lose its trades.
 *
 * A trade position cannot be read from the transaction: it is the transaction's place in the
 * order getSignaturesForAddress listed the wallet's signatures (position.ts). Each transaction
 * keeps the position it was named with.
 */
import { HistoryError, redactUrl } from '../../../core/errors.js';
import type { SignatureInfo } from '../rpc-methods.js';
import { fetchTransactions, type DecodedTransaction, type FetchTransactionsContext } from './fetch-transactions.js';

export interface NamedTransaction {
  signature: string;
  /** A trade position as position.ts's `tradePosition` writes it: `{slot:12}.{counter:5}`. */
  position: string;
}

export interface RefetchContext extends FetchTransactionsContext {
  batchSize: number;
}

const TRADE_POSITION = /^(\d{12})\.\d{5}$/;

/**
 * The named transactions that have trades for the wallet, decoded, in the order named (each
 * signature once). Failed transactions decode to nothing, as in a walk.
 */
export async function refetchTransactions(
  ctx: RefetchContext,
  wallet: string,
  named: readonly NamedTransaction[],
  outer?: AbortSignal,
): Promise<DecodedTransaction[]> {
  const positions = positionsOf(named);
  if (positions.size === 0) return [];
  // The slot is the position's own: fetchTransactions reads only the signature and err (null: a
  // failed transaction is fetched too, and decodes to no trade).
  const signatures: SignatureInfo[] = [...positions].map(([signature, position]) => ({
    signature,
    slot: Number(TRADE_POSITION.exec(position)![1]),
    err: null,
  }));
  // One batch failing fails the call: the others are stopped rather than left running.
  const ctl = new AbortController();
  const onAbort = () => ctl.abort(outer!.reason);
  outer?.throwIfAborted();
  outer?.addEventListener('abort', onAbort, { once: true });
  try {
    const chunks: Promise<DecodedTransaction[]>[] = [];
    for (let i = 0; i < signatures.length; i += ctx.batchSize) {
      const slice = signatures.slice(i, i + ctx.batchSize);
      const chunk = { wallet, signatures: slice, positions: slice.map((s) => positions.get(s.signature)!), first: false, signal: ctl.signal };
      chunks.push(fetchTransactions(ctx, chunk));
    }
    const decoded = (await Promise.all(chunks)).flat();
    for (const d of decoded) for (const t of d.trades) checkAnswered(ctx, positions, t.signature, d.position);
    return decoded;
  } catch (e) {
    ctl.abort(e);
    if (outer?.aborted) throw outer.reason;
    throw e;
  } finally {
    outer?.removeEventListener('abort', onAbort);
  }
}

/** Signature to position, each signature once; a position not of a trade, or two for one signature, is refused. */
function positionsOf(named: readonly NamedTransaction[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { signature, position } of named) {
    if (!TRADE_POSITION.test(position)) throw new HistoryError('invalid_position', 'not a Solana trade position', { context: { signature, position } });
    const had = out.get(signature);
    if (had !== undefined && had !== position) {
      throw new HistoryError('invalid_position', 'one transaction named with two positions', { context: { signature, position, had } });
    }
    out.set(signature, position);
  }
  return out;
}

/**
 * A decoded trade belongs to the transaction asked for at that place in the batch: a node that
 * answered with another transaction would have its trades stored under the wrong position.
 */
function checkAnswered(ctx: RefetchContext, positions: ReadonlyMap<string, string>, signature: string, position: string): void {
  if (positions.get(signature) === position) return;
  throw new HistoryError('rpc_malformed_response', 'getTransaction answered with a transaction not asked for', {
    retryable: true,
    context: { url: redactUrl(ctx.transport.url), signature },
  });
}
