/**
 * What reading balance changes (core/activity.ts, issue 20) costs the decoders, in the same run:
 * Solana's decoder on the recorded fixtures with and without the activity (sharing the one
 * normalization, as decode-batch.ts does), and EVM's receipt decoder on the mainnet set with and
 * without evmActivity. Target: decode throughput with it within 10% of without (ratio >= 0.9).
 * Prints nothing; run.ts reports.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { unexplainedActivity as evmUnexplained } from '../../src/lib/chains/evm/decode/activity.js';
import { decodeReceipt } from '../../src/lib/chains/evm/decode/decode-receipt.js';
import { unexplainedActivity } from '../../src/lib/chains/sol/decode/activity.js';
import { decodeNormalizedTransaction, solanaSigners } from '../../src/lib/chains/sol/decode/decode-transaction.js';
import { normalizeTransaction } from '../../src/lib/chains/sol/decode/normalize.js';
import { chainFixtures, mainnetChains } from '../evm/mainnet/fixtures.js';
import { timeLoop } from './sol-decode.js';

const SOL_DIR = fileURLToPath(new URL('../fixtures/solana/', import.meta.url));
const RUN_MS = 700;

const rate = (work: () => number) => timeLoop(work, RUN_MS);

/**
 * The two sides measured in turn, three rounds, the best of each: on a shared 2-core machine one
 * round's ratio moved between 0.83 and 0.95 with nothing changed; alternating and keeping the best
 * compares the two at their quietest.
 */
function bestOf(a: () => number, b: () => number): [number, number] {
  let ra = 0;
  let rb = 0;
  for (let i = 0; i < 3; i++) {
    ra = Math.max(ra, a());
    rb = Math.max(rb, b());
  }
  return [ra, rb];
}

export interface ActivityCost {
  solWithout: number;
  solWith: number;
  evmWithout: number;
  evmWith: number;
}

export async function benchActivityCost(): Promise<ActivityCost> {
  const sol = readdirSync(SOL_DIR)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'))
    .map((f) => {
      const v = JSON.parse(readFileSync(SOL_DIR + f, 'utf8'));
      const tx = v.result ?? v;
      return { tx, wallet: solanaSigners(tx)[0] };
    });
  let sink = 0;
  // Each side normalizes, as a decode of a fetched transaction does.
  const solWithoutWork = () => {
    for (const { tx, wallet } of sol) sink += decodeNormalizedTransaction(normalizeTransaction(tx), wallet).length;
    return sol.length;
  };
  const solWithWork = () => {
    for (const { tx, wallet } of sol) {
      // As decode-batch.ts does it, on the one normalization.
      const n = normalizeTransaction(tx);
      const trades = decodeNormalizedTransaction(n, wallet);
      sink +=
        trades.length +
        (unexplainedActivity(
          n,
          wallet,
          trades.map((t) => t.tokenMint),
        )
          ? 1
          : 0);
    }
    return sol.length;
  };

  const evm = mainnetChains()
    .filter((chain) => existsSync(fileURLToPath(new URL(`../fixtures/evm-mainnet/${chain.slug}/`, import.meta.url))))
    .flatMap((chain) => chainFixtures(chain.slug).map((f) => ({ chain, receipt: f.receipt, wallet: f.transaction.from.toLowerCase() })));
  const evmWithoutWork = () => {
    for (const { chain, receipt, wallet } of evm) sink += decodeReceipt(receipt, wallet, chain).length;
    return evm.length;
  };
  const evmWithWork = () => {
    // As trades-of.ts does it.
    for (const { chain, receipt, wallet } of evm) {
      const trades = decodeReceipt(receipt, wallet, chain);
      sink +=
        trades.length +
        (evmUnexplained(
          receipt,
          wallet,
          chain,
          trades.map((t) => t.token),
        )
          ? 1
          : 0);
    }
    return evm.length;
  };

  const [solWithout, solWith] = bestOf(
    () => rate(solWithoutWork),
    () => rate(solWithWork),
  );
  const [evmWithout, evmWith] = bestOf(
    () => rate(evmWithoutWork),
    () => rate(evmWithWork),
  );
  if (sink < 0) throw new Error('unreachable');
  return { solWithout, solWith, evmWithout, evmWith };
}
