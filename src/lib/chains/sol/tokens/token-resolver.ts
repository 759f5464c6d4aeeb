/**
 * Token symbols and decimals for Solana mints, looked up once per mint and kept in the TokenCache.
 *
 * One getMultipleAccounts (base64) reads, for up to 50 mints, the mint account itself (decimals,
 * and the Token-2022 metadata extension when the mint carries one) and the Metaplex metadata PDA
 * ["metadata", metaqbxx..., mint]: 2 accounts per mint, 100 accounts per call (the RPC's cap).
 * The borsh strings are decoded here; name and symbol are padded with NULs on chain (Metaplex
 * pads the symbol to 10 bytes), so they are trimmed of NUL and whitespace. No symbol is ''.
 */
import { address, getAddressEncoder } from '@solana/kit';
import type { TokenCache, TokenInfo } from '../../../core/chain-source.js';
import { HistoryError, redactUrl } from '../../../core/errors.js';
import { base58Decode } from '../../shared/base58.js';
import { findProgramAddress } from '../pda.js';
import { METADATA_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, WSOL_MINT } from '../programs.js';
import { getMultipleAccounts, type AccountInfo, type MultipleAccountsResult } from '../rpc-methods.js';
import type { RpcTransport } from '../../../rpc/json-rpc.js';
import { nextTurn } from '../../../core/wait.js';

/**
 * Wrapped SOL is answered without a lookup: its Metaplex metadata on mainnet says symbol "SOL"
 * (name "Wrapped SOL"), and the trade side already says native currency, so "SOL" it is.
 */
const BUILT_IN: ReadonlyMap<string, TokenInfo> = new Map([[WSOL_MINT, { symbol: 'SOL', decimals: 9 }]]);

/** Metadata addresses derived per turn of the event loop (see lookUp). */
const PDAS_PER_TURN = 16;
/** Mint accounts per getMultipleAccounts: 2 accounts each, 100 accounts per call. */
const MINTS_PER_CALL = 50;
/** SPL mint layout: COption<Pubkey> authority (36) + supply u64 (8), then decimals. */
const MINT_DECIMALS_OFFSET = 44;
const MINT_BASE_SIZE = 82;
/** Token-2022: base account padded to 165 bytes, then the account-type byte, then TLV entries. */
const T22_ACCOUNT_TYPE_OFFSET = 165;
const T22_TLV_OFFSET = 166;
const T22_ACCOUNT_TYPE_MINT = 1;
const T22_EXT_TOKEN_METADATA = 19;
/** Metaplex Metadata: key (1) + update authority (32) + mint (32), then name, symbol. */
const METAPLEX_NAME_OFFSET = 65;

const utf8 = new TextDecoder('utf-8', { fatal: false });

export function trimSymbol(s: string): string {
  return s.replace(/^[\s\0]+|[\s\0]+$/g, '');
}

/** A borsh string (u32 LE length + UTF-8 bytes) at `offset`, or null when it does not fit. */
function readBorshString(data: Uint8Array, offset: number): { value: string; end: number } | null {
  if (offset + 4 > data.length) return null;
  const len = data[offset] | (data[offset + 1] << 8) | (data[offset + 2] << 16) | (data[offset + 3] << 24);
  const start = offset + 4;
  if (len < 0 || start + len > data.length) return null;
  return { value: utf8.decode(data.subarray(start, start + len)), end: start + len };
}

/** Symbol of a Metaplex metadata account's data, or null when it is not one. */
export function symbolFromMetaplex(data: Uint8Array): string | null {
  const name = readBorshString(data, METAPLEX_NAME_OFFSET);
  if (!name) return null;
  const symbol = readBorshString(data, name.end);
  return symbol ? trimSymbol(symbol.value) : null;
}

/** Symbol from a Token-2022 mint's TokenMetadata extension, or null when it has none. */
export function symbolFromToken2022Mint(data: Uint8Array): string | null {
  if (data.length <= T22_TLV_OFFSET || data[T22_ACCOUNT_TYPE_OFFSET] !== T22_ACCOUNT_TYPE_MINT) return null;
  let p = T22_TLV_OFFSET;
  while (p + 4 <= data.length) {
    const type = data[p] | (data[p + 1] << 8);
    const len = data[p + 2] | (data[p + 3] << 8);
    const value = p + 4;
    if (type === 0 && len === 0) break; // uninitialised tail
    if (type === T22_EXT_TOKEN_METADATA) {
      const v = data.subarray(value, Math.min(data.length, value + len));
      // update authority (32) + mint (32), then name and symbol.
      const name = readBorshString(v, 64);
      const symbol = name && readBorshString(v, name.end);
      return symbol ? trimSymbol(symbol.value) : null;
    }
    p = value + len;
  }
  return null;
}

