import { createRpc } from '../anvil.js';
import { compileSolidity } from '../compile.js';
import { createChainDriver, type Artifact } from '../contracts.js';

export const FEED_DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/** Feeds.sol compiled once per process: TestFeedProxy and TestAggregator. */
let compiled: Record<string, Artifact> | null = null;
export const feedContracts = (): Record<string, Artifact> => (compiled ??= compileSolidity(new URL('./Feeds.sol', import.meta.url)));

export interface DeployFeedOptions {
  /** The aggregator's description (default `ETH / USD`). */
  description?: string;
  /** Place the proxy at this address (the table's own), with the deployed proxy's code. */
  at?: string;
  /** Rounds pushed in one transaction (any update times): 8 decimals each. */
  rounds?: readonly { answer: bigint; time: number }[];
}

/**
 * A Chainlink-shaped feed on anvil: a TestFeedProxy whose first phase is a fresh TestAggregator,
 * with the given rounds pushed (in batches of 250 a transaction). Returns both addresses.
 */
export async function deployFeed(url: string, o: DeployFeedOptions = {}): Promise<{ proxy: string; aggregator: string }> {
  const d = createChainDriver(url);
  const c = feedContracts();
  let proxy: string = await d.deploy(FEED_DEPLOYER, c.TestFeedProxy);
  if (o.at) {
    // The same code at the given address: its storage starts empty, as a fresh proxy's.
    const rpc = createRpc(url);
    await rpc.call('anvil_setCode', [o.at, await rpc.call('eth_getCode', [proxy, 'latest'])]);
    proxy = o.at;
  }
  const aggregator = await d.deploy(FEED_DEPLOYER, c.TestAggregator, [8, o.description ?? 'ETH / USD', false]);
  await d.send(FEED_DEPLOYER, proxy, c.TestFeedProxy, 'setAggregator', [aggregator]);
  const rounds = o.rounds ?? [];
  for (let i = 0; i < rounds.length; i += 250) {
    const part = rounds.slice(i, i + 250);
    await d.send(FEED_DEPLOYER, aggregator, c.TestAggregator, 'push', [part.map((r) => r.answer), part.map((r) => BigInt(r.time))], 0n, 25_000_000n);
  }
  return { proxy, aggregator };
}
