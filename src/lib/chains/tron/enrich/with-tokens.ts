/**
 * Enrichment: decoded calls become SourceTrades, with their tokens' symbols and decimals
 * (resolve-tokens.ts: the cache, the wallet's recent TRC-20 transfers, then per token), newest
 * first by position, then leg.
 */
import type { TokenCache } from '../../../core/chain-source.js';
import { displayChanges, newestListed, type SourceUnexplained } from '../../../core/activity.js';
import { formatUnits } from '../../../core/decimal.js';
import { isoFromUnixSeconds, newestFirst, type SourceTrade } from '../../../core/trade.js';
import type { HttpJsonClient } from '../../../rpc/http-json.js';
import { hexToTron, tronToHex } from '../address.js';
import type { DecodedCall } from '../fetch/fetch-swap-calls.js';
import { tronTradePosition } from '../position.js';
import { resolveTronTokens, type RecentTokens } from '../tokens/resolve-tokens.js';

export interface WithTokensContext {
  /** The chain's slug: the cache's key. */
  chain: string;
  client: HttpJsonClient;
  tokens: TokenCache;
}

export interface WithTokensParameters {
  /** Base58. */
  wallet: string;
  /** The wallet's recent tokens, asked once a walk and only when a token is not cached. */
  recent: () => Promise<RecentTokens>;
  signal?: AbortSignal;
}

export interface WithTokensResult {
  trades: SourceTrade[];
  /** The calls no trade explains, with their balance changes in display form, newest first. */
  unexplained: SourceUnexplained[];
}

export async function withTokens(ctx: WithTokensContext, calls: readonly DecodedCall[], p: WithTokensParameters): Promise<WithTokensResult> {
  if (!calls.length) return { trades: [], unexplained: [] };
  // The unexplained calls' tokens ride in the same look-up as the trades'.
  const tokenSet = [
    ...new Set(
      calls.flatMap((c) => [
        ...c.trades.map((d) => hexToTron(d.token)),
        ...(c.unexplained?.changes ?? []).flatMap((ch) => (ch.tokenMint === null ? [] : [hexToTron(ch.tokenMint)])),
      ]),
    ),
  ];
  const info = await resolveTronTokens({
    chain: ctx.chain,
    wallet: p.wallet,
    tokens: tokenSet,
    cache: ctx.tokens,
    client: ctx.client,
    to41: (t) => '41' + tronToHex(t)!.slice(2),
    recent: p.recent,
    signal: p.signal,
  });
  const out: SourceTrade[] = [];
  for (const { record: r, info: txInfo, trades } of calls) {
    const block = txInfo.blockNumber ?? r.blockNumber;
    const ms = txInfo.blockTimeStamp ?? r.block_timestamp;
    trades.forEach((d, leg) => {
      const token = hexToTron(d.token);
      const ti = info.get(token);
      out.push({
        signature: r.txID,
        side: d.side,
        token: ti?.symbol ?? '',
        tokenMint: token,
        amountSol: d.nativeRaw === null ? null : formatUnits(d.nativeRaw, 6),
        amount: ti && ti.decimals >= 0 ? formatUnits(d.amountRaw, ti.decimals) : null,
        dex: d.poolKind,
        blockTime: isoFromUnixSeconds(Math.floor(ms / 1000)),
        position: tronTradePosition(block, r.txID),
        leg,
      });
    });
  }
  out.sort(newestFirst);
  const unexplained: SourceUnexplained[] = [];
  for (const { record: r, info: txInfo, unexplained: activity } of calls) {
    if (!activity) continue;
    const block = txInfo.blockNumber ?? r.blockNumber;
    const ms = txInfo.blockTimeStamp ?? r.block_timestamp;
    unexplained.push({
      signature: r.txID,
      blockTime: isoFromUnixSeconds(Math.floor(ms / 1000)),
      position: tronTradePosition(block, r.txID),
      changes: displayChanges(activity.changes, { symbol: 'TRX', decimals: 6 }, (ch) => {
        const token = hexToTron(ch.tokenMint);
        const ti = info.get(token);
        return { tokenMint: token, symbol: ti?.symbol, decimals: ti && ti.decimals >= 0 ? ti.decimals : null };
      }),
      programs: activity.programs,
    });
  }
  unexplained.sort(newestListed);
  return { trades: out, unexplained };
}
