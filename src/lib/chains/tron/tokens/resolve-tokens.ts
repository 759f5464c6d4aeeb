import type { TokenCache, TokenInfo } from '../../../core/chain-source.js';
import type { HttpJsonClient } from '../../../rpc/http-json.js';
import { decodeDecimals, decodeSymbol } from '../../shared/abi-values.js';
import { getTrc20Transfers, triggerConstantContract, type Trc20Transfer } from '../rpc-methods.js';

/** `symbol()` and `decimals()` selectors (first 4 bytes of keccak-256 of the signatures). */
const SYMBOL = '95d89b41';
const DECIMALS = '313ce567';

const clean = (s: string) => s.replaceAll('\u0000', '').trim();

/** `token_info` of a TRC-20 list record as TokenInfo, or null when it lacks plausible decimals. */
function fromTokenInfo(ti: Trc20Transfer['token_info']): TokenInfo | null {
  if (!ti || typeof ti.decimals !== 'number' || !Number.isInteger(ti.decimals) || ti.decimals < 0 || ti.decimals > 255) return null;
  return { symbol: clean(String(ti.symbol ?? '')), decimals: ti.decimals };
}

/**
 * The tokens of the wallet's 200 newest TRC-20 transfers, from one request: most of what a
 * wallet trades is there, so a walk usually learns all its tokens at once.
 */
export async function recentWalletTokens(client: HttpJsonClient, wallet: string, signal?: AbortSignal): Promise<RecentTokens> {
  const page = await getTrc20Transfers(client, { wallet, limit: 200, signal });
  const tokens = new Map<string, TokenInfo>();
  for (const r of page.data) {
    const info = fromTokenInfo(r.token_info);
    if (info && r.token_info?.address) tokens.set(r.token_info.address, info);
  }
  return { tokens, whole: page.fingerprint === undefined };
}

export interface RecentTokens {
  tokens: Map<string, TokenInfo>;
  /** The page was the wallet's whole TRC-20 list: a token not in it has no transfer to find. */
  whole: boolean;
}

/**
 * Symbols and decimals of Tron tokens (base58 `T…` keys): the cache first; then the wallet's
 * recent TRC-20 transfers (`recent`, one request a walk); then, per token still unknown, the
 * wallet's newest transfer of it, whose `token_info` carries both (one request); else `symbol()`
 * and `decimals()` through `triggerconstantcontract` (two: a token the wallet got without a
 * Transfer log). Decimals unknown come back as -1 and are not cached.
 */
export async function resolveTronTokens(p: {
  chain: string;
  wallet: string;
  tokens: readonly string[];
  cache: TokenCache;
  client: HttpJsonClient;
  to41: (t: string) => string;
  recent?: () => Promise<RecentTokens>;
  signal?: AbortSignal;
}): Promise<Map<string, TokenInfo>> {
  const out = await p.cache.get(p.chain, p.tokens);
  let missing = p.tokens.filter((t) => !out.has(t));
  if (missing.length === 0) return out;
  const fresh = new Map<string, TokenInfo>();
  let whole = false;
  if (p.recent) {
    const recent = await p.recent();
    whole = recent.whole;
    for (const t of missing) {
      const info = recent.tokens.get(t);
      if (info) {
        out.set(t, info);
        fresh.set(t, info);
      }
    }
    missing = missing.filter((t) => !out.has(t));
  }
  await Promise.all(
    missing.map(async (token) => {
      let info = whole ? null : fromTokenInfo((await getTrc20Transfers(p.client, { wallet: p.wallet, token, limit: 1, signal: p.signal })).data[0]?.token_info);
      if (!info) {
        const [s, d] = await Promise.all([
          triggerConstantContract(p.client, { contract41: p.to41(token), data: SYMBOL, signal: p.signal }),
          triggerConstantContract(p.client, { contract41: p.to41(token), data: DECIMALS, signal: p.signal }),
        ]);
        const decimals = decodeDecimals(d);
        info = { symbol: decodeSymbol(s), decimals: decimals ?? -1 };
      }
      out.set(token, info);
      if (info.decimals >= 0) fresh.set(token, info);
    }),
  );
  if (fresh.size) await p.cache.put(p.chain, fresh);
  return out;
}
