import { displayChanges, type SourceUnexplained } from '../../core/activity.js';
import type { TokenCache } from '../../core/chain-source.js';
import { formatUnits } from '../../core/decimal.js';
import { HistoryError } from '../../core/errors.js';
import { isoFromUnixSeconds, type SourceTrade } from '../../core/trade.js';
import type { RpcTransport } from '../../rpc/json-rpc.js';
import { toChecksumAddress } from './address.js';
import { unexplainedActivity } from './decode/activity.js';
import { decodeReceipt, mayHoldWalletTrade, readReceipt, swapPools } from './decode/decode-receipt.js';
import type { RpcReceipt } from './decode/rpc-types.js';
import { fillBlockTimes } from './enrich/block-times.js';
import type { CallTraces } from './enrich/call-traces.js';
import type { IsDelegated } from './enrich/delegation.js';
import type { MetadataPrefetch } from './enrich/metadata-prefetch.js';
import type { PoolFactories } from './enrich/pool-factories.js';
import type { ResolvePoolKeys } from './enrich/pool-keys.js';
import type { ExtraAggregators } from './enrich/settlers.js';
import { num } from './quantity.js';
import type { EvmChainConfig } from './registry.js';
import { ethGetReceipts } from './rpc-methods.js';
import { resolveTokens } from './tokens/resolve-tokens.js';
import { evmPosition, type TxMap } from './trade-position.js';

/**
 * The stage after discovery, callable on its own: a set of transactions found (by a historical
 * walk here; by a realtime stage as well) → their receipts → enrichment (pool keys, EIP-7702
 * delegation, call traces, block times, pool factories, token metadata: `enrich/`) → decoded
 * trades. It keeps no state of its own; the enrich stages keep their caches.
 */

export interface TradesOfRequest {
  wallet: string;
  /** Where each transaction sits (block, index, time when known); times found are written back. */
  txs: TxMap;
  /** The transactions to read, a subset of `txs`. */
  hashes: string[];
  signal?: AbortSignal;
  /** Receipts already in hand (the ots path's pages); the others are fetched in one batch. */
  known?: ReadonlyMap<string, RpcReceipt>;
  /** A third party named these (an explorer): one the RPC does not know is not served, not an error. */
  unvouched?: boolean;
}

/** What the stage makes of some transactions. */
export interface TradesOfResult {
  /** Their trades, in receipt order (callers sort). */
  trades: SourceTrade[];
  /** Those whose balance changes no trade explains, in receipt order. */
  unexplained: SourceUnexplained[];
}

export type TradesOf = (request: TradesOfRequest) => Promise<TradesOfResult>;

export interface TradesOfDeps {
  chain: EvmChainConfig;
  rpc: RpcTransport;
  tokens: TokenCache;
  pools: PoolFactories;
  poolKeys: ResolvePoolKeys;
  isDelegated: IsDelegated;
  traces: CallTraces;
  prefetch: MetadataPrefetch;
  /** Aggregators beyond the chain's table (0x's Settlers from its registry), for the decoder. */
  extraAggregators: ExtraAggregators;
}

/** Receipts of `hashes`: from `known`, the rest in one batch; an unvouched transaction's place is the RPC's. */
async function receiptsOf(rpc: RpcTransport, { txs, hashes, signal, known, unvouched = false }: TradesOfRequest): Promise<RpcReceipt[]> {
  const missing = hashes.filter((h) => !known?.has(h));
  const fetched = new Map<string, RpcReceipt>();
  if (missing.length) {
    (await ethGetReceipts(rpc, missing, signal)).forEach((r, i) => {
      if (!r) {
        if (unvouched) return;
        throw new HistoryError('rpc_malformed_response', `receipt of ${missing[i]} missing below the confirmation point`);
      }
      // The RPC's block is the truth: an explorer following another fork may place it elsewhere.
      const t = txs.get(missing[i]);
      if (t && unvouched) {
        t.block = num(r.blockNumber);
        t.index = num(r.transactionIndex);
      }
      fetched.set(missing[i], r);
    });
  }
  return hashes.filter((h) => known?.has(h) || fetched.has(h)).map((h) => known?.get(h) ?? fetched.get(h)!);
}

