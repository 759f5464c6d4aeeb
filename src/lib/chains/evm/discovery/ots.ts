import type { RpcTransport } from '../../../rpc/json-rpc.js';
import type { RpcReceipt } from '../decode/rpc-types.js';
import { COW_TRADE_TOPIC, UNISWAPX_FILL_TOPIC } from '../decode/settlements.js';
import { hex, num } from '../quantity.js';
import { dexAddress, type EvmChainConfig } from '../registry.js';
import { otsSearchTransactionsBefore } from '../rpc-methods.js';
import { newestListed } from '../../../core/activity.js';
import { newestFirst } from '../../../core/trade.js';
import { evmPosition, type TxMap, type TxPlace } from '../trade-position.js';
import type { TradesOf } from '../trades-of.js';
import type { Walk } from './position.js';
import type { ScanLogs } from './scan-logs.js';

export interface OtsWalkDeps {
  rpc: RpcTransport;
  chain: EvmChainConfig;
  /** Transactions per ots_searchTransactionsBefore page. */
  pageSize: number;
  scanLogs: ScanLogs;
  tradesOf: TradesOf;
}

/**
 * The account-indexed path: the node's Otterscan index lists the wallet's transactions (sent
 * by it, to it, or calling it: an ERC-4337 account, a Safe or an EIP-7702 account is called
 * in its own trades) newest first with their receipts, a page per call. A full page may end
 * inside a block, so its oldest block is left to the next page (asked from just above that
 * block). What the index cannot see is a settlement paying the wallet by token transfer alone
 * (CoW, UniswapX): where the chain has settlement contracts, their logs naming the wallet are
 * scanned over the page's blocks.
 */
export function createOtsWalk({ rpc, chain, pageSize, scanLogs, tradesOf }: OtsWalkDeps): Walk {
  const settlementAddresses = chain.dexes.filter((d) => d.kind === 'cow' || d.kind === 'uniswapx').map((d) => dexAddress(d));
  /** Settlement events naming the wallet: CoW's Trade (owner, topic 1), UniswapX's Fill (swapper, topic 3). */
  const settlementFilters = (wallet: string) => (from: number, to: number) => {
    const w = '0x' + wallet.slice(2).padStart(64, '0');
    const base = { fromBlock: hex(from), toBlock: hex(to), address: settlementAddresses };
    return [
      { ...base, topics: [COW_TRADE_TOPIC, w] },
      { ...base, topics: [UNISWAPX_FILL_TOPIC, null, null, w] },
    ];
  };

  return async function* otsWalk({ wallet, from: cur, floor, head: firstHead, signal }) {
    let head = firstHead;
    let top = cur.top;
    let below = cur.below;
    for (;;) {
      signal?.throwIfAborted();
      const page = await otsSearchTransactionsBefore(rpc, wallet, top + 1, pageSize, signal);
      const txs: TxMap = new Map();
      const known = new Map<string, RpcReceipt>();
      page.txs.forEach((tx, i) => {
        const r = page.receipts[i];
        const h = tx.hash.toLowerCase();
        const t: TxPlace = { block: num(tx.blockNumber), index: num(tx.transactionIndex) };
        const stamp = r?.logs?.find((l) => l.blockTimestamp)?.blockTimestamp ?? (r as { timestamp?: string } | undefined)?.timestamp;
        if (stamp) t.ts = num(stamp);
        txs.set(h, t);
        if (r) known.set(h, { ...r, from: r.from ?? tx.from, to: r.to ?? tx.to ?? null });
      });
      const blocks = [...new Set([...txs.values()].map((t) => t.block))];
      const lowest = blocks.length ? Math.min(...blocks) : floor;
      let last = page.lastPage || blocks.length === 0 || lowest < floor;
      // The oldest block of a full page may continue on the next: hold it back (unless it is the whole page).
      let nextTop = lowest - 1;
      if (!last && blocks.length > 1) {
        nextTop = lowest;
        for (const [h, t] of txs) if (t.block === lowest) txs.delete(h);
      }
      if (nextTop < floor) last = true;
      const windowLow = last ? floor : nextTop + 1;
      if (settlementAddresses.length && top >= windowLow) {
        for (const l of await scanLogs(windowLow, top, settlementFilters(wallet), signal)) {
          const h = l.transactionHash.toLowerCase();
          if (!txs.has(h))
            txs.set(h, { block: num(l.blockNumber), index: num(l.transactionIndex), ...(l.blockTimestamp ? { ts: num(l.blockTimestamp) } : {}) });
        }
      }
      const pos = (h: string) => evmPosition(txs.get(h)!.block, txs.get(h)!.index);
      const hashes = [...txs.keys()].filter((h) => txs.get(h)!.block >= floor && txs.get(h)!.block <= top && (!below || pos(h) < below));
      hashes.sort((a, b) => (pos(b) < pos(a) ? -1 : 1));
      const { trades, unexplained } = await tradesOf({ wallet, txs, hashes, signal, known });
      trades.sort(newestFirst);
      yield {
        trades,
        position: String(last ? floor : nextTop + 1),
        ...(head !== undefined ? { head } : {}),
        done: last,
        ...(unexplained.length ? { unexplained: unexplained.sort(newestListed) } : {}),
      };
      head = undefined;
      if (last) return;
      top = nextTop;
      below = undefined;
    }
  };
}