export function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function dataOf(acc: AccountInfo | null | undefined): Uint8Array | null {
  if (!acc) return null;
  const d = Array.isArray(acc.data) ? acc.data[0] : acc.data;
  return typeof d === 'string' ? fromBase64(d) : null;
}

/** TokenInfo from a mint account and its Metaplex metadata account (either may be missing). */
export function tokenInfoFromAccounts(mintAcc: AccountInfo | null, metaAcc: AccountInfo | null, decimalsHint?: number): TokenInfo {
  let decimals = decimalsHint ?? 0;
  let symbol: string | null = null;
  const mintData = dataOf(mintAcc);
  if (mintData && mintData.length >= MINT_BASE_SIZE && (mintAcc!.owner === TOKEN_PROGRAM || mintAcc!.owner === TOKEN_2022_PROGRAM)) {
    decimals = mintData[MINT_DECIMALS_OFFSET];
    if (mintAcc!.owner === TOKEN_2022_PROGRAM) symbol = symbolFromToken2022Mint(mintData);
  }
  if (symbol === null && metaAcc && metaAcc.owner === METADATA_PROGRAM) {
    const metaData = dataOf(metaAcc);
    if (metaData) symbol = symbolFromMetaplex(metaData);
  }
  return { symbol: symbol ?? '', decimals };
}

const METADATA_SEED = new TextEncoder().encode('metadata');
const METADATA_PROGRAM_BYTES = getAddressEncoder().encode(address(METADATA_PROGRAM)) as Uint8Array;

/**
 * The Metaplex metadata PDA of a mint, ["metadata", program, mint]: 70-180 µs (pda.ts), once
 * per mint looked up, as the symbol is cached after. The mint is decoded with the hand-written
 * base58 (@solana/kit's address codec took 47-80 µs per mint here, as long as the rest).
 */
export function metadataAddress(mint: string): string {
  const mintBytes = base58Decode(mint);
  if (!mintBytes || mintBytes.length !== 32) throw new HistoryError('invalid_address', `not a mint address: ${mint}`);
  return findProgramAddress([METADATA_SEED, METADATA_PROGRAM_BYTES, mintBytes], METADATA_PROGRAM).address;
}

export interface SolanaTokenResolverStats {
  /** Mints looked up on chain (each once). */
  mintsLookedUp: number;
  /** getMultipleAccounts calls made. */
  calls: number;
}

export interface SolanaTokenResolver {
  /**
   * TokenInfo for every mint, from the cache or looked up (and then cached). `decimalsHint`
   * (from the transaction's token balances) is used only when the mint account is gone.
   */
  resolve(mints: Iterable<string>, options?: { decimalsHint?: ReadonlyMap<string, number>; signal?: AbortSignal }): Promise<Map<string, TokenInfo>>;
  /**
   * Starts looking up mints that are likely to be asked for soon, without waiting: a `resolve`
   * that asks for one of them meanwhile shares its lookup. A failed prefetch costs nothing but
   * the request: `resolve` then looks the mint up itself.
   */
  prefetch(mints: Iterable<string>, options?: { signal?: AbortSignal }): void;
  readonly stats: SolanaTokenResolverStats;
}

export interface SolanaTokenResolverOptions {
  transport: RpcTransport;
  cache: TokenCache;
  chain?: string;
  commitment?: 'confirmed' | 'finalized';
}

