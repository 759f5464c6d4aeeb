/**
 * The Tron replay for tests, the benchmark and the local demo.
 *
 *   const world = buildTronReplayWorld({ trades: 600 });
 *   const server = await startTronReplayServer({ ...world, latencyMs: 50 });
 *   // RPC_URL_TRON=server.url; the wallet is world.synth.wallet
 */
import { GOLDEN } from '../../tron/golden.js';
import { loadTronCaptures, loadTronTokens, type TronReplayTx, type TronTokenFacts } from './fixtures.js';
import { synthesizeTronWallet, type TronSynthWallet } from './synth.js';

export * from './fixtures.js';
export * from './server.js';
export * from './synth.js';

export interface TronReplayWorld {
  /** The captures as they are, plus the synthesised wallet's transactions. */
  transactions: TronReplayTx[];
  tokens: TronTokenFacts[];
  synth: TronSynthWallet;
}

export function buildTronReplayWorld(o: { trades: number; seed?: number; topBlock?: number }): TronReplayWorld {
  const captures = loadTronCaptures();
  const synth = synthesizeTronWallet({ trades: o.trades, captures, golden: GOLDEN, seed: o.seed, topBlock: o.topBlock });
  return { transactions: [...captures, ...synth.transactions], tokens: loadTronTokens(), synth };
}
