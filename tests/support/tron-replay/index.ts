/**
 * The Tron replay for tests, the benchmark and the local demo.
 *
 *   const world = buildTronReplayWorld({ trades: 600 });
 *   const server = await startTronReplayServer({ ...world, latencyMs: 50 });
 *   // RPC_URL_TRON=server.url; the wallet is world.synth.wallet
 *   // later, while it serves: a capture issued again at a newer block (append.ts), confirmed or not yet
 *   server.addTransactions([reissueLater(capture, tronBlockAt(newestSlotOf([capture]), Date.now()))]);
 */
import { GOLDEN } from '../../tron/golden.js';
import { TRON_V4_POOLS, type TronV4PoolFacts } from './constructed.js';
import { loadTronCaptures, loadTronTokens, type TronReplayTx, type TronTokenFacts } from './fixtures.js';
import { synthesizeTronWallet, type TronSynthWallet } from './synth.js';

export * from './append.js';
export * from './constructed.js';
export * from './fixtures.js';
export * from './reissued-sales.js';
export * from './server.js';
export * from './synth.js';

export interface TronReplayWorld {
  /** The captures as they are, plus the synthesised wallet's transactions. */
  transactions: TronReplayTx[];
  tokens: TronTokenFacts[];
  /** SunSwap V4 pool keys the manager answers (constructed.ts: the real pool of c9628c03 and constructed ones). */
  v4Pools: readonly TronV4PoolFacts[];
  synth: TronSynthWallet;
}

export function buildTronReplayWorld(o: { trades: number; seed?: number; topBlock?: number }): TronReplayWorld {
  const captures = loadTronCaptures();
  const synth = synthesizeTronWallet({ trades: o.trades, captures, golden: GOLDEN, seed: o.seed, topBlock: o.topBlock });
  return { transactions: [...captures, ...synth.transactions], tokens: loadTronTokens(), v4Pools: TRON_V4_POOLS, synth };
}
