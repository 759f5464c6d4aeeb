import type { CallFrame } from '../../../src/lib/chains/evm/rpc-methods.js';

/** An explorer's internal-transaction row (Etherscan's `txlistinternal`), as recorded. */
export interface ExplorerInternalRow {
  from: string;
  to: string;
  /** Wei, decimal. */
  value: string;
  /** `call`, `create`, `suicide` (`selfdestruct` on some explorers). */
  type: string;
  /** Blockscout-style rows say which call it was (`call`, `delegatecall`, ...). */
  callType?: string;
  /** '1' when the call reverted. */
  isError: string;
  contractAddress?: string;
}

const hex = (wei: string | bigint) => '0x' + BigInt(wei).toString(16);

function frameType(r: ExplorerInternalRow): string {
  const t = (r.callType || r.type).toLowerCase();
  if (t === 'create' || t === 'create2') return t.toUpperCase();
  if (t === 'suicide' || t === 'selfdestruct') return 'SELFDESTRUCT';
  if (t === 'delegatecall' || t === 'staticcall' || t === 'callcode') return t.toUpperCase();
  return 'CALL';
}

/**
 * A `debug_traceTransaction` call-tracer answer built from the facts recorded for a transaction:
 * its top call (sender, `to`, value) and the explorer's internal-transaction rows. The rows carry
 * no nesting, so every row is a child of the top call, in the explorer's order: the nesting is not
 * invented (a decoder reading the answer can rely on who paid whom and how much, which are the
 * explorer's facts, not on which call made which). A row marked as an error is a reverted frame.
 * `rows === null` (nothing recorded): null, a transaction the replay cannot trace.
 */
export function callFrameOf(
  tx: { from: string; to: string | null; value: string },
  rows: readonly ExplorerInternalRow[] | null,
  contractAddress?: string | null,
): CallFrame | null {
  if (rows === null) return null;
  const created = tx.to === null;
  return {
    type: created ? 'CREATE' : 'CALL',
    from: tx.from.toLowerCase(),
    to: (created ? (contractAddress ?? '') : tx.to!).toLowerCase(),
    value: hex(tx.value),
    calls: rows.map((r) => ({
      type: frameType(r),
      from: r.from.toLowerCase(),
      to: (r.to || r.contractAddress || '').toLowerCase(),
      value: hex(r.value || '0'),
      ...(r.isError && r.isError !== '0' ? { error: 'execution reverted' } : {}),
    })),
  };
}
