import { toFunctionSelector } from 'viem';
import type { TokenCache, TokenInfo } from '../../../core/chain-source.js';
import type { RpcTransport } from '../../../rpc/json-rpc.js';
import { decodeDecimals, decodeSymbol } from '../../shared/abi-values.js';
import { ethCallMany } from '../rpc-methods.js';

/** `symbol()` and `decimals()` selectors, from their signatures. */
const SYMBOL = toFunctionSelector('symbol()');
const DECIMALS = toFunctionSelector('decimals()');

/**
 * Symbol and decimals of tokens: from the cache first, the rest with one batch of
 * `symbol()`/`decimals()` calls (2 per token). A token whose `decimals()` reverts is returned with
 * decimals -1 (amount unknown) and not cached, so a later walk asks again.
 */
export async function resolveTokens(
  chain: string,
  tokens: readonly string[],
  cache: TokenCache,
  rpc: RpcTransport,
  signal?: AbortSignal,
): Promise<Map<string, TokenInfo>> {
  const out = await cache.get(chain, tokens);
  const missing = tokens.filter((t) => !out.has(t));
  if (missing.length === 0) return out;
  const answers = await ethCallMany(
    rpc,
    missing.flatMap((t) => [
      { to: t, data: SYMBOL },
      { to: t, data: DECIMALS },
    ]),
    signal,
  );
  const fresh = new Map<string, TokenInfo>();
  missing.forEach((t, i) => {
    const s = answers[2 * i];
    const d = answers[2 * i + 1];
    const symbol = s.ok ? decodeSymbol(s.result) : '';
    const decimals = d.ok ? decodeDecimals(d.result) : null;
    const info = { symbol, decimals: decimals ?? -1 };
    out.set(t, info);
    if (decimals !== null) fresh.set(t, info);
  });
  if (fresh.size) await cache.put(chain, fresh);
  return out;
}
