/**
 * Enrichment: decoded trades become SourceTrades with their tokens' symbols, looked up once per
 * mint (the resolver caches them where the source runs), with the decimals the transactions'
 * token balances gave as hints.
 */
import type { SourceTrade } from '../../../core/trade.js';
import type { DecodedTransaction } from '../fetch/fetch-transactions.js';
import type { SolanaTokenResolver } from '../tokens/token-resolver.js';

export async function withSymbols(tokenResolver: SolanaTokenResolver, decoded: readonly DecodedTransaction[], signal: AbortSignal): Promise<SourceTrade[]> {
  if (decoded.length === 0) return [];
  const mints = new Set<string>();
  for (const d of decoded) for (const t of d.trades) mints.add(t.tokenMint);
  const hints = new Map<string, number>();
  for (const d of decoded) for (const [m, v] of d.hints) if (mints.has(m)) hints.set(m, v);
  const infos = await tokenResolver.resolve(mints, { decimalsHint: hints, signal });

  const out: SourceTrade[] = [];
  for (const d of decoded) {
    for (const t of d.trades) {
      out.push({
        signature: t.signature,
        side: t.side,
        token: infos.get(t.tokenMint)?.symbol ?? '',
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
  return out;
}
