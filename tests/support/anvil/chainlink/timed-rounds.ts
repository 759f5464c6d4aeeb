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
  // One call at a time: anvil answers a batch's calls concurrently, which would race the
  // timestamps and the nonces.
  let last = '';
  for (const r of rounds) {
    await rpc.call('evm_setNextBlockTimestamp', ['0x' + r.time.toString(16)]);
    const data = encodeFunctionData({ abi: artifact.abi, functionName: 'push', args: [[r.answer], [BigInt(r.time)]] } as never) as Hex;
    last = await rpc.call<string>('eth_sendTransaction', [{ from, to: aggregator, gas: '0x200000', data }]);
  }
  // anvil answers a send before it has mined it: the feed is read only once the last round is in.
  for (let i = 0; last && i < 12_000; i++) {
    const receipt = await rpc.call<{ status: string } | null>('eth_getTransactionReceipt', [last]);
    if (receipt) {
      if (receipt.status !== '0x1') throw new Error('the last round pushed reverted');
      return;
    }
    await new Promise((res) => setTimeout(res, 5));
  }
  if (last) throw new Error('the last round pushed was never mined');
}
