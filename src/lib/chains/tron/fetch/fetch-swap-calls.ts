/**
 * Fetch: of a run of account records, the wallet's own successful contract calls that can be
 * swaps, each with its transaction info (logs, internal transactions; as many at once as the
 * chain's limiter lets through), the SunSwap V4 pool keys a multi-hop route needs
 * (enrich/pool-keys.ts), and decoded for the wallet, with its balance changes when no trade
 * explains them (decode/activity.ts).
 */
import { isUnexplained, type TransactionActivity } from '../../../core/activity.js';
import { HistoryError } from '../../../core/errors.js';
import type { HttpJsonClient } from '../../../rpc/http-json.js';
import { toInternalHex } from '../address.js';
import { tronActivity } from '../decode/activity.js';
import { decodeTronTransaction, type TronTransactionInfo } from '../decode/decode-transaction.js';
import type { ResolveTronPoolKeys } from '../enrich/pool-keys.js';
import { getSolidifiedInfo, type TronAccountTransaction } from '../rpc-methods.js';

/** Calls that cannot be a swap: TRC-20 `transfer`, `approve`, `transferFrom` (no info fetched for them). */
const NOT_A_SWAP = new Set(['a9059cbb', '095ea7b3', '23b872dd']);

const TXID = /^[0-9a-f]{64}$/;

export interface FetchSwapCallsContext {
  client: HttpJsonClient;
  stats: { decodeMs: number };
  /** SunSwap V4 pool keys for the infos that need them; without it such routes keep no TRX middle leg. */
  poolKeys?: ResolveTronPoolKeys;
}

/** A call the wallet made: its record, its transaction info and what the decoder found in it. */
export interface DecodedCall {
  record: TronAccountTransaction;
  info: TronTransactionInfo;
  trades: ReturnType<typeof decodeTronTransaction>;
  /** Its balance changes, when no trade explains them (core/activity.ts): an unexplained transaction. */
  unexplained?: TransactionActivity;
}

/** The calls decoded, and the records whose infos the solidity node does not give yet (not decoded; newest first). */
export interface FetchedCalls {
  calls: DecodedCall[];
  unsolidified: TronAccountTransaction[];
}

/** The wallet's successful contract call in a record, or null. */
function ownCall(r: TronAccountTransaction, wallet: string) {
  const c = r.raw_data?.contract?.[0];
  if (c?.type !== 'TriggerSmartContract' || r.ret?.[0]?.contractRet !== 'SUCCESS') return null;
  const v = c.parameter?.value;
  if (!v?.owner_address || !v.contract_address) return null;
  let owner: string;
  let contract: string;
  try {
    owner = toInternalHex(v.owner_address);
    contract = toInternalHex(v.contract_address);
  } catch {
    return null;
  }
  if (owner !== wallet) return null;
  if (NOT_A_SWAP.has((v.data ?? '').slice(0, 8).toLowerCase())) return null;
  const cv = v.call_value === undefined ? 0n : BigInt(String(v.call_value));
  return { owner, contract, callValue: cv };
}

/**
 * `wallet` in the internal form (`0x` + 40 hex); `records` newest first. Calls in the records'
 * order. `known`: infos already fetched (a re-decode's), by transaction id.
 */
export async function fetchSwapCalls(
  ctx: FetchSwapCallsContext,
  wallet: string,
  records: readonly TronAccountTransaction[],
  signal?: AbortSignal,
  known?: ReadonlyMap<string, TronTransactionInfo>,
): Promise<FetchedCalls> {
  const listed = records.flatMap((r) => {
    if (!TXID.test(r.txID)) throw new HistoryError('rpc_malformed_response', `TronGrid listed a transaction id that is not 64 hex digits: ${r.txID}`);
    const call = ownCall(r, wallet);
    return call ? [{ r, call }] : [];
  });
  if (!listed.length) return { calls: [], unsolidified: [] };
  const fetched = await Promise.all(listed.map(({ r }) => known?.get(r.txID) ?? getSolidifiedInfo(ctx.client, r.txID, signal)));
  const unsolidified = listed.filter((_, i) => fetched[i] === null).map(({ r }) => r);
  const calls = listed.filter((_, i) => fetched[i] !== null);
  const infos = fetched.filter((info): info is TronTransactionInfo => info !== null);
  const poolKeys = ctx.poolKeys ? await ctx.poolKeys(infos, signal) : undefined;
  const t0 = performance.now();
  const decoded = calls.map(({ r, call }, i): DecodedCall => {
    const trades = decodeTronTransaction(call, infos[i], wallet, { poolKeys });
    // What it did to the wallet's balances, from the same record and info (no call added).
    const activity = tronActivity(r, infos[i], wallet);
    const unexplained =
      activity &&
      isUnexplained(
        activity,
        trades.map((t) => t.token),
      )
        ? activity
        : undefined;
    return { record: r, info: infos[i], trades, ...(unexplained ? { unexplained } : {}) };
  });
  ctx.stats.decodeMs += performance.now() - t0;
  return { calls: decoded, unsolidified };
}
