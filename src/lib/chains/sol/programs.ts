/**
 * Program IDs the decoder knows, and what each one is for trade attribution.
 *
 * - venues: programs that hold the pool, curve or order book; the token transfers they make are
 *   the trade's own figures. Slugs follow decisions.md.
 * - routers: aggregators whose slug replaces the venue's (decisions.md: a route through an
 *   aggregator takes the aggregator's slug).
 * - transparent: everything that is not a venue in its own right. Transfers made under them are
 *   charged to the nearest venue above (e.g. the Meteora vault program moves DAMM v1's tokens),
 *   or to nobody (platform fees paid by a router, bot fees paid by a trading bot, tips).
 *
 * Any other program that moves two assets in opposite directions is a venue with slug `unknown`.
 */
export const WSOL_MINT = 'So11111111111111111111111111111111111111112';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const PUMPFUN_PROGRAM = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';
export const MOONIT_PROGRAM = 'MoonCVVNZFSYkqNXP6bxHLPL6QQJiMagDL3qcqUQTrG';
export const METADATA_PROGRAM = 'metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s';
export const JUPITER_V2_PROGRAM = 'JUP2jxvXaqu7NQY1GmNF4m1vodw12LVXYxbFL2uJvfo';
export const JUPITER_V3_PROGRAM = 'JUP3c2Uh3WA4Ng34tw6kPd2G4C5BB21Xo36Je1s32Ph';

export const VENUE_SLUGS: ReadonlyMap<string, string> = new Map([
  ['675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8', 'raydium-amm'],
  ['CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C', 'raydium-cpmm'],
  ['CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK', 'raydium-clmm'],
  ['LanMV9sAd7wArD4vJFi2qDdfnVhFxYSUg6eADduJ3uj', 'raydium-launchpad'],
  ['whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc', 'orca-whirlpool'],
  ['LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo', 'meteora-dlmm'],
  ['Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB', 'meteora-damm'],
  ['cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG', 'meteora-damm'],
  ['dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN', 'meteora-dbc'],
  [PUMPFUN_PROGRAM, 'pumpfun'],
  ['pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA', 'pumpswap'],
  [MOONIT_PROGRAM, 'moonit'],
  // Jupiter Z, Jupiter's RFQ order engine (jup-ag/rfq-webhook-toolkit README, "Mainnet
  // deployment"): its `fill` moves the taker's input to the maker and the maker's output to the
  // taker (programs/order-engine/src/instructions/fill.rs), so its own transfers are the trade, and
  // the route is Jupiter's.
  ['61DFfeTKM7trxYcPQCM78bJ794ddZprZpAwAnLiwTpYH', 'jupiter'],
  ['PhoeNiXZ8ByJGLkxNfZRnkUfjvmuYqLR89jjFHGqdXY', 'phoenix'],
  ['opnb2LAfJYbRMAHHvqjCwQxanZn7ReEHp1k81EohpZb', 'openbook'],
  // OpenBook's predecessor (Serum DEX v3): the same order book family, same slug.
  ['srmqPvymJeFKQ4zGQed1GFppgkRHL9kaELCbyksJtPX', 'openbook'],
  ['9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', 'openbook'],
]);

/**
 * Every program id of the aggregators decisions.md names (jupiter, okx, dflow), each from a public
 * source. A route under any of them takes the aggregator's slug.
 */
