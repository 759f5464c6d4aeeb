/**
 * Aggregators on Tron, by router address (internal form). A route through one takes the
 * aggregator's slug (decisions.md, "Tron"): the router the transaction called first, else one the
 * route passed through (a wallet's swap contract forwarding to it). SunSwap's own routers are not
 * aggregators: each leg keeps its pool's venue.
 */

export type TronAggregator = 'okx';

/**
 * OKX DEX router on Tron, every address OKX's DEX API documentation has published for it
 * ("Smart Contract", DEX router table): TTWd2hBKmEmYiCXtm4TiZ1FjzVQJaVm8N4 (onchainos
 * dev-docs/trade, current), TAGVH5t42MuofaAfUauPPRe4Qw3i8Z3QHM (the same page before it) and
 * TVbYrdupAymaF5ibPo2WREho7g23rQcqC7 (dev-docs-v5/dex-api). Its cross-chain XBridge
 * (TVaV2BBs8tpthbp19QAy7ibmXLoYsomKDD) is not here: what it swaps leaves the chain.
 */
export const TRON_AGGREGATORS: ReadonlyMap<string, TronAggregator> = new Map([
  ['0xc06b174251d965b91afd70021cac19d62e966bc1', 'okx'],
  ['0x0344a87b2c5bc1cd9407fb9bd0c325a4403af30b', 'okx'],
  ['0xd749f03f4b2e021408e975d511cb347a17c5883c', 'okx'],
]);

/**
 * The aggregator of a route: the contract the transaction called when it is one, else the first
 * aggregator router the route's calls and movements went through, else null.
 */
export function tronAggregatorOf(called: string, passedThrough: Iterable<string>): TronAggregator | null {
  const direct = TRON_AGGREGATORS.get(called);
  if (direct) return direct;
  for (const a of passedThrough) {
    const slug = TRON_AGGREGATORS.get(a);
    if (slug) return slug;
  }
  return null;
}
