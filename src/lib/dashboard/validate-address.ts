/**
 * Address validation with the server's own validators (the family table, chains/families.ts), so
 * the page never accepts what the API will refuse with invalid_address.
 */
import { FAMILIES, type ChainFamily } from '../chains/families.js';

export type AddressFamily = ChainFamily;

export interface AddressCheck {
  ok: boolean;
  /** The address as it is sent to the API (EVM: its stored, lowercase form). */
  value: string;
  message: string | null;
}

export function checkAddress(family: AddressFamily, input: string): AddressCheck {
  const s = input.trim();
  if (!s) return { ok: false, value: s, message: null };
  const f = FAMILIES[family];
  const v = f.parseAddress(s);
  return v ? { ok: true, value: v.stored, message: null } : { ok: false, value: s, message: `Not ${f.rule}.` };
}
