import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryTokenCache, type TokenCache } from '../../src/lib/core/chain-source.js';
import { createRpcTransport } from '../../src/lib/rpc/json-rpc.js';
import { createSolanaTokenResolver, metadataAddress, symbolFromMetaplex, symbolFromToken2022Mint } from '../../src/lib/chains/sol/tokens/token-resolver.js';
import { WSOL_MINT as WRAPPED_SOL_MINT } from '../../src/lib/chains/sol/programs.js';
import { startSolanaReplayServer, type ReplayServer } from '../support/sol-replay/server.js';
import { createPrng, randomAddress } from '../support/sol-replay/synth.js';
import { sleep } from '../support/test-server.js';
import { buildTokenAccounts, metaplexAccount, metaplexPda, mintAccount, type TestMint } from '../support/sol-replay/token-accounts.js';

const rng = createPrng(9);
const mk = (o: Partial<TestMint>): TestMint => ({
  mint: randomAddress(rng),
  decimals: 6,
  program: 'token',
  metadata: 'metaplex',
  symbol: 'TEST',
  name: 'Test token',
  ...o,
});

const METAPLEX = mk({ symbol: 'BONK', decimals: 5 });
const PADDED = mk({ symbol: ' WIF \t', decimals: 6 });
const T22 = mk({ program: 'token-2022', metadata: 'token-2022', symbol: 'PYUSD', decimals: 6 });
const T22_NO_EXT = mk({ program: 'token-2022', metadata: 'none', decimals: 9 });
const BARE = mk({ metadata: 'none', decimals: 2 });
const GONE = randomAddress(rng); // no mint account at all
const MANY = Array.from({ length: 120 }, (_, i) => mk({ symbol: `M${i}`, decimals: i % 10 }));

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup() {
  const accounts = await buildTokenAccounts([METAPLEX, PADDED, T22, T22_NO_EXT, BARE, ...MANY]);
  server = await startSolanaReplayServer({ accounts });
  const transport = createRpcTransport({ url: server.url, baseDelayMs: 5 });
  const cache = createMemoryTokenCache();
  return { server, transport, cache, resolver: createSolanaTokenResolver({ transport, cache }) };
}