export function createSolanaTokenResolver(options: SolanaTokenResolverOptions): SolanaTokenResolver {
  const { transport, cache } = options;
  const chain = options.chain ?? 'sol';
  const commitment = options.commitment ?? 'confirmed';
  const stats: SolanaTokenResolverStats = { mintsLookedUp: 0, calls: 0 };
  /** Lookups under way, so two batches asking for one new mint at once share one lookup. */
  const inFlight = new Map<string, Promise<TokenInfo>>();

  /**
   * Looks `mints` up on chain. The answer is handed back before it is written to the cache: the
   * batch waiting for these symbols (a cold wallet's first NDJSON line) need not also wait for the
   * write (3-5 ms on PGlite). `stored` settles when the write has (a failed write costs a lookup
   * next time, nothing else).
   */
  async function lookUp(
    mints: string[],
    hints: ReadonlyMap<string, number> | undefined,
    signal?: AbortSignal,
  ): Promise<{ found: Map<string, TokenInfo>; stored: Promise<void> }> {
    // 16 addresses (1-3 ms) per turn of the event loop: a cold wallet's first lookup derives up
    // to 100 while its first transaction batch is being sent and read, which must not wait.
    const metas: string[] = [];
    for (let i = 0; i < mints.length; i += PDAS_PER_TURN) {
      if (i > 0) await nextTurn(signal);
      for (const m of mints.slice(i, i + PDAS_PER_TURN)) metas.push(metadataAddress(m));
    }
    const calls = [];
    for (let i = 0; i < mints.length; i += MINTS_PER_CALL) {
      const keys: string[] = [];
      for (let j = i; j < Math.min(mints.length, i + MINTS_PER_CALL); j++) keys.push(mints[j], metas[j]);
      calls.push(getMultipleAccounts(keys, commitment));
    }
    stats.calls += calls.length;
    stats.mintsLookedUp += mints.length;
    const results = await transport.callMany<MultipleAccountsResult>(calls, { signal, priority: 'high' });
    const found = new Map<string, TokenInfo>();
    results.forEach((r, c) => {
      const start = c * MINTS_PER_CALL;
      const end = Math.min(mints.length, start + MINTS_PER_CALL);
      const value = r?.value;
      if (!Array.isArray(value) || value.length !== 2 * (end - start)) {
        throw new HistoryError('rpc_malformed_response', `getMultipleAccounts: expected ${2 * (end - start)} accounts`, {
          context: { url: redactUrl(transport.url) },
        });
      }
      for (let j = start; j < end; j++) {
        const k = j - start;
        found.set(mints[j], tokenInfoFromAccounts(value[2 * k], value[2 * k + 1], hints?.get(mints[j])));
      }
    });
    return { found, stored: cache.put(chain, found).catch(() => {}) };
  }

  /**
   * Starts a lookup of `missing`, shared through `inFlight` until the cache has its answer (or it
   * failed): in between, a resolve would find the mint in neither and look it up again.
   */
  function start(missing: string[], hints: ReadonlyMap<string, number> | undefined, signal?: AbortSignal): void {
    const all = lookUp(missing, hints, signal);
    const settled = all.then(
      (r) => r.stored,
      () => {},
    );
    for (const m of missing) {
      const p = all.then((r) => r.found.get(m)!);
      p.catch(() => {}); // a failure is the resolve's to handle (it looks the mint up again)
      inFlight.set(m, p);
      void settled.then(() => {
        if (inFlight.get(m) === p) inFlight.delete(m);
      });
    }
  }

  interface Split {
    /** Lookups under way that these mints share (taken when seen: the entry goes when it settles). */
    shared: Map<string, Promise<TokenInfo>>;
    /** Mints neither built in, cached, nor being looked up when split() began. */
    missing: string[];
  }

  /**
   * Splits `mints` into the ones known (put in `out`), the ones being looked up already (no
   * cache read for those: their lookup is shared) and the ones still to look up.
   */
  async function split(mints: Iterable<string>, out: Map<string, TokenInfo>): Promise<Split> {
    const shared = new Map<string, Promise<TokenInfo>>();
    const rest: string[] = [];
    for (const m of new Set(mints)) {
      const b = BUILT_IN.get(m);
      const p = inFlight.get(m);
      if (b) out.set(m, b);
      else if (p) shared.set(m, p);
      else rest.push(m);
    }
    if (rest.length === 0) return { shared, missing: rest };
    const cached = await cache.get(chain, rest);
    const missing: string[] = [];
    for (const m of rest) {
      const c = cached.get(m);
      if (c) out.set(m, c);
      else missing.push(m);
    }
    return { shared, missing };
  }

  return {
    stats,
    async resolve(mintsIn, opts = {}) {
      const out = new Map<string, TokenInfo>();
      const { shared, missing: unseen } = await split(mintsIn, out);
      // Another call may have started some of them while the cache was read.
      const missing: string[] = [];
      for (const m of unseen) {
        const p = inFlight.get(m);
        if (p) shared.set(m, p);
        else missing.push(m);
      }
      if (missing.length > 0) start(missing, opts.decimalsHint, opts.signal);
      const failed: string[] = [];
      await Promise.all([
        // A lookup started by someone else (a prefetch, another batch) that fails is done again
        // here, with this call's signal and hints.
        ...[...shared].map(([m, p]) =>
          p.then(
            (v) => void out.set(m, v),
            () => void failed.push(m),
          ),
        ),
        ...missing.map((m) => inFlight.get(m)!.then((v) => void out.set(m, v))),
      ]);
      if (failed.length > 0) for (const [m, v] of (await lookUp(failed, opts.decimalsHint, opts.signal)).found) out.set(m, v);
      return out;
    },
    prefetch(mintsIn, opts = {}) {
      split(mintsIn, new Map())
        .then(({ missing }) => {
          const fresh = missing.filter((m) => !inFlight.has(m));
          if (fresh.length > 0) start(fresh, undefined, opts.signal);
        })
        .catch(() => {});
    },
  };
}
