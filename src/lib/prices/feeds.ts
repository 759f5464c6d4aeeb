/**
 * Which Chainlink feed prices each native coin in USD (decisions.md "USD values"): the chain that
 * carries it (read over that chain's RPC_URL_<SLUG>), its proxy, decimals and heartbeat. One feed
 * per coin, whatever chain the trade was on: ETH is priced the same for eth, base and robinhood,
 * and SOL's feed lives on Ethereum, so one Ethereum RPC prices Solana too.
 *
 * Addresses checked against Chainlink's published feed lists (the `data/feeds/*.json` of its npm
 * package @chainlink/mcp-server 0.0.1-alpha.17) and, for MON, Monad's protocol list
 * (monad-crypto/protocols mainnet/chainlink.jsonc). Heartbeats as third parties quote Chainlink's
 * lists. Where none was found (TRX) a day is used: between heartbeats a feed still publishes a new
 * round whenever the price moves past its deviation threshold, so a quiet round stays within that
 * threshold of the market; what the heartbeat guards against is a feed that stopped.
 * An operator overrides any coin with PRICE_FEED_<COIN>=<chain slug>:<proxy>[:<heartbeat s>].
 */
export interface FeedEntry {
  /** The slug of the EVM chain that carries the feed. */
  chain: string;
  proxy: string;
  heartbeatSeconds: number;
}

export const BUILT_IN_FEEDS: Readonly<Record<string, FeedEntry>> = {
  ETH: { chain: 'eth', proxy: '0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419', heartbeatSeconds: 3600 },
  SOL: { chain: 'eth', proxy: '0x4ffC43a60e009B551865A93d232E33Fce9f01507', heartbeatSeconds: 86_400 },
  // On Ethereum rather than BNB Smart Chain: one RPC then serves ETH, SOL and BNB.
  BNB: { chain: 'eth', proxy: '0x14e613AC84a31f709eadbdF89C6CC390fDc9540A', heartbeatSeconds: 86_400 },
  TRX: { chain: 'bsc', proxy: '0xF4C5e535756D11994fCBB12Ba8adD0192D9b88be', heartbeatSeconds: 86_400 },
  MON: { chain: 'monad', proxy: '0xBcD78f76005B7515837af6b50c7C52BCf73822fb', heartbeatSeconds: 3600 },
};

const OVERRIDE = /^([a-z0-9-]+):(0x[0-9a-fA-F]{40})(?::([1-9][0-9]*))?$/;

/**
 * The feeds in force: the built-in table with each PRICE_FEED_<COIN> applied. A malformed
 * override is an error naming the variable (the server refuses to start on it).
 */
export function feedTable(overrides: Readonly<Record<string, string>>): Record<string, FeedEntry> {
  const out: Record<string, FeedEntry> = { ...BUILT_IN_FEEDS };
  for (const [coin, value] of Object.entries(overrides)) {
    const m = OVERRIDE.exec(value.trim());
    if (!m) throw new RangeError(`PRICE_FEED_${coin} must be <chain slug>:<proxy address>[:<heartbeat seconds>], got "${value}"`);
    out[coin] = { chain: m[1], proxy: m[2], heartbeatSeconds: m[3] ? Number(m[3]) : (BUILT_IN_FEEDS[coin]?.heartbeatSeconds ?? 86_400) };
  }
  return out;
}
