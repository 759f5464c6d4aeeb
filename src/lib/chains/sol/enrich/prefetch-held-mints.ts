/**
 * Speculative enrichment. The first NDJSON line of a cold wallet waits for three requests in a
 * row: the signature page, the transactions, then the symbols of the mints they name (measured:
 * 4.1-4.9 round trips). Mints the wallet still holds are likely among the newest trades' (a buy
 * leaves its token account open), and their list needs no signature: so while the first page is
 * fetched, the wallet's token accounts are listed (mint bytes only) and those mints' symbols
 * looked up, beside the first getTransaction batch. When they cover the first batch, its line is
 * out after two round trips. Only up to `limit` mints (non-empty accounts first): a wallet full
 * of airdropped dust would cost many lookups for little.
 */
import type { RpcTransport } from '../../../rpc/json-rpc.js';
import { base58Encode } from '../../shared/base58.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../programs.js';
import { getTokenAccountsByOwner, type Commitment, type TokenAccountsResult } from '../rpc-methods.js';
import { fromBase64, type SolanaTokenResolver } from '../tokens/token-resolver.js';

export interface PrefetchHeldMintsContext {
  transport: RpcTransport;
  tokenResolver: SolanaTokenResolver;
  commitment: Commitment;
  /** Mints looked up at most. */
  limit: number;
}

/** Mint (bytes 0-32) and amount (bytes 64-72) of a token account: all a listing asks for. */
const ACCOUNT_BYTES = 72;

export async function prefetchHeldMints(ctx: PrefetchHeldMintsContext, wallet: string, signal: AbortSignal): Promise<void> {
  const answers = await ctx.transport.callMany<TokenAccountsResult>(
    [
      getTokenAccountsByOwner(wallet, TOKEN_PROGRAM, ctx.commitment, ACCOUNT_BYTES),
      getTokenAccountsByOwner(wallet, TOKEN_2022_PROGRAM, ctx.commitment, ACCOUNT_BYTES),
    ],
    { signal, priority: 'high' },
  );
  const held: string[] = [];
  const empty: string[] = [];
  for (const a of answers) {
    for (const item of a?.value ?? []) {
      const b64 = item?.account?.data?.[0];
      if (typeof b64 !== 'string') continue;
      const bytes = fromBase64(b64);
      if (bytes.length < ACCOUNT_BYTES) continue;
      let nonZero = false;
      for (let i = 64; i < ACCOUNT_BYTES; i++) if (bytes[i] !== 0) nonZero = true;
      (nonZero ? held : empty).push(base58Encode(bytes, 0, 32));
    }
  }
  const mints = [...new Set([...held, ...empty])].slice(0, ctx.limit);
  if (mints.length > 0) ctx.tokenResolver.prefetch(mints, { signal });
}
