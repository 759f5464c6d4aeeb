/**
 * The EVM JSON-RPC methods this family uses, typed, over the shared JSON-RPC client
 * (src/lib/rpc/json-rpc.ts: batching, limiter, retries). Hex quantities stay hex here; the stages
 * (discovery/, enrich/, trades-of.ts) convert what they read (quantity.ts).
 */
import { HistoryError } from '../../core/errors.js';
import type { RpcOutcome, RpcTransport } from '../../rpc/json-rpc.js';
import type { RpcLog, RpcReceipt } from './decode/rpc-types.js';

export type { RpcOutcome } from '../../rpc/json-rpc.js';

/** A node's error for one call as a HistoryError (not retryable: the node answered, and would again). */
export function rpcError(method: string, error: { code: number; message: string }): HistoryError {
  return new HistoryError('rpc_error', `${method} failed: ${error.message} (code ${error.code})`, {
    context: { method, code: error.code, message: error.message },
  });
}

export interface LogFilter {
  fromBlock: string;
  toBlock: string;
  address?: string | string[];
  topics?: (string | string[] | null)[];
}

export const ethBlockNumber = (rpc: RpcTransport, signal?: AbortSignal) => rpc.call<string>('eth_blockNumber', [], { signal });

export const ethGetBlockByNumber = (rpc: RpcTransport, tag: string, signal?: AbortSignal) =>
  rpc.call<{ number: string; timestamp: string } | null>('eth_getBlockByNumber', [tag, false], { signal });

/**
 * Several eth_getLogs in one batch. Each filter's refusal comes back as its outcome, not retried:
 * a provider refuses a range or a result count with an error (often -32005) whose text the
 * caller reads to shrink the range.
 */
export const ethGetLogsMany = (rpc: RpcTransport, filters: readonly LogFilter[], signal?: AbortSignal): Promise<RpcOutcome<RpcLog[]>[]> =>
  rpc.callManySettled<RpcLog[]>(
    filters.map((f) => ({ method: 'eth_getLogs', params: [f] })),
    { signal, retryItemErrors: false },
  );

/** Receipts in one batch (transient refusals of single calls sent again); a receipt the node lacks is null. */
export async function ethGetReceipts(rpc: RpcTransport, hashes: readonly string[], signal?: AbortSignal): Promise<(RpcReceipt | null)[]> {
  const out = await rpc.callManySettled<RpcReceipt | null>(
    hashes.map((h) => ({ method: 'eth_getTransactionReceipt', params: [h] })),
    { signal },
  );
  return out.map((o) => {
    if (!o.ok) throw rpcError('eth_getTransactionReceipt', o.error);
    return o.result;
  });
}

/** Block headers by number (for timestamps the logs did not carry). */
export async function ethGetBlocks(rpc: RpcTransport, numbers: readonly string[], signal?: AbortSignal): Promise<{ number: string; timestamp: string }[]> {
  const out = await rpc.callManySettled<{ number: string; timestamp: string }>(
    numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [n, false] })),
    { signal },
  );
  return out.map((o) => {
    if (!o.ok) throw rpcError('eth_getBlockByNumber', o.error);
    return o.result;
  });
}

/** Read-only contract calls at `latest` in one batch; a revert is an outcome, not a failure. */
export const ethCallMany = (rpc: RpcTransport, calls: readonly { to: string; data: string }[], signal?: AbortSignal): Promise<RpcOutcome<string>[]> =>
  rpc.callManySettled<string>(
    calls.map((c) => ({ method: 'eth_call', params: [c, 'latest'] })),
    { signal },
  );

/** A frame of `debug_traceTransaction` with the call tracer (geth, reth, anvil, Erigon). */
export interface CallFrame {
  type: string;
  from: string;
  to?: string;
  value?: string;
  error?: string;
  calls?: CallFrame[];
}

/**
 * Call traces of transactions in one batch (`debug_traceTransaction` with the call tracer). Calls
 * refused with a transient error (rate limited, node behind: the transport's list) are sent again
 * like any call; a node without the debug namespace answers each with an error, which is an
 * outcome here (enrich/call-traces.ts decides what it means).
 */
export const debugTraceCalls = (rpc: RpcTransport, hashes: readonly string[], signal?: AbortSignal): Promise<RpcOutcome<CallFrame>[]> =>
  rpc.callManySettled<CallFrame>(
    hashes.map((h) => ({ method: 'debug_traceTransaction', params: [h, { tracer: 'callTracer' }] })),
    { signal },
  );

/** An account's code at `latest` (`0x` for an account without code). */
export const ethGetCode = (rpc: RpcTransport, address: string, signal?: AbortSignal) => rpc.call<string>('eth_getCode', [address, 'latest'], { signal });

/** Otterscan's API level (Erigon, Reth and anvil serve `ots_`); a node without it answers an error. */
export const otsApiLevel = (rpc: RpcTransport, signal?: AbortSignal) => rpc.call<number>('ots_getApiLevel', [], { signal });

/** A page of `ots_searchTransactionsBefore`: the address's transactions in blocks strictly below the one asked, newest first, with their receipts. */
export interface OtsPage {
  txs: { hash: string; blockNumber: string; transactionIndex: string; from: string; to: string | null }[];
  receipts: (RpcReceipt & { timestamp?: string })[];
  firstPage: boolean;
  lastPage: boolean;
}

/** The address's transactions below `block` (0: from the newest), `pageSize` at least (whole blocks). */
export async function otsSearchTransactionsBefore(rpc: RpcTransport, address: string, block: number, pageSize: number, signal?: AbortSignal): Promise<OtsPage> {
  const page = await rpc.call<OtsPage>('ots_searchTransactionsBefore', [address, block, pageSize], { signal });
  if (!page || !Array.isArray(page.txs) || !Array.isArray(page.receipts)) {
    throw new HistoryError('rpc_malformed_response', 'ots_searchTransactionsBefore answered without txs and receipts', { retryable: true });
  }
  return page;
}
