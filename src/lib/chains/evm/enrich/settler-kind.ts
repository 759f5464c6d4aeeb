import type { KeyedKind } from '../../families.js';

/**
 * What a chain's source has read of 0x's Settler registry (enrich/settlers.ts), as the store
 * keeps it under one key per chain. A module of its own, without the hashing, so the family table
 * can name the kind without pulling the decoders into the dashboard.
 */
export interface SettlerRegistryRead {
  /** The registry's logs are read through this block (-1: never read). */
  through: number;
  /** Settler instances its Transfers named, lowercase. */
  instances: string[];
  /** Read from block 0 without a gap: the instances are all there are through `through`. */
  whole: boolean;
}

const ADDRESS = /^0x[0-9a-f]{40}$/;

export function isSettlerRegistryRead(v: unknown): v is SettlerRegistryRead {
  const r = v as SettlerRegistryRead;
  return (
    !!r &&
    typeof r === 'object' &&
    Number.isSafeInteger(r.through) &&
    r.through >= -1 &&
    typeof r.whole === 'boolean' &&
    Array.isArray(r.instances) &&
    r.instances.every((a) => typeof a === 'string' && ADDRESS.test(a))
  );
}

/** The store's kind for it (the family table passes `keyed(ZEROX_SETTLERS)` to the source). */
export const ZEROX_SETTLERS: KeyedKind<SettlerRegistryRead> = { name: 'evm-0x-settlers', accept: isSettlerRegistryRead };
