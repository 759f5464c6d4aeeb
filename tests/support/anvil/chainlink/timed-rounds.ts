import { encodeFunctionData, type Hex } from 'viem';
import { createRpc } from '../anvil.js';
import type { Artifact } from '../contracts.js';

/**
 * Pushes rounds to a TestAggregator one block each, the block's timestamp the round's update
 * time, as a real aggregator's rounds are mined (its `updatedAt` is its block's time): what the
 * logs path of the price feed relies on to find a span's blocks. anvil must start before the
 * first round (`--timestamp`).
 */
export async function pushTimedRounds(
  url: string,
  from: string,
  aggregator: string,
  artifact: Artifact,
  rounds: readonly { answer: bigint; time: number }[],
): Promise<void> {
  const rpc = createRpc(url);
  // One round at a time, each mined before the next timestamp is set: anvil answers a send before
  // it has mined it, and a timestamp set meanwhile would land on the wrong block (on a loaded
  // machine rounds were lost that way).
  for (const r of rounds) {
    await rpc.call('evm_setNextBlockTimestamp', ['0x' + r.time.toString(16)]);
    const data = encodeFunctionData({ abi: artifact.abi, functionName: 'push', args: [[r.answer], [BigInt(r.time)]] } as never) as Hex;
    const hash = await rpc.call<string>('eth_sendTransaction', [{ from, to: aggregator, gas: '0x200000', data }]);
    for (let i = 0; ; i++) {
      const receipt = await rpc.call<{ status: string } | null>('eth_getTransactionReceipt', [hash]);
      if (receipt) {
        if (receipt.status !== '0x1') throw new Error(`the round at ${r.time} reverted`);
        break;
      }
      if (i > 15_000) throw new Error(`the round at ${r.time} was never mined`);
      await new Promise((res) => setTimeout(res, 2));
    }
  }
}
