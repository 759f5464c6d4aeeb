import type { Principal } from './authenticate.js';
import { isKeyActive } from '../store/accounts.js';
import { readRunUp } from '../store/trades.js';
import { meterRun } from '../store/usage.js';
import type { WalletLoader } from '../sync/wallet-loader.js';
import type { HistoryContext, Target } from './history.js';

/**
 * The live part of a follow stream (decisions.md "Following a wallet live"): trades stored above
 * the forward cursor, oldest first, as `{"trades":[...],"liveCursor":...,"live":true}` lines; an
 * empty live line at least every 15 s; after FOLLOW_MAX_SECONDS (or at shutdown) an end line with
 * the cursor to resume from. While it runs the wallet is followed: its chain's realtime stage wakes
 * the walker when the chain has something new for it, and the walker's commit wakes this loop.
 * Nothing is read ahead of what is sent, and the cursor only moves past what a line carried, so
 * `follow=true&liveCursor=...` resumes without gap or repeat.
 */
export interface LiveParameters {
  ctx: HistoryContext;
  principal: Principal;
  t: Target;
  loader: WalletLoader;
  /** The key of the newest trade delivered (exclusive start), null from the oldest. */
  from: string | null;
  cancelled(): boolean;
  /** include=usd: a run's text with its figures. */
  price(json: string): Promise<string>;
  /** Waits for the loader's next change after `since`, at most `ms`, or the server's shutdown. */
  nextChange(loader: WalletLoader, ms: number, since: number): Promise<void>;
}

/** How often a followed wallet's loader is asked for again, so the registry never drops it as idle. */
const LOADER_RENEW_MS = 60_000;

/** Resumed from a liveCursor with nothing new: the first (empty) live line goes out at once, so a client knows it is following. */
export async function* liveLines(p: LiveParameters): AsyncGenerator<string> {
  const { ctx, t } = p;
  const follow = ctx.follow ?? { maxMs: 3_600_000, keepaliveMs: 15_000 };
  const unfollow = follow.realtime?.follow(t.chain, t.stored) ?? (() => {});
  const endAt = Date.now() + follow.maxMs;
  let key = p.from;
  let loader = p.loader;
  let renewedAt = Date.now();
  let lastLineAt = t.live ? 0 : Date.now();
  /** The key was authenticated with the request; it is checked again every 15 s (keepalive), lines or not. */
  let keyCheckedAt = Date.now();
  /**
   * The wallet's stored count at the last read. A commit that stored nothing (a refresh that found
   * no trade) wakes every follower of the wallet: without this, each would query the store, and
   * 500 followers of one wallet made every refresh 500 reads. A commit by another instance does not
   * move this instance's count, so a wake from `commits` always reads.
   */
  let readAtCount = -1;
  let mustRead = true;
  const cursor = () => JSON.stringify(ctx.cursors.encode({ chain: t.chain, wallet: t.stored, key, signature: null, list: 'live' }));
  try {
    for (;;) {
      if (p.cancelled()) return;
      const now = Date.now();
      if (ctx.closing?.aborted || now >= endAt) return yield `{"live":true,"end":true,"liveCursor":${cursor()}}\n`;
      if (now - renewedAt >= LOADER_RENEW_MS) {
        loader = await ctx.loaders.get(t.chain, t.stored);
        renewedAt = now;
      }
      // A revoked key's follow streams end (decisions.md) within 15 s, whether lines with trades
      // went out meanwhile or not (a wallet trading every few seconds never reaches an empty line).
      if (now - keyCheckedAt >= follow.keepaliveMs) {
        keyCheckedAt = now;
        if (p.principal.keyId !== undefined && !(await isKeyActive(ctx.db, p.principal.keyId))) {
          return yield `{"live":true,"end":true,"liveCursor":${cursor()},"error":{"code":"unauthorized","detail":"The API key was revoked."}}\n`;
        }
      }
      const v = loader.version;
      const count = loader.state.tradeCount;
      const run = mustRead || count !== readAtCount ? await readRunUp(ctx.db, loader.state.id, key ?? '', ctx.readRows) : null;
      readAtCount = count;
      mustRead = false;
      if (run) {
        mustRead = true;
        const json = t.usd ? await p.price(run.json) : run.json;
        await meterRun(ctx.db, { accountId: p.principal.accountId, walletId: loader.state.id, hi: run.hi, lo: run.lo, count: run.count, after: null });
        ctx.metrics?.delivered(run.count);
        key = run.hi;
        yield `{"trades":[${json}],"liveCursor":${cursor()},"live":true}\n`;
        lastLineAt = Date.now();
        continue;
      }
      const wait = Math.min(lastLineAt + follow.keepaliveMs - now, endAt - now);
      if (wait <= 0) {
        yield `{"trades":[],"liveCursor":${cursor()},"live":true}\n`;
        lastLineAt = Date.now();
        // The empty line's rhythm also re-reads the store, whatever woke or did not.
        mustRead = true;
        continue;
      }
      // This instance's loader, or a commit by another instance (PostgreSQL), whichever comes first.
      const stop = new AbortController();
      const byOther = await Promise.race([
        p.nextChange(loader, wait, v).then(() => false),
        ...(follow.commits ? [follow.commits(loader.state.id, wait, stop.signal).then(() => true)] : []),
      ]);
      stop.abort();
      if (byOther) mustRead = true;
    }
  } finally {
    unfollow();
  }
}
