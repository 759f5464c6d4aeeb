import { HistoryError } from '../../core/errors.js';
import type { HttpJsonClient } from '../../rpc/http-json.js';
import type { TronTransactionInfo } from './decode/decode-transaction.js';

/**
 * The four TronGrid endpoints a Tron source may use (../shared/spec/tron-endpoints.md), one
 * function each, over the shared HTTP JSON client (retries, limiter, timeouts, credentials).
 */

/** A record of `/v1/accounts/{a}/transactions`: the parts the source reads. */
export interface TronAccountTransaction {
  txID: string;
  blockNumber: number;
  block_timestamp: number;
  ret?: { contractRet?: string }[];
  raw_data?: {
    contract?: {
      type?: string;
      parameter?: { value?: { owner_address?: string; contract_address?: string; data?: string; call_value?: number | string } };
    }[];
  };
}

export interface TronPage<T> {
  data: T[];
  /** Present only when more records follow. */
  fingerprint?: string;
}

interface Envelope<T> {
  data?: T[];
  success?: boolean;
  error?: string;
  meta?: { fingerprint?: string; page_size?: number };
}

function page<T>(body: Envelope<T>, what: string): TronPage<T> {
  if (!body || !Array.isArray(body.data) || body.success === false) {
    throw new HistoryError('rpc_malformed_response', `${what}: TronGrid answered without a data list${body?.error ? ` (${body.error})` : ''}`, {
      retryable: true,
    });
  }
  return { data: body.data, ...(body.meta?.fingerprint ? { fingerprint: body.meta.fingerprint } : {}) };
}

export interface AccountTransactionsParameters {
  wallet: string;
  /** Records per page: TronGrid's maximum is 200. */
  limit: number;
  fingerprint?: string;
  /** Inclusive bounds on block_timestamp, ms. */
  minTimestamp?: number;
  maxTimestamp?: number;
  signal?: AbortSignal;
}

/** One page of the wallet's own confirmed transactions, newest first. */
export async function getAccountTransactions(client: HttpJsonClient, p: AccountTransactionsParameters): Promise<TronPage<TronAccountTransaction>> {
  const body = await client.get<Envelope<TronAccountTransaction>>(
    `/v1/accounts/${p.wallet}/transactions`,
    {
      only_confirmed: true,
      only_from: true,
      limit: p.limit,
      order_by: 'block_timestamp,desc',
      min_timestamp: p.minTimestamp,
      max_timestamp: p.maxTimestamp,
      fingerprint: p.fingerprint,
    },
    { signal: p.signal },
  );
  return page(body, 'account transactions');
}

/**
 * Logs, internal transactions and result of one transaction. The confirmed view
 * (`/walletsolidity/`): the walk lists only confirmed transactions, so their infos are final.
 * Null when the solidity node does not know the transaction yet (`{}`, TronGrid's answer for an
 * id it does not know): the node that listed it as confirmed is a moment ahead of it.
 */
export async function getSolidifiedInfo(client: HttpJsonClient, id: string, signal?: AbortSignal): Promise<TronTransactionInfo | null> {
  const info = await client.post<TronTransactionInfo>('/walletsolidity/gettransactioninfobyid', { value: id }, { signal });
  if (info && typeof info === 'object' && !Array.isArray(info) && Object.keys(info).length === 0) return null;
  if (!info || typeof info !== 'object' || info.id !== id) {
    throw new HistoryError('rpc_malformed_response', `transaction info of ${id} is not that transaction's`, { retryable: true, context: { id } });
  }
  return info;
}

/** As getSolidifiedInfo, for a transaction that must be solidified already (a stored trade's): an unknown one is an error, retryable. */
export async function getTransactionInfo(client: HttpJsonClient, id: string, signal?: AbortSignal): Promise<TronTransactionInfo> {
  const info = await getSolidifiedInfo(client, id, signal);
  if (!info) throw unsolidifiedError(id);
  return info;
}

/** A listed transaction whose info the solidity node does not give (yet): a node behind the one that listed it. */
export const unsolidifiedError = (id: string) =>
  new HistoryError('rpc_malformed_response', `transaction info of ${id} missing`, { retryable: true, context: { id } });

/** A TRC-20 transfer record: the token's symbol and decimals ride along. */
export interface Trc20Transfer {
  transaction_id: string;
  token_info?: { symbol?: string; address?: string; decimals?: number; name?: string };
}

/** The newest TRC-20 transfers that name the wallet, of one token when `token` is given. */
export async function getTrc20Transfers(
  client: HttpJsonClient,
  p: { wallet: string; token?: string; limit: number; signal?: AbortSignal },
): Promise<TronPage<Trc20Transfer>> {
  const body = await client.get<Envelope<Trc20Transfer>>(
    `/v1/accounts/${p.wallet}/transactions/trc20`,
    { only_confirmed: true, contract_address: p.token, limit: p.limit },
    { signal: p.signal },
  );
  return page(body, 'TRC-20 transfers');
}

/** Nobody's address (41 + 20 zero bytes): the caller of read-only calls. */
const NOBODY = '410000000000000000000000000000000000000000';

/** A read-only call: the ABI-encoded answer as `0x…`, or null when it reverts or the address has no contract. */
export async function triggerConstantContract(client: HttpJsonClient, p: { contract41: string; data: string; signal?: AbortSignal }): Promise<string | null> {
  const body = await client.post<{ result?: { result?: boolean; code?: string }; constant_result?: string[] }>(
    '/wallet/triggerconstantcontract',
    { owner_address: NOBODY, contract_address: p.contract41, data: p.data.replace(/^0x/, '') },
    { signal: p.signal },
  );
  const out = body?.constant_result?.[0];
  if (body?.result?.result !== true || typeof out !== 'string' || out === '') return null;
  return '0x' + out;
}
