/**
 * Address validation with the server's own validators (decisions.md: base58 of 32 bytes for
 * Solana, 0x + 40 hex with the EIP-55 checksum when mixed-case for EVM, base58check with version
 * 0x41 for Tron), so the page never accepts what the API will refuse with invalid_address.
 */
import { isSolanaAddress } from '../chains/sol/address.js';
import { normalizeEvmAddress } from '../chains/evm/address.js';
import { isTronAddress } from '../chains/tron/address.js';

export type AddressFamily = 'solana' | 'evm' | 'tron';

export interface AddressCheck {
  ok: boolean;
  /** The address as it is sent to the API (EVM: as the validator normalises it). */
  value: string;
  message: string | null;
}

export function checkAddress(family: AddressFamily, input: string): AddressCheck {
  const s = input.trim();
  if (!s) return { ok: false, value: s, message: null };
  if (family === 'solana') {
    const ok = isSolanaAddress(s);
    return { ok, value: s, message: ok ? null : 'Not a Solana address (base58 of 32 bytes).' };
  }
  if (family === 'evm') {
    const v = normalizeEvmAddress(s);
    return v
      ? { ok: true, value: v, message: null }
      : { ok: false, value: s, message: 'Not an EVM address (0x and 40 hex digits; mixed case must pass the checksum).' };
  }
  const ok = isTronAddress(s);
  return { ok, value: s, message: ok ? null : 'Not a Tron address (T…, base58check).' };
}
