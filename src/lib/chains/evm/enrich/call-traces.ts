import { HistoryError } from '../../../core/errors.js';
import { sleep } from '../../../core/wait.js';
import type { RpcTransport } from '../../../rpc/json-rpc.js';
import type { PoolKeys } from '../decode/decode-receipt.js';
import { NATIVE_CURRENCY } from '../decode/pool-key.js';
import type { InternalTransfer } from '../decode/movements.js';
import type { RpcReceipt } from '../decode/rpc-types.js';
import { hookMayTakeDelta, type V4Hop } from '../decode/v4.js';
import type { EvmChainConfig } from '../registry.js';
import { debugTraceCalls, ethCallMany, rpcError, type CallFrame } from '../rpc-methods.js';
import { nativeHops, silentHookVenues, type HookedHop, type SilentHookVenue } from './silent-hooks.js';
import { internalTransfers, routeNativeIntoVenue } from './trace-native.js';

/** What the call trace of one transaction says, for the decoder. */
export interface TracedTransaction {
  /** What the route paid into each silent hook's manager (keyed by the manager that emitted the Swap); absent when it was traced for another reason. */
  native?: ReadonlyMap<string, bigint>;
  /** Native coin moved by its internal calls (trace-native.ts). */
  internal: InternalTransfer[];
  /** Its top call: the contract called and the value paid to it. */
  transaction: { to: string | null; value: bigint };
}

export interface CallTracesRequest {
  /** Transactions (lowercase hashes) whose route its logs leave open (decode/open-route.ts): traced too. */
  open?: ReadonlySet<string>;
  signal?: AbortSignal;
}

/** The traces of the receipts that need one (lowercase hash -> what it says), in one batch. */
export type CallTraces = (receipts: readonly RpcReceipt[], poolKeys: PoolKeys, request?: CallTracesRequest) => Promise<Map<string, TracedTransaction>>;

export interface CallTracesOptions {
  rpc: RpcTransport;
  chain: Pick<EvmChainConfig, 'slug' | 'dexes'>;
  /** false: never ask (the Swap event's figure throughout). */
  enabled?: boolean;
  /** Where the source says, once, that it falls back to the Swap event's figure. */
  log?: (line: string) => void;
  /**
   * Waits before sending again the traces refused with a transient error the transport does not
   * send again itself (a timeout or a lagging node worded as -32000): default 0.5, 2 and 8 s,
   * then the batch fails as any RPC error does.
   */
  resendDelaysMs?: readonly number[];
}

/** How a node's refusal of one trace is taken. */
export type TraceRefusal = 'no-method' | 'no-state' | 'transient' | 'other';

/** "method not found" and how providers word a method they do not serve on a plan or network. */
const NO_METHOD =
  /method[^.]{0,60}(not (found|available|supported|allowed|enabled)|does not exist|unsupported|disabled)|unsupported method|(not (available|supported|enabled|allowed)|disabled) (on|for|in) (your|this|the|free)[^.]{0,40}(plan|tier|network|chain|node|endpoint)|debug(_| namespace| api)[^.]{0,40}(not (available|supported|enabled)|disabled)/i;
/** A node that keeps no state old enough to replay the transaction (pruned, not an archive): it never will. */
const NO_STATE = /missing trie node|historical state|state (is )?(not available|unavailable)|required state|pruned/i;
/** A refusal worth another try: a timeout, a rate or capacity limit, a node behind the one that served the receipt. */
const TRANSIENT =
  /time(d)? ?out|deadline|rate|too many|limit|exceeded|busy|capacity|overload|try again|temporar|unavailable|not found|unknown (block|transaction)|header/i;

export function traceRefusal(error: { code: number; message: string }): TraceRefusal {
  if (error.code === -32601 || NO_METHOD.test(error.message)) return 'no-method';
  if (NO_STATE.test(error.message)) return 'no-state';
  if (TRANSIENT.test(error.message)) return 'transient';
  return 'other';
}

/** PancakeSwap Infinity `IHooks.getHooksRegistrationBitmap()`. */
const REGISTRATION_BITMAP_SELECTOR = '0xf961d1f4';
/**
 * Infinity's BEFORE_SWAP_RETURNS_DELTA (offset 10) and AFTER_SWAP_RETURNS_DELTA (offset 11) in a
 * hook's registration bitmap (infinity-core ICLHooks.sol, IBinHooks.sol: the same offsets).
 */
const INFINITY_SWAP_DELTA_BITS = (1 << 10) | (1 << 11);

const isFrame = (v: unknown): v is CallFrame =>
  !!v && typeof v === 'object' && typeof (v as CallFrame).from === 'string' && typeof (v as CallFrame).type === 'string';

/**
 * The call traces the decoder needs, one `debug_traceTransaction` (call tracer) per transaction,
 * all in one batch:
 *  - receipts with one native V4 or Infinity hop through a hook that may move the amounts and
 *    emitted no HookFee or HookSwap: what the swapper's route paid into the venue and its hooks
 *    (trace-native.ts);
 *  - the transactions whose route their logs leave open (`open`, decode/open-route.ts): the
 *    native coin their internal calls moved.
 * Every traced transaction hands the decoder its internal value transfers and its top call (what
 * a trace fetched shows counts, decisions.md).
 *
 * A trace refused with a transient error is sent again (the transport's retries, then ours), and
 * a batch still refused fails as any RPC error does: a figure stored for good is never the
 * fallback's by accident. Only a node that lacks the method falls back to the Swap event's
 * figure (decisions.md), decided for this source (its endpoint) on the first such answer, and
 * said once in the log; a node that keeps no state old enough to trace one transaction (a pruned
 * node) gives that transaction the fallback, also said once. Any other refusal is an RPC error.
 */