export const ROUTER_SLUGS: ReadonlyMap<string, string> = new Map([
  // Jupiter aggregator v6, v5.1, v5 and v4: jup-ag/instruction-parser README (program id -> IDL
  // version 6.0.7, 5.2.0, 5.0.1, 1.0.5).
  ['JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4', 'jupiter'],
  ['JUP5cHjnnCx2DppVsufsLrXs8EBZeEZzGtEK9Gdz6ow', 'jupiter'],
  ['JUP5pEAZeHdHrLxh5UCwAbpjGwYKKoquCpda2hfP4u8', 'jupiter'],
  ['JUP4Fb2cqiRUcaTHdrPC8h2gNsA2ETXiPDD33WcGuJB', 'jupiter'],
  // Jupiter v3 and v2: JUPITER_PROGRAM_ID_PRODUCTION of @jup-ag/core 2.x and 1.x (npm).
  [JUPITER_V3_PROGRAM, 'jupiter'],
  [JUPITER_V2_PROGRAM, 'jupiter'],
  // Jupiter v1: "Swap v1" in sonarwatch/portfolio packages/tx-parser/src/services/jupiter/index.ts.
  ['JUP6i4ozu5ydDCnLiMogSckDPpbtr7BJ4FtzYWkb5Rk', 'jupiter'],
  // OKX DEX router: okxlabs/DEX-Router-Solana-V1 (Anchor.toml, README "Mainnet") and OKX's DEX API
  // docs v5 ("Smart Contract", Solana DEX router) ...
  ['6m2CDdhRgxpH4WjvdzxAYbGxwdGUz5MziiL5jek2kBma', 'okx'],
  // ... and the router the current OKX docs name (web3.okx.com onchainos dev-docs, trade/dex-smart-contract).
  ['proVF4pMXVaYqmy4NjniPh4pqKNfMmsihgd4wdkCX3u', 'okx'],
  // DFlow aggregator v4 (current) and v1-v3 (until 2024-07-03, 2024-12-13, 2025-04-07):
  // DefiLlama/dimension-adapters aggregators/dflow/index.ts.
  ['DF1ow4tspfHX9JwWJsAb9epbkA8hmpSEAtxXy1V27QBH', 'dflow'],
  ['DF1ow3DqMj3HvTj8i8J9yM2hE9hCrLLXpdbaKZu4ZPnz', 'dflow'],
  ['DF1ow2u6srpvhAXjR3wx6LUh2UTtpbLJSCfD2eBeSveG', 'dflow'],
  ['DF1ow1bqef673cziBbmHDcJ9mfy3oy9KqxEc6kCTHocs', 'dflow'],
]);

/**
 * Routers that run one route leg per top-level instruction (a swap instruction per venue, chained
 * by `setTokenLedger`): Jupiter v2 and v3, whose IDLs ship in @jup-ag/core 1.x and 2.x. Their
 * consecutive instructions form one route (decode/units.ts).
 */
export const LEG_PER_INSTRUCTION_ROUTERS: ReadonlySet<string> = new Set([JUPITER_V2_PROGRAM, JUPITER_V3_PROGRAM]);

/** Not venues and not aggregators: runtime programs, wrappers, trading bots, helpers. */
export const TRANSPARENT_PROGRAMS: ReadonlySet<string> = new Set([
  SYSTEM_PROGRAM,
  TOKEN_PROGRAM,
  TOKEN_2022_PROGRAM,
  ATA_PROGRAM,
  'ComputeBudget111111111111111111111111111111',
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
  METADATA_PROGRAM,
  'Stake11111111111111111111111111111111111111',
  'AddressLookupTab1e1111111111111111111111111',
  // Meteora dynamic vault: DAMM v1 moves its tokens through vault deposits and withdrawals.
  '24Uqj9JCLxUeoC3hGfh5W3s9FM9uCHDS2SG3LYwBpyTi',
  // Pump fee program (PumpSwap asks it for the fee tier; it moves nothing).
  'pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ',
  // Raydium's own route program: only forwards to Raydium pools, the pool is the venue.
  'routeUGWgWzqBWFcrCfv8tritsqukccJPu3q5GPP3xS',
  // Jupiter DCA, value averaging and limit orders v1 and v2 (sonarwatch/portfolio packages/
  // tx-parser/src/services/jupiter/index.ts): keeper-driven; the fills are Jupiter swaps signed by a
  // keeper, not the user, and the user's own instructions (open, deposit, cancel, close) move one
  // asset each.
  'DCA265Vj8a9CEuX1eb1LWRnDT7uK6q1xMipnNyatn23M',
  'VALaaymxQh2mNy2trH9jUqHT1mTow76wpTcGmSWSwJe',
  'jupoNjAxXgZ4rjzxzPMP4oxduvQsQtZzyknqvzYNrNu',
  'j1o2qRpjcyUwEvwtcfhEQefh773ZgjxcVRry7LDqg5X',
  // Photon trading bot: takes a SOL fee, then calls the venue (decisions.md: a bot is not a venue).
  'BSfD6SHZigAfDWSjzD5Q41jw8LmKwtmjskPH9XW1mrRW',
]);

/** Order books whose fill is a new-order instruction followed by a settle instruction. */
export const ORDER_BOOKS: ReadonlySet<string> = new Set([
  'srmqPvymJeFKQ4zGQed1GFppgkRHL9kaELCbyksJtPX',
  '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  'opnb2LAfJYbRMAHHvqjCwQxanZn7ReEHp1k81EohpZb',
]);

export type ProgramRole = 'venue' | 'router' | 'transparent';

export function programRole(id: string): ProgramRole {
  if (ROUTER_SLUGS.has(id)) return 'router';
  if (TRANSPARENT_PROGRAMS.has(id)) return 'transparent';
  return 'venue';
}

export function venueSlug(id: string): string {
  return VENUE_SLUGS.get(id) ?? 'unknown';
}
