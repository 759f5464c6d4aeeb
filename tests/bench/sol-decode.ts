/**
 * Throughput of the Solana decoder on the recorded mainnet fixtures, against JSON.parse of the
 * same bytes (the target is >= 10,000 decoded transactions/s on one core, where JSON.parse alone
 * runs ~18,000/s). Each transaction is decoded once, for its fee payer, as the fetcher decodes a
 * transaction for the wallet it is walking. Prints nothing; the lead wires it into `npm run bench`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decodeSolanaTransaction, solanaSigners } from '../../src/lib/chains/sol/decode/decode-transaction.js';

const DIR = fileURLToPath(new URL('../fixtures/solana/', import.meta.url));
const RUN_MS = 2000;

/** Items per second of `work` (which returns how many it did) over `runMs`, after a warm-up. */
export function timeLoop(work: () => number, runMs = RUN_MS): number {
  // Warm up so the JIT has compiled the hot path before measuring.
  const warmEnd = performance.now() + 300;
  while (performance.now() < warmEnd) work();
  let done = 0;
  const start = performance.now();
  let now = start;
  while (now - start < runMs) {
    done += work();
    now = performance.now();
  }
  return (done * 1000) / (now - start);
}

export async function benchSolanaDecode(): Promise<{ txPerSec: number; parseOnlyPerSec: number }> {
  const texts = readdirSync(DIR)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'))
    .map((f) => readFileSync(DIR + f, 'utf8'));
  const parsed = texts.map((t) => {
    const v = JSON.parse(t);
    return v.result ?? v;
  });
  const wallets = parsed.map((tx) => solanaSigners(tx)[0]);
  let sink = 0;
  const txPerSec = timeLoop(() => {
    for (let i = 0; i < parsed.length; i++) {
      sink += decodeSolanaTransaction(parsed[i], wallets[i]).length;
    }
    return parsed.length;
  });
  const parseOnlyPerSec = timeLoop(() => {
    for (const t of texts) sink += JSON.parse(t) ? 1 : 0;
    return texts.length;
  });
  if (sink < 0) throw new Error('unreachable');
  return { txPerSec: Math.round(txPerSec), parseOnlyPerSec: Math.round(parseOnlyPerSec) };
}
