import { createHttpJsonClient } from '../../../rpc/http-json.js';
import { explorerAccountList } from '../explorer-methods.js';
import { num } from '../quantity.js';
import { newestListed } from '../../../core/activity.js';
import { newestFirst } from '../../../core/trade.js';
import type { TxMap } from '../trade-position.js';
import type { TradesOf } from '../trades-of.js';
import type { Walk } from './position.js';

export interface ExplorerWalkDeps {
  /** An Etherscan-compatible API: its URL (with whatever it needs in its query) and key. */
  explorer: { url: string; key?: string };
  /** Entries per explorer page (at least 2). */
  pageSize: number;
  fetch?: typeof fetch;
  timeoutMs?: number;
  tradesOf: TradesOf;
}

/**
 * The explorer path: the explorer's lists of the wallet's transactions (`txlist`) and token
 * transfers (`tokentx`), newest first, a page of each per step; the window of a step is the
 * blocks both lists cover whole (a full page's oldest block may continue on the next page, so it
 * is left to the next step). The receipts come from the chain's RPC, below its confirmation
 * point: a transaction the RPC does not know is not served.
 */
export function createExplorerWalk({ explorer, pageSize, fetch, timeoutMs, tradesOf }: ExplorerWalkDeps): Walk {
  const u = new URL(explorer.url);
  const query = Object.fromEntries(u.searchParams);
  u.search = '';
  // Two requests in flight: a step asks its two lists together.
  const client = createHttpJsonClient({ url: u.toString(), fetch, timeoutMs, maxInFlight: 2 });
  const key = explorer.key;

  return async function* explorerWalk({ wallet, from: cur, floor, head: firstHead, signal }) {
    let head = firstHead;
    let top = cur.top;
    let below = cur.below;
    for (;;) {
      signal?.throwIfAborted();
      const lists = await Promise.all(
        (['txlist', 'tokentx'] as const).map((action) =>
          explorerAccountList(client, { action, address: wallet, endBlock: top, offset: pageSize, key, query, signal }),
        ),
      );
      // Each full list is whole only above its oldest block; the window is what both cover.
      let low = floor;
      for (const l of lists) {
        if (l.length >= pageSize) {
          const oldest = Math.min(...l.map((e) => num(e.blockNumber)));
          low = Math.max(low, oldest + 1);
        }
      }
      if (low > top) low = top; // a single block fuller than a page: take what was listed
      const txs: TxMap = new Map();
      for (const e of lists.flat()) {
        const b = num(e.blockNumber);
        if (b < low || b > top) continue;
        const h = e.hash.toLowerCase();
        if (!txs.has(h)) txs.set(h, { block: b, index: e.transactionIndex !== undefined ? num(e.transactionIndex) : 0 });
      }
      const last = low <= floor;
      const { trades, unexplained } = await tradesOf({ wallet, txs, hashes: [...txs.keys()], signal, unvouched: true });
      // Where the RPC's receipts put them, inside this step's window and below the confirmation
      // point (an explorer's index may be ahead of the RPC, or stale).
      const inWindow = (position: string) => {
        const b = Number(position.slice(0, 12));
        return b >= low && b <= top && (!below || position < below);
      };
      const kept = trades.filter((t) => inWindow(t.position));
      kept.sort(newestFirst);
      const listed = unexplained.filter((u) => inWindow(u.position)).sort(newestListed);
      yield {
        trades: kept,
        position: String(last ? floor : low),
        ...(head !== undefined ? { head } : {}),
        done: last,
        ...(listed.length ? { unexplained: listed } : {}),
      };
      head = undefined;
      if (last) return;
      top = low - 1;
      below = undefined;
    }
  };
}
