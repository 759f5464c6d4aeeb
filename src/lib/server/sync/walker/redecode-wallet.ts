import { HistoryError, isHistoryError } from '../../../core/errors.js';
import { recordUpstreamFailure } from '../../store/wallets.js';
import { beginRedecode, progressAfter, replaceRedecoded, transactionsToRedecode, type RedecodedWallet } from '../../store/redecode.js';
import type { Walker } from './walker.js';

/** A read does not start a re-decode again for this long after one failed. */
export const REDECODE_RETRY_MS = 30_000;

/** The source decodes with a newer version than the wallet's trades were stored with, and can decode them again. */
export function isBehind({ source, core }: Walker): boolean {
  // A wallet with nothing stored has nothing to decode again: its first batch takes the source's version (storeBatch).
  const stored = core.state.tradeCount > 0 || core.state.unexplainedCount > 0;
  return source.redecode !== undefined && stored && (source.decoderVersion ?? 0) > core.state.decoderVersion;
}

/** A re-decode is wanted and none runs: the loop has work. */
export function redecodeWanted(w: Walker): boolean {
  return w.redecode.wanted && w.redecode.task === null && isBehind(w);
}

/** A read of the wallet: a re-decode is wanted when the wallet is behind (and none failed in the last 30 s). */
export function askRedecodeIfBehind(w: Walker): boolean {
  const r = w.redecode;
  if (r.wanted || r.task || !isBehind(w) || w.core.now() - r.failedAt < REDECODE_RETRY_MS) return false;
  r.wanted = true;
  return true;
}

/** Starts the wanted re-decode beside whatever else the loop does (the caller holds the lease). */
export function startRedecode(w: Walker): void {
  const r = w.redecode;
  if (!redecodeWanted(w) || w.core.stopping) return;
  r.wanted = false;
  r.outcome = null;
  const abort = new AbortController();
  const off = () => abort.abort();
  w.core.abort.signal.addEventListener('abort', off, { once: true });
  r.abort = abort;
  r.task = redecodeWallet(w, abort.signal)
    .then(
      (finished) => {
        r.outcome = finished ? 'done' : 'stopped';
      },
      (e: unknown) => {
        if (abort.signal.aborted || w.core.stopping) r.outcome = 'stopped';
        else if (isHistoryError(e, 'lease_lost')) {
          // Another instance holds the wallet now; ours is wanted again when the lease comes back.
          r.outcome = 'lease_lost';
          r.wanted = true;
        } else {
          r.outcome = 'failed';
          r.failedAt = w.core.now();
          void recordUpstreamFailure(w.core.db, w.core.state.id, e);
          w.onError?.(isHistoryError(e) ? e : new HistoryError('upstream_unavailable', `Re-decoding failed: ${(e as Error)?.message ?? e}`, { cause: e }));
        }
      },
    )
    .finally(() => {
      w.core.abort.signal.removeEventListener('abort', off);
      r.task = null;
      r.abort = null;
      w.wake();
    });
}

/**
 * The re-decode itself, batch by batch from the stored progress (store/redecode.ts says why oldest
 * first): the stored trades' and unexplained transactions are decoded again by the source
 * (`redecode`: only those transactions are fetched), and each batch replaces their trades and
 * unexplained entries in one transaction with the progress reached. A restart or another holder
 * resumes from the stored progress: nothing is lost or stored twice. Resolves true when the wallet reached the source's version, false when it stopped.
 */
async function redecodeWallet(w: Walker, signal: AbortSignal): Promise<boolean> {
  const { core, source } = w;
  const version = source.decoderVersion ?? 0;
  let begun = await beginRedecode(core.db, core.state.id, version, w.lease.fence());
  apply(w, begun.wallet);
  let progress = begun.progress;
  while (progress) {
    if (core.stopping || signal.aborted) return false;
    const transactions = await transactionsToRedecode(core.db, core.state.id, progress, w.redecode.batchTrades);
    const { trades, unexplained } = transactions.length
      ? await source.redecode!({ wallet: core.state.address, transactions, signal })
      : { trades: [], unexplained: [] };
    if (core.stopping || signal.aborted) return false;
    const to = progressAfter(transactions, progress);
    const stored = await replaceRedecoded(core.db, {
      walletId: core.state.id,
      from: progress,
      to,
      transactions,
      trades,
      unexplained,
      fence: w.lease.fence(),
    });
    if (!stored) {
      // The stored progress moved (another holder went on meanwhile): go on from it.
      begun = await beginRedecode(core.db, core.state.id, version, w.lease.fence());
      apply(w, begun.wallet);
      progress = begun.progress;
      continue;
    }
    // Rows replaced count as inserts for the planner's statistics, as a walk's do.
    w.statistics?.inserted(trades.length);
    apply(w, stored);
    progress = to.after >= to.end ? null : to;
  }
  return core.state.decoderVersion >= version;
}

/** The wallet's figures as the re-decode left them, for readers (the counts, the oldest trade, the version). */
function apply({ core }: Walker, f: RedecodedWallet): void {
  const s = core.state;
  if (s.tradeCount === f.tradeCount && s.firstTrade === f.firstTrade && s.decoderVersion === f.decoderVersion && s.unexplainedCount === f.unexplainedCount)
    return;
  core.state = { ...s, ...f };
  core.notify();
}
