/**
 * Fetch: one chunk of signatures as one getTransaction JSON-RPC batch, each transaction decoded
 * for the wallet as its part of the answer is parsed, here or in another thread (the offload).
 * Failed transactions (err set in the signature list) are not fetched.
 */
import type { TransactionActivity } from '../../../core/activity.js';
import { HistoryError, redactUrl } from '../../../core/errors.js';
import { isoFromUnixSeconds } from '../../../core/trade.js';
import type { Offload } from '../../../core/offload.js';
import { sleep } from '../../../core/wait.js';
import type { RpcTransport } from '../../../rpc/json-rpc.js';
import type { BatchReading } from '../../../rpc/read-batch.js';
import {
  DECODE_TRANSACTION_BATCH,
  decodeForWallet,
  type DecodeTransactionBatchInput,
  type SolanaDecoder,
  type WalletTransaction,
} from '../decode/decode-batch.js';
import type { SolanaDecodedTrade } from '../decode/decode-transaction.js';
import { getTransaction, type Commitment, type SignatureInfo } from '../rpc-methods.js';

/** getTransaction answering null (node behind the signature index): tries before giving up. */
const NOT_FOUND_RETRIES = 3;

export interface FetchTransactionsContext {
  transport: RpcTransport;
  commitment: Commitment;
  decode: SolanaDecoder;
  /** Where batch answers are read and decoded, when not on this thread (never with a custom decode). */
  offload?: Offload;
  stats: { transactionBatches: number; transactions: number; decodeMs: number };
}

/**
 * A transaction with trades for the wallet, or one whose balance changes no trade explains: its
 * trades, its trade position, its token balances' decimals, and what makes it unexplained.
 */
export interface DecodedTransaction {
  trades: SolanaDecodedTrade[];
  position: string;
  hints: Map<string, number>;
  unexplained?: { signature: string; blockTime: string; activity: TransactionActivity };
}

export interface ChunkToFetch {
  wallet: string;
  /** The chunk's signatures and their trade positions, by index. */
  signatures: readonly SignatureInfo[];
  positions: readonly string[];
  /**
   * A walk's first chunk: what the first NDJSON line waits for. It goes first through the limiter
   * and is decoded on this thread: ~20 transactions take a few ms, and handing them over would
   * add a thread hop to the client's wait.
   */
  first: boolean;
  signal: AbortSignal;
}

/** The chunk's transactions that have trades for the wallet or are unexplained, in the chunk's order. */
export async function fetchTransactions(ctx: FetchTransactionsContext, chunk: ChunkToFetch): Promise<DecodedTransaction[]> {
  const { signatures, wallet, signal, first } = chunk;
  const wanted: number[] = [];
  signatures.forEach((s, i) => {
    if (s.err === null || s.err === undefined) wanted.push(i);
  });
  if (wanted.length === 0) return [];
  ctx.stats.transactionBatches++;
  // Each transaction is decoded as soon as its part of the batch answer is parsed and then
  // dropped (the transport reads batches item by item): only the trades stay alive, so the
  // ~15 KB object tree of a transaction dies young instead of 100 of them being promoted
  // together (see rpc/json-items.ts). With an offload, that happens in a worker thread.
  const decodeOne = (tx: unknown): WalletTransaction | null => {
    const t0 = performance.now();
    try {
      return decodeForWallet(tx, wallet, ctx.decode);
    } finally {
      ctx.stats.decodeMs += performance.now() - t0;
    }
  };
  const offload = ctx.offload;
  const readBatch =
    offload && !first
      ? async (body: Uint8Array) => {
          const input: DecodeTransactionBatchInput = { body, wallet };
          const r = await offload.run<BatchReading<WalletTransaction | null>>(DECODE_TRANSACTION_BATCH, input, [body.buffer as ArrayBuffer]);
          if (r.kind === 'items') ctx.stats.decodeMs += r.mapMs;
          return r;
        }
      : undefined;
  const fetchAll = (indices: readonly number[]) =>
    ctx.transport.callMany<unknown, WalletTransaction | null>(
      indices.map((i) => getTransaction(signatures[i].signature, ctx.commitment)),
      { signal, map: decodeOne, readBatch, priority: first ? 'high' : 'normal' },
    );
  const results = await fetchAll(wanted);
  for (let attempt = 0; ; attempt++) {
    const missing = wanted.flatMap((_, k) => (results[k] === null || results[k] === undefined ? [k] : []));
    if (missing.length === 0) break;
    if (attempt >= NOT_FOUND_RETRIES) {
      throw new HistoryError('rpc_error', `getTransaction: ${missing.length} listed transactions not found`, {
        retryable: true,
        context: { url: redactUrl(ctx.transport.url), signature: signatures[wanted[missing[0]]].signature },
      });
    }
    await sleep(250 * 2 ** attempt, signal);
    const again = await fetchAll(missing.map((k) => wanted[k]));
    missing.forEach((k, j) => (results[k] = again[j]));
  }
  ctx.stats.transactions += results.length;

  const decoded: DecodedTransaction[] = [];
  for (let k = 0; k < wanted.length; k++) {
    const d = results[k]!;
    if (d.trades.length === 0 && !d.unexplained) continue;
    const s = signatures[wanted[k]];
    decoded.push({
      trades: d.trades,
      position: chunk.positions[wanted[k]],
      hints: d.hints!,
      ...(d.unexplained
        ? {
            unexplained: {
              signature: s.signature,
              blockTime: typeof s.blockTime === 'number' ? isoFromUnixSeconds(s.blockTime) : (d.trades[0]?.blockTime ?? ''),
              activity: d.unexplained,
            },
          }
        : {}),
    });
  }
  return decoded;
}
