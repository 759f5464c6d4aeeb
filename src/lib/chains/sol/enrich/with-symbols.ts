/**
 * Enrichment: decoded trades become SourceTrades with their tokens' symbols, looked up once per
 * mint (the resolver caches them where the source runs), with the decimals the transactions'
 * token balances gave as hints.
 */
import type { TokenInfo } from '../../../core/chain-source.js';
import { displayChanges, type SourceUnexplained } from '../../../core/activity.js';
import type { SourceTrade } from '../../../core/trade.js';
import type { DecodedTransaction } from '../fetch/fetch-transactions.js';
import type { SolanaTokenResolver } from '../tokens/token-resolver.js';

export interface WithSymbolsContext {
  tokenResolver: SolanaTokenResolver;
  /**
   * The walk's own memory of the symbols it resolved. A wallet trades the same few tokens batch
   * after batch, and each resolve reads the cache first: on the server that is one store query
   * per batch on the thread that also commits (96 for a 10,000-trade walk, 2-10 ms each on
   * PGlite), in the browser an IndexedDB read. Kept for one walk only, so it never grows past
   * one wallet's tokens.
   */
  known: Map<string, TokenInfo>;
}

/** What a chunk of decoded transactions becomes: its trades, and the transactions no trade explains. */
export interface WithSymbolsResult {
  trades: SourceTrade[];
  unexplained: SourceUnexplained[];
}

const NOTHING: WithSymbolsResult = { trades: [], unexplained: [] };

export async function withSymbols(ctx: WithSymbolsContext, decoded: readonly DecodedTransaction[], signal: AbortSignal): Promise<WithSymbolsResult> {
  if (decoded.length === 0) return NOTHING;
  const mints = new Set<string>();
  for (const d of decoded) {
    for (const t of d.trades) if (!ctx.known.has(t.tokenMint)) mints.add(t.tokenMint);
    // An unexplained transaction's tokens are looked up with the trades' (one batch).
    for (const c of d.unexplained?.activity.changes ?? []) if (c.tokenMint !== null && !ctx.known.has(c.tokenMint)) mints.add(c.tokenMint);
  }
  if (mints.size > 0) {
    const hints = new Map<string, number>();
    for (const d of decoded) for (const [m, v] of d.hints) if (mints.has(m)) hints.set(m, v);
    for (const [m, info] of await ctx.tokenResolver.resolve(mints, { decimalsHint: hints, signal })) ctx.known.set(m, info);
  }

  const out: SourceTrade[] = [];
  for (const d of decoded) {
    for (const t of d.trades) {
      out.push({
        signature: t.signature,
        side: t.side,
        token: ctx.known.get(t.tokenMint)?.symbol ?? '',
        tokenMint: t.tokenMint,
        amountSol: t.amountSol,
        amount: t.amount,
        dex: t.dex,
        blockTime: t.blockTime,
        position: d.position,
        leg: t.leg,
      });
    }
  }
  const unexplained: SourceUnexplained[] = [];
  for (const d of decoded) {
    if (!d.unexplained) continue;
    const { signature, blockTime, activity } = d.unexplained;
    unexplained.push({
      signature,
      blockTime,
      position: d.position,
      changes: displayChanges(activity.changes, { symbol: 'SOL', decimals: 9 }, (c) => {
        const info = ctx.known.get(c.tokenMint);
        return { tokenMint: c.tokenMint, symbol: info?.symbol, decimals: c.decimals ?? (info && info.decimals >= 0 ? info.decimals : null) };
      }),
      programs: activity.programs,
    });
  }
  return { trades: out, unexplained };
}