export function createTradesOf(deps: TradesOfDeps): TradesOf {
  const { chain, rpc, tokens, pools } = deps;

  return async function tradesOf(request) {
    const { wallet, txs, hashes, signal } = request;
    if (!hashes.length) return { trades: [], unexplained: [] };
    const receipts = await receiptsOf(rpc, request);
    // Only the wallet's own transactions (or bundles, executions, settlements) can hold its trades: no lookups for others' swaps.
    const own = receipts.filter((r) => mayHoldWalletTrade(r, wallet));
    const poolKeys = await deps.poolKeys(own, signal);
    const delegated = own.some((r) => r.to?.toLowerCase() === wallet && r.from?.toLowerCase() !== wallet) ? await deps.isDelegated(wallet, signal) : false;
    const extra = await deps.extraAggregators(own, signal);
    // Every receipt read once before any trace; the wallet's own transactions whose route its logs
    // leave open get a call trace, with the silent hooks' (one batch), and only the traced ones are
    // read again with what their trace says.
    const first = receipts.map((r) => readReceipt(r, wallet, chain, poolKeys, { delegated, aggregators: extra }));
    const open = new Set(receipts.filter((_, i) => first[i].open !== null).map((r) => r.transactionHash.toLowerCase()));
    const traced = await deps.traces(own, poolKeys, { open, signal });
    const decoded = receipts.map((r, i) => {
      const t = traced.get(r.transactionHash.toLowerCase());
      if (!t) return first[i].trades;
      return decodeReceipt(r, wallet, chain, poolKeys, {
        delegated,
        aggregators: extra,
        tracedNative: t.native,
        internal: t.internal,
        transaction: t.transaction,
      });
    });
    // What each transaction did to the wallet's balances, from the same receipt (and trace, where
    // one was fetched): kept when no trade explains it (core/activity.ts).
    const unexplained = receipts.map((r, i) => {
      const t = traced.get(r.transactionHash.toLowerCase());
      return unexplainedActivity(
        r,
        wallet,
        chain,
        decoded[i].map((d) => d.token),
        t ? { transaction: t.transaction, internal: t.internal } : {},
      );
    });
    const withTrades = receipts.filter((_, i) => decoded[i].length > 0);
    const listed = receipts.filter((_, i) => unexplained[i] !== null);
    if (!withTrades.length && !listed.length) return { trades: [], unexplained: [] };

    await fillBlockTimes(rpc, txs, listed.length ? [...withTrades, ...listed] : withTrades, signal);

    // Pool factories and token metadata in the same round trip (usually answered by the prefetch).
    await deps.prefetch.inFlight();
    const tokenSet = [
      ...new Set([
        ...decoded.flat().map((d) => d.token),
        ...unexplained.flatMap((a) => (a?.changes ?? []).flatMap((c) => (c.tokenMint === null ? [] : [c.tokenMint]))),
      ]),
    ];
    const [, info] = await Promise.all([
      pools.resolve(
        withTrades.flatMap((r) => [...swapPools(r.logs)].filter(([, k]) => k === 'v2' || k === 'v3').map(([p]) => p)),
        signal,
      ),
      resolveTokens(chain.slug, tokenSet, tokens, rpc, signal),
    ]);

    const out: SourceTrade[] = [];
    receipts.forEach((r, i) => {
      const t = txs.get(r.transactionHash.toLowerCase())!;
      decoded[i].forEach((d, leg) => {
        const ti = info.get(d.token);
        out.push({
          signature: r.transactionHash.toLowerCase(),
          side: d.side,
          token: ti?.symbol ?? '',
          tokenMint: toChecksumAddress(d.token),
          amountSol: d.nativeRaw === null ? null : formatUnits(d.nativeRaw, 18),
          amount: ti && ti.decimals >= 0 ? formatUnits(d.amountRaw, ti.decimals) : null,
          // The decoder names aggregators, settlements and the venues it knows by their events; the dex table the rest.
          dex: d.dex ?? pools.dexOf(d.pool, d.poolKind),
          blockTime: isoFromUnixSeconds(t.ts ?? 0),
          position: evmPosition(t.block, t.index),
          leg,
        });
      });
    });
    const listedOut: SourceUnexplained[] = [];
    receipts.forEach((r, i) => {
      const a = unexplained[i];
      if (!a) return;
      const t = txs.get(r.transactionHash.toLowerCase())!;
      listedOut.push({
        signature: r.transactionHash.toLowerCase(),
        blockTime: isoFromUnixSeconds(t.ts ?? 0),
        position: evmPosition(t.block, t.index),
        changes: displayChanges(a.changes, { symbol: chain.nativeSymbol, decimals: 18 }, (c) => {
          const ti = info.get(c.tokenMint);
          return { tokenMint: toChecksumAddress(c.tokenMint), symbol: ti?.symbol, decimals: ti && ti.decimals >= 0 ? ti.decimals : null };
        }),
        programs: a.programs.map(toChecksumAddress),
      });
    });
    return { trades: out, unexplained: listedOut };
  };
}