export function createCallTraces({ rpc, chain, enabled, log, resendDelaysMs = [500, 2_000, 8_000] }: CallTracesOptions): CallTraces {
  let available = enabled !== false;
  const said = new Set<TraceRefusal>();
  const vaults = new Map<string, string>();
  for (const d of chain.dexes) if (d.kind === 'infinity') for (const m of d.poolManagers) vaults.set(m, d.vault);
  /** Infinity hooks' registration bitmaps, read once per source (null: the hook did not answer). */
  const bitmaps = new Map<string, number | null>();

  const holderOf = (hop: V4Hop) => (hop.family === 'infinity' ? vaults.get(hop.manager) : hop.manager);
  const mayTakeDelta = ({ hop, key }: HookedHop) => {
    if (hop.family === 'uniswap') return hookMayTakeDelta(key!.hooks);
    const bitmap = bitmaps.get(key!.hooks);
    // A hook that did not say: it may (a trace costs less than a wrong figure stored for good).
    return bitmap === null || bitmap === undefined || (bitmap & INFINITY_SWAP_DELTA_BITS) !== 0;
  };

  function sayOnce(kind: TraceRefusal, error: { code: number; message: string }): void {
    if (said.has(kind)) return;
    said.add(kind);
    const why = `${error.message}, code ${error.code}`;
    log?.(
      kind === 'no-method'
        ? `${chain.slug}: the RPC does not serve debug_traceTransaction (${why}); swaps through a V4 or Infinity hook that emitted nothing take the Swap event's figure, and routes whose native coin moves by internal calls are read from their logs alone`
        : `${chain.slug}: the RPC keeps no state to trace some transactions (${why}); those are read from their logs alone (a silent hook's swap takes the Swap event's figure)`,
    );
  }

  async function readBitmaps(hops: readonly HookedHop[], signal?: AbortSignal): Promise<void> {
    const hooks = [...new Set(hops.filter((h) => h.hop.family === 'infinity' && h.key && h.key.hooks !== NATIVE_CURRENCY).map((h) => h.key!.hooks))];
    const unknown = hooks.filter((h) => !bitmaps.has(h));
    if (!unknown.length) return;
    const answers = await ethCallMany(
      rpc,
      unknown.map((to) => ({ to, data: REGISTRATION_BITMAP_SELECTOR })),
      signal,
    );
    unknown.forEach((h, i) => {
      const a = answers[i];
      bitmaps.set(h, a.ok && typeof a.result === 'string' && a.result.length >= 66 ? Number(BigInt(a.result.slice(0, 66)) & 0xffffn) : null);
    });
  }

  /** Traces of `hashes`, sent again while refused with a transient error; the no-method and no-state ones left out. */
  async function traceAll(hashes: readonly string[], signal?: AbortSignal): Promise<Map<string, CallFrame>> {
    const got = new Map<string, CallFrame>();
    let pending = [...hashes];
    for (let round = 0; pending.length > 0; round++) {
      const answers = await debugTraceCalls(rpc, pending, signal);
      const again: string[] = [];
      let last = { code: 0, message: '' };
      for (let i = 0; i < pending.length; i++) {
        const a = answers[i];
        if (a.ok && isFrame(a.result)) {
          got.set(pending[i], a.result);
          continue;
        }
        const error = a.ok ? { code: 0, message: 'transaction not found (no call frame answered)' } : a.error;
        const kind = traceRefusal(error);
        if (kind === 'other') throw rpcError('debug_traceTransaction', error);
        if (kind === 'no-method') available = false;
        if (kind === 'no-method' || kind === 'no-state') sayOnce(kind, error);
        else again.push(pending[i]);
        last = error;
      }
      if (!available) break;
      if (again.length && round >= resendDelaysMs.length) {
        throw new HistoryError(
          'rpc_error',
          `debug_traceTransaction: ${again.length} traces still refused after ${round + 1} attempts (${last.message}, code ${last.code})`,
          {
            retryable: true,
            context: { method: 'debug_traceTransaction', code: last.code, message: last.message },
          },
        );
      }
      if (again.length) await sleep(resendDelaysMs[round], signal);
      pending = again;
    }
    return got;
  }

  return async function callTraces(receipts, poolKeys, { open, signal } = {}) {
    const out = new Map<string, TracedTransaction>();
    if (!available) return out;
    const ok = receipts.filter((r) => r.status === undefined || r.status === '0x1');
    const hooked = ok
      .map((r) => ({ r, hops: nativeHops(r.logs, poolKeys, holderOf) }))
      .filter((c) => c.hops.some((h) => h.key && h.key.hooks !== NATIVE_CURRENCY));
    if (hooked.length)
      await readBitmaps(
        hooked.flatMap((c) => c.hops),
        signal,
      );
    const venues = new Map<string, SilentHookVenue[]>();
    for (const { r, hops } of hooked) {
      const v = silentHookVenues(hops, r.logs, mayTakeDelta);
      if (v.length) venues.set(r.transactionHash.toLowerCase(), v);
    }
    const wanted = ok.map((r) => r.transactionHash.toLowerCase()).filter((h) => venues.has(h) || open?.has(h));
    if (!wanted.length) return out;
    const traces = await traceAll(wanted, signal);
    for (const h of wanted) {
      const trace = traces.get(h);
      if (!trace) continue;
      const v = venues.get(h);
      out.set(h, {
        ...(v ? { native: new Map(v.map((x) => [x.manager, routeNativeIntoVenue(trace, x.holder, x.hooks)])) } : {}),
        internal: internalTransfers(trace),
        transaction: { to: trace.to?.toLowerCase() ?? null, value: trace.value ? BigInt(trace.value) : 0n },
      });
    }
    return out;
  };
}
