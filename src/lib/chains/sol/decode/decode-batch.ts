/**
 * A transaction decoded for one wallet, and a whole getTransaction batch answer decoded from its
 * bytes: the work the Solana source does on each batch, in its own thread or in a worker thread
 * (the server's offload pool runs `decodeTransactionBatch`). Plain Web APIs only.
 */
import { HistoryError } from '../../../core/errors.js';
import type { TransactionActivity } from '../../../core/activity.js';
import { unexplainedActivity } from './activity.js';
import { decodeNormalizedTransaction, decodeSolanaTransaction, type SolanaDecodedTrade } from './decode-transaction.js';
import { normalizeTransaction } from './normalize.js';
import { readBatchBody, type BatchReading } from '../../../rpc/read-batch.js';

export type SolanaDecoder = (tx: unknown, wallet: string) => SolanaDecodedTrade[];

/** A transaction's trades for the wallet (in leg order) and the decimals its token balances give. */
export interface WalletTransaction {
  trades: SolanaDecodedTrade[];
  hints: Map<string, number> | null;
  /** Its balance changes, when no trade explains them (core/activity.ts): an unexplained transaction. */
  unexplained?: TransactionActivity;
}

const NO_TRADES: WalletTransaction = { trades: [], hints: null };

/** Decimals of every mint in the transaction's token balances (post, then pre: pre wins). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped getTransaction JSON, read defensively with ?.
function tokenDecimalsOf(tx: any): Map<string, number> {
  const out = new Map<string, number>();
  for (const list of [tx?.meta?.postTokenBalances, tx?.meta?.preTokenBalances]) {
    if (!Array.isArray(list)) continue;
    for (const b of list) {
      if (typeof b?.mint === 'string' && typeof b?.uiTokenAmount?.decimals === 'number') out.set(b.mint, b.uiTokenAmount.decimals);
    }
  }
  return out;
}

/**
 * The wallet's trades in a getTransaction result; null for a null result (the node does not have
 * it yet). A decoder failure is a bug to fix, not something to skip silently (a skipped swap
 * would be a missing trade in someone's cost basis): it throws a non-retryable `internal` error.
 */
export function decodeForWallet(tx: unknown, wallet: string, decode: SolanaDecoder = decodeSolanaTransaction): WalletTransaction | null {
  if (tx === null || tx === undefined) return null;
  let trades: SolanaDecodedTrade[];
  let unexplained: TransactionActivity | null;
  try {
    // The decoder and the balance changes share one normalization (about 17 µs of a 40 µs
    // decode); a decoder given by a caller (tests) reads the raw transaction itself.
    const normalized = normalizeTransaction(tx);
    trades = decode === decodeSolanaTransaction ? decodeNormalizedTransaction(normalized, wallet) : decode(tx, wallet);
    unexplained = unexplainedActivity(
      normalized,
      wallet,
      trades.map((t) => t.tokenMint),
    );
  } catch (e) {
    const signature = (tx as { transaction?: { signatures?: string[] } })?.transaction?.signatures?.[0] ?? '(unknown signature)';
    throw new HistoryError('internal', `decoding ${signature} failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e, retryable: false });
  }
  if (trades.length === 0) return unexplained ? { trades, hints: tokenDecimalsOf(tx), unexplained } : NO_TRADES;
  return { trades: trades.slice().sort((a, b) => a.leg - b.leg), hints: tokenDecimalsOf(tx), ...(unexplained ? { unexplained } : {}) };
}

export interface DecodeTransactionBatchInput {
  /** The bytes of a 200 answer to a getTransaction batch. */
  body: Uint8Array;
  wallet: string;
}

/** Offload task name of `decodeTransactionBatch`. */
export const DECODE_TRANSACTION_BATCH = 'sol.decodeTransactionBatch';

/** A getTransaction batch answer read and decoded item by item: only the trades stay alive. */
export function decodeTransactionBatch({ body, wallet }: DecodeTransactionBatchInput): BatchReading<WalletTransaction | null> {
  return readBatchBody(body, (tx) => decodeForWallet(tx, wallet));
}
