import type { EvmChainConfig } from '../../../src/lib/chains/evm/registry.js';
import { createPoolFacts } from '../../support/evm-replay/pool-facts.js';
import { callFrameOf } from '../../support/evm-replay/internal-trace.js';
import { startEvmReplay, type EvmReplay } from '../../support/evm-replay/server.js';
import { FACTORY_SELECTOR, tokenCalls } from '../../support/evm-replay/token-calls.js';
import { recoverV4PoolKeys } from '../../support/evm-replay/v4-keys.js';
import { chainFixtures, poolFactsOf, tokenFacts, type MainnetFixture } from './fixtures.js';

export interface ChainReplay {
  node: EvmReplay;
  fixtures: MainnetFixture[];
  /** V4 pool ids swapped in the set whose key no candidate reproduced (their poolKeys calls revert). */
  unknownV4Pools: string[];
}

/**
 * One chain of the mainnet set served as a node would serve it: the recorded receipts,
 * transactions and block headers (the newest recorded block is the head), and eth_call answers
 * from facts only: token metadata (fixtures.ts), a pool's factory() by CREATE2 over the tokens it
 * moved, a V4 PositionManager's poolKeys(bytes25) by a key search checked against the pool id.
 * Every other call reverts, as for a missing method. Call traces (debug_traceTransaction) come
 * from each transaction's recorded internal-transaction rows (internal-trace.ts: a flat list
 * under the top call); a transaction without recorded rows cannot be traced.
 */
export async function startChainReplay(chain: EvmChainConfig): Promise<ChainReplay> {
  const fixtures = chainFixtures(chain.slug);
  const receipts = fixtures.map((f) => f.receipt);
  const pools = poolFactsOf(chain.slug);
  const factories = createPoolFacts(pools.deployments, receipts, pools.named);
  const positionManagers = new Map<string, string>();
  for (const d of chain.dexes) if (d.kind === 'v4' && d.positionManager) positionManagers.set(d.poolManager, d.positionManager);
  const v4 = recoverV4PoolKeys(receipts, positionManagers);
  const calls = new Map([...tokenCalls(tokenFacts(chain.slug)), ...v4.calls]);
  const node = await startEvmReplay({
    chainId: chain.chainId,
    receipts,
    transactions: fixtures.map((f) => f.transaction),
    blocks: fixtures.map((f) => f.block),
    calls,
    traces: new Map(
      fixtures.map((f) => [
        f.receipt.transactionHash.toLowerCase(),
        callFrameOf(f.transaction, f.internalTransactions, (f.receipt as { contractAddress?: string | null }).contractAddress),
      ]),
    ),
    call(to, data) {
      if (data !== FACTORY_SELECTOR) return undefined;
      const f = factories.factoryOf(to);
      return f ? '0x' + f.slice(2).padStart(64, '0') : undefined;
    },
  });
  return { node, fixtures, unknownV4Pools: v4.unknown };
}
