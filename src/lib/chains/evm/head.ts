import { HistoryError } from '../../core/errors.js';
import type { RpcTransport } from '../../rpc/json-rpc.js';
import { num } from './quantity.js';
import type { EvmConfirmation } from './registry.js';
import { ethBlockNumber, ethGetBlockByNumber } from './rpc-methods.js';

/**
 * The newest block a walk starts from: `latest` less a number of blocks, or the block a tag names
 * (`safe`, `finalized`). A node without those tags stays 64 blocks (two mainnet epochs) behind
 * latest; asked for `latest`, it gives latest.
 */
export async function confirmedHead(rpc: RpcTransport, confirmation: EvmConfirmation, signal?: AbortSignal): Promise<number> {
  if (typeof confirmation === 'number') {
    const latest = num(await ethBlockNumber(rpc, signal));
    return Math.max(0, latest - confirmation);
  }
  try {
    const b = await ethGetBlockByNumber(rpc, confirmation, signal);
    if (b?.number) return num(b.number);
  } catch (e) {
    if (!(e instanceof HistoryError && e.code === 'rpc_error')) throw e;
  }
  const latest = num(await ethBlockNumber(rpc, signal));
  return confirmation === 'latest' ? latest : Math.max(0, latest - 64);
}
