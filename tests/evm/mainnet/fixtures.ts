import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RpcReceipt } from '../../../src/lib/chains/evm/decode/rpc-types.js';
import { BUILT_IN_EVM_CHAINS, mergeEvmChains, parseEvmChainsFile, type EvmChainConfig } from '../../../src/lib/chains/evm/registry.js';
import type { ExplorerInternalRow } from '../../support/evm-replay/internal-trace.js';
import type { PoolDeployment } from '../../support/evm-replay/pool-facts.js';
import type { TokenFact } from '../../support/evm-replay/token-calls.js';

/**
 * The real mainnet set (tests/fixtures/evm-mainnet/, a copy of the shared set) and the facts the
 * replay answers from (tests/fixtures/evm-mainnet/facts/): the chains (built-in ones from the
 * registry, the others from an EVM_CHAINS_FILE of their own), token metadata, pool deployments.
 */

const ROOT = fileURLToPath(new URL('../../fixtures/evm-mainnet/', import.meta.url));
const json = <T>(path: string): T => JSON.parse(readFileSync(ROOT + path, 'utf8')) as T;

export interface MainnetFixture {
  chain: string;
  chainId: number;
  block: { number: string; hash: string; timestamp: string };
  transaction: { hash: string; from: string; to: string | null; value: string; input: string; blockNumber: string };
  receipt: RpcReceipt & { blockHash: string };
  internalTransactions: ExplorerInternalRow[] | null;
}

const loaded = new Map<string, MainnetFixture[]>();

/** The set's transactions of one chain, in block order (read once; callers do not change them). */
export function chainFixtures(chain: string): MainnetFixture[] {
  let fixtures = loaded.get(chain);
  if (!fixtures) loaded.set(chain, (fixtures = readFixtures(chain)));
  return fixtures;
}

function readFixtures(chain: string): MainnetFixture[] {
  return readdirSync(ROOT + chain)
    .filter((f) => f.endsWith('.json'))
    .map((f) => json<MainnetFixture>(`${chain}/${f}`))
    .sort((a, b) => Number(BigInt(a.block.number) - BigInt(b.block.number)));
}

/** Every chain the source knows here: the registry's built-in chains, then the file's (parsed as the server parses EVM_CHAINS_FILE). */
export function mainnetChains(): EvmChainConfig[] {
  return mergeEvmChains(BUILT_IN_EVM_CHAINS, parseEvmChainsFile(json<unknown>('facts/evm-chains.json')));
}

interface TokenFile {
  tokens: Record<string, Record<string, TokenFact & { source: string }>>;
}

/**
 * symbol()/decimals() facts of a chain: the set's tokens.json (recorded eth_call answers), then
 * facts/tokens.json (what the golden files state about the tokens tokens.json lacks). Two facts
 * about one token must agree.
 */
export function tokenFacts(chain: string): Map<string, TokenFact> {
  const recorded = json<Record<string, Record<string, TokenFact>>>('tokens.json')[chain] ?? {};
  const stated = json<TokenFile>('facts/tokens.json').tokens[chain] ?? {};
  const out = new Map<string, TokenFact>();
  for (const [a, t] of Object.entries(recorded)) out.set(a.toLowerCase(), { symbol: t.symbol, decimals: t.decimals });
  for (const [a, t] of Object.entries(stated)) {
    const have = out.get(a.toLowerCase());
    if (have && (have.symbol !== t.symbol || have.decimals !== t.decimals))
      throw new Error(`token facts disagree on ${chain} ${a}: ${JSON.stringify(have)} vs ${JSON.stringify(t)}`);
    out.set(a.toLowerCase(), { symbol: t.symbol, decimals: t.decimals });
  }
  return out;
}

interface PoolFile {
  v3Fees: number[];
  deployments: Record<string, PoolDeployment[]>;
  named?: Record<string, Array<{ pool: string; factory: string }>>;
}

/** Pool deployments of a chain (v3 entries without their own candidates take the file's fee tiers) and the pools named outright. */
export function poolFactsOf(chain: string): { deployments: PoolDeployment[]; named: Map<string, string> } {
  const f = json<PoolFile>('facts/pools.json');
  return {
    deployments: (f.deployments[chain] ?? []).map((d) => ({ ...d, params: d.params ?? (d.shape === 'v3' ? f.v3Fees : undefined) })),
    named: new Map((f.named?.[chain] ?? []).map((p) => [p.pool.toLowerCase(), p.factory.toLowerCase()])),
  };
}
