/**
 * What reading balance changes (core/activity.ts, issue 20) costs the decoders, in the same run:
 * Solana's decoder on the recorded fixtures with and without the activity (sharing the one
 * normalization, as decode-batch.ts does), and EVM's receipt decoder on the mainnet set with and
 * without evmActivity. Target: decode throughput with it within 10% of without (ratio >= 0.9).
 * Prints nothing; run.ts reports.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { evmActivity, mayBeUnexplained as evmMayBeUnexplained } from '../../src/lib/chains/evm/decode/activity.js';
import { decodeReceipt } from '../../src/lib/chains/evm/decode/decode-receipt.js';
import { mayBeUnexplained, solanaActivityOf } from '../../src/lib/chains/sol/decode/activity.js';
import { decodeNormalizedTransaction, solanaSigners } from '../../src/lib/chains/sol/decode/decode-transaction.js';
import { normalizeTransaction } from '../../src/lib/chains/sol/decode/normalize.js';
import { isUnexplained } from '../../src/lib/core/activity.js';
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
      // As decode-batch.ts does it: the balance changes first, the whole activity only when they leave it open.
      const n = normalizeTransaction(tx);
      const trades = decodeNormalizedTransaction(n, wallet);
      const mints = trades.map((t) => t.tokenMint);
      const a = mayBeUnexplained(n, wallet, mints) ? solanaActivityOf(n, wallet) : null;
      sink += trades.length + (a && isUnexplained(a, mints) ? 1 : 0);
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
    // As trades-of.ts does it: a look at the wallet's Transfers first, the whole activity only when it leaves it open.
    for (const { chain, receipt, wallet } of evm) {
      const trades = decodeReceipt(receipt, wallet, chain);
      const tokens = trades.map((t) => t.token);
      const a = evmMayBeUnexplained(receipt, wallet, chain, tokens) ? evmActivity(receipt, wallet, chain) : null;
      sink += trades.length + (a && isUnexplained(a, tokens) ? 1 : 0);
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