describe('account decoding', () => {
  it('reads the symbol of a Metaplex metadata account, NUL padding trimmed', () => {
    expect(symbolFromMetaplex(metaplexAccount(METAPLEX).data)).toBe('BONK');
    expect(symbolFromMetaplex(metaplexAccount(PADDED).data)).toBe('WIF');
    expect(symbolFromMetaplex(new Uint8Array(73))).toBe('');
    expect(symbolFromMetaplex(new Uint8Array(10))).toBeNull();
  });

  it('reads the Token-2022 TokenMetadata extension, past other extensions', () => {
    expect(symbolFromToken2022Mint(mintAccount(T22).data)).toBe('PYUSD');
    expect(symbolFromToken2022Mint(mintAccount(T22_NO_EXT).data)).toBeNull();
    expect(symbolFromToken2022Mint(mintAccount(METAPLEX).data)).toBeNull(); // plain 82-byte mint
  });

  it('derives the Metaplex PDA as the program does', async () => {
    // Same seeds through @solana/kit in the test support; and a known mainnet pair:
    // USDC's metadata account is 5x38Kp4hvdomTCnCrAny4UtMUt5rQBdB6px2K1Ui45Wq.
    expect(metadataAddress(METAPLEX.mint)).toBe(await metaplexPda(METAPLEX.mint));
    expect(metadataAddress('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBe('5x38Kp4hvdomTCnCrAny4UtMUt5rQBdB6px2K1Ui45Wq');
  });
});

describe('resolver', () => {
  it('resolves symbols and decimals from Metaplex, Token-2022 and nothing', async () => {
    const { resolver } = await setup();
    const r = await resolver.resolve([METAPLEX.mint, PADDED.mint, T22.mint, T22_NO_EXT.mint, BARE.mint, GONE], {
      decimalsHint: new Map([[GONE, 8]]),
    });
    expect(Object.fromEntries(r)).toEqual({
      [METAPLEX.mint]: { symbol: 'BONK', decimals: 5 },
      [PADDED.mint]: { symbol: 'WIF', decimals: 6 },
      [T22.mint]: { symbol: 'PYUSD', decimals: 6 },
      [T22_NO_EXT.mint]: { symbol: '', decimals: 9 },
      [BARE.mint]: { symbol: '', decimals: 2 },
      [GONE]: { symbol: '', decimals: 8 },
    });
  });

  it('answers wrapped SOL without a lookup', async () => {
    const { resolver, server } = await setup();
    expect((await resolver.resolve([WRAPPED_SOL_MINT])).get(WRAPPED_SOL_MINT)).toEqual({ symbol: 'SOL', decimals: 9 });
    expect(server.stats.requests).toBe(0);
  });

  it('looks a mint up once: 100 accounts per call, then the cache', async () => {
    const { resolver, server, cache, transport } = await setup();
    const mints = MANY.map((m) => m.mint);
    const first = await resolver.resolve(mints);
    expect([...first.values()].map((v) => v.symbol)).toEqual(MANY.map((m) => m.symbol));
    // 120 mints, 2 accounts each, 100 accounts per call: 3 calls in one batch request.
    expect(server.stats.byMethod.getMultipleAccounts).toBe(3);
    expect(server.stats.httpRequests).toBe(1);
    await resolver.resolve(mints);
    expect(server.stats.byMethod.getMultipleAccounts).toBe(3);
    // Another resolver (another worker) on the same cache asks nothing either.
    const other = createSolanaTokenResolver({ transport, cache });
    expect((await other.resolve([MANY[5].mint])).get(MANY[5].mint)).toEqual({ symbol: 'M5', decimals: 5 });
    expect(server.stats.byMethod.getMultipleAccounts).toBe(3);
    expect(resolver.stats.mintsLookedUp).toBe(120);
  });

  it('shares one lookup between concurrent requests for the same new mint, and caches a missing symbol', async () => {
    const { resolver, server } = await setup();
    server.config.latencyMs = 50;
    const [a, b] = await Promise.all([resolver.resolve([BARE.mint, METAPLEX.mint]), resolver.resolve([METAPLEX.mint, BARE.mint])]);
    expect(a.get(METAPLEX.mint)).toEqual(b.get(METAPLEX.mint));
    expect(server.stats.byMethod.getMultipleAccounts).toBe(1);
    await resolver.resolve([BARE.mint]);
    expect(server.stats.byMethod.getMultipleAccounts).toBe(1);
  });

  it('joins a lookup under way without reading the cache for it', async () => {
    const { server, transport, cache } = await setup();
    server.config.latencyMs = 50;
    const asked: string[][] = [];
    const counting: TokenCache = { get: (c, m) => (asked.push([...m]), cache.get(c, m)), put: (c, e) => cache.put(c, e) };
    const resolver = createSolanaTokenResolver({ transport, cache: counting });
    resolver.prefetch([METAPLEX.mint, BARE.mint]);
    // Until the prefetch has read the cache and its request reached the server.
    while (server.stats.byMethod.getMultipleAccounts !== 1) await sleep(1);
    const r = await resolver.resolve([METAPLEX.mint, T22.mint]);
    expect(r.get(METAPLEX.mint)).toEqual({ symbol: 'BONK', decimals: 5 });
    expect(r.get(T22.mint)).toEqual({ symbol: 'PYUSD', decimals: 6 });
    // The prefetch read both of its mints; the resolve read only the one nobody was looking up.
    expect(asked).toEqual([[METAPLEX.mint, BARE.mint], [T22.mint]]);
    expect(server.stats.byMethod.getMultipleAccounts).toBe(2);
  });

  it('answers before the cache has stored the symbols, and a failed cache write costs only a later lookup', async () => {
    const { server, transport, cache } = await setup();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slow: TokenCache = { get: (c, m) => cache.get(c, m), put: (c, e) => held.then(() => cache.put(c, e)) };
    const r = await createSolanaTokenResolver({ transport, cache: slow }).resolve([METAPLEX.mint]);
    expect(r.get(METAPLEX.mint)).toEqual({ symbol: 'BONK', decimals: 5 });
    expect((await cache.get('sol', [METAPLEX.mint])).size).toBe(0); // not stored yet
    release();
    await sleep(0);
    expect((await cache.get('sol', [METAPLEX.mint])).get(METAPLEX.mint)).toEqual({ symbol: 'BONK', decimals: 5 });

    const failing: TokenCache = { get: (c, m) => cache.get(c, m), put: () => Promise.reject(new Error('disk full')) };
    const resolver = createSolanaTokenResolver({ transport, cache: failing });
    expect((await resolver.resolve([PADDED.mint])).get(PADDED.mint)).toEqual({ symbol: 'WIF', decimals: 6 });
    expect((await resolver.resolve([PADDED.mint])).get(PADDED.mint)).toEqual({ symbol: 'WIF', decimals: 6 });
    expect(server.stats.byMethod.getMultipleAccounts).toBe(3); // BONK once, WIF twice: never cached
  });
});
