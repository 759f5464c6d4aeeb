/**
 * The Solana replay RPC for tests, the benchmark and the local demo.
 *
 *   const world = await buildReplayWorld({ trades: 5000 });
 *   const server = await startSolanaReplayServer({ ...world, latencyMs: 50 });
 *   // RPC_URL_SOL=server.url; the wallet is world.wallet.wallet
 */
import { decodeSolanaTransaction } from '../../../src/lib/chains/sol/decode/decode-transaction.js';
import { loadSolanaFixtures, mintsOf, replayTransactionFromFixture, type ReplayTransaction, type SolanaFixture } from './fixtures.js';
import { synthesizeWallet, type SynthOptions, type SynthWallet } from './synth.js';
import { buildTokenAccounts, testMintsFrom, type ReplayAccount } from './token-accounts.js';

export * from './fixtures.js';
export * from './server.js';
export * from './synth.js';
export * from './token-accounts.js';

/** The decoder, made total for synthesis: a transaction it cannot read counts as no trade. */
export function safeDecode(tx: unknown, wallet: string): ReturnType<typeof decodeSolanaTransaction> {
  try {
    return decodeSolanaTransaction(tx, wallet);
  } catch {
    return [];
  }
}

export interface ReplayWorld {
  /** Everything the server serves: the recorded fixtures as they are, plus the synthesised wallet. */
  transactions: ReplayTransaction[];
  accounts: Map<string, ReplayAccount>;
  wallet: SynthWallet;
  fixtures: SolanaFixture[];
}

/**
 * Fixtures plus one synthesised wallet of `trades` trades, and metadata accounts (Metaplex or
 * Token-2022) with test symbols for every mint they touch.
 */
export async function buildReplayWorld(o: Partial<SynthOptions> & { trades: number; includeFixtures?: boolean }): Promise<ReplayWorld> {
  const fixtures = o.fixtures ?? loadSolanaFixtures();
  const wallet = synthesizeWallet({ decode: safeDecode, ...o, fixtures });
  const transactions = o.includeFixtures === false ? [] : fixtures.map((f) => replayTransactionFromFixture(f));
  transactions.push(...wallet.transactions);
  const accounts = await buildTokenAccounts(testMintsFrom([...fixtures.flatMap((f) => mintsOf(f.tx)), ...wallet.mints]));
  return { transactions, accounts, wallet, fixtures };
}
