import type { RpcTransport } from '../../../rpc/json-rpc.js';
import type { PoolKeys } from '../decode/decode-receipt.js';
import type { RpcReceipt } from '../decode/rpc-types.js';
import { nativeIntoManager, silentHookManagers } from '../decode/v4.js';
import { debugTraceCalls } from '../rpc-methods.js';

/** What each traced transaction (lowercase hash) paid into each silent hook's manager. */
export type TraceSilentHooks = (receipts: readonly RpcReceipt[], poolKeys: PoolKeys, signal?: AbortSignal) => Promise<Map<string, Map<string, bigint>>>;

/**
 * For receipts with one native V4 hop through a hook that may move the amounts and emitted no
 * HookFee or HookSwap: what the transaction paid into each such manager, from its call trace
 * (one batch). A node without traces leaves them to the Swap event's figure (decisions.md).
 *
 * `enabled: false` never asks; otherwise the first answers decide, for the source's lifetime,
 * whether the node keeps traces. Any item refused with "method not found" or a "not found"-like
 * text turns them off, and debugTraceCalls does not re-send refused items (retryItemErrors false).
 */
export function createCallTraces({ rpc, enabled }: { rpc: RpcTransport; enabled?: boolean }): TraceSilentHooks {
  /** Whether the node answers `debug_traceTransaction`: unknown until first asked, then kept. */
  let tracesAvailable: boolean | undefined = enabled === false ? false : undefined;

  return async function traceSilentHooks(receipts, poolKeys, signal) {
    const out = new Map<string, Map<string, bigint>>();
    if (tracesAvailable === false) return out;
    const wanted = receipts.map((r) => ({ r, managers: silentHookManagers(r.logs, poolKeys) })).filter((w) => w.managers.size > 0);
    if (!wanted.length) return out;
    const answers = await debugTraceCalls(
      rpc,
      wanted.map((w) => w.r.transactionHash),
      signal,
    );
    const hooks = new Set([...poolKeys.values()].map((k) => k.hooks));
    answers.forEach((a, i) => {
      if (!a.ok) {
        // -32601 (method not found) and the like: this node keeps no traces; stop asking.
        if (a.error.code === -32601 || /not (found|available|supported)|does not exist|unsupported/i.test(a.error.message)) tracesAvailable = false;
        return;
      }
      tracesAvailable = true;
      const { r, managers } = wanted[i];
      const m = new Map<string, bigint>();
      for (const manager of managers) m.set(manager, nativeIntoManager(a.result, manager, hooks));
      out.set(r.transactionHash.toLowerCase(), m);
    });
    return out;
  };
}
