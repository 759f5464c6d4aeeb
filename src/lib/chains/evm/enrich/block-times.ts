import type { RpcTransport } from '../../../rpc/json-rpc.js';
import type { RpcReceipt } from '../decode/rpc-types.js';
import { hex, num } from '../quantity.js';
import { ethGetBlocks } from '../rpc-methods.js';
import type { TxMap } from '../trade-position.js';

/**
 * Block times the finder did not carry (a log without `blockTimestamp`, an explorer entry), for the
 * transactions of these receipts: one batch of headers, written into `txs` (every transaction of
 * those blocks gets its time).
 */
export async function fillBlockTimes(rpc: RpcTransport, txs: TxMap, receipts: readonly RpcReceipt[], signal?: AbortSignal): Promise<void> {
  const needBlocks = [
    ...new Set(
      receipts
        .map((r) => txs.get(r.transactionHash.toLowerCase())!)
        .filter((t) => t.ts === undefined)
        .map((t) => t.block),
    ),
  ];
  if (!needBlocks.length) return;
  const hs = await ethGetBlocks(rpc, needBlocks.map(hex), signal);
  const ts = new Map<number, number>();
  hs.forEach((h, i) => ts.set(needBlocks[i], num(h.timestamp)));
  for (const t of txs.values()) if (t.ts === undefined && ts.has(t.block)) t.ts = ts.get(t.block);
}
