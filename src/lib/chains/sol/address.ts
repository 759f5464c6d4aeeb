/**
 * Solana addresses: base58 (Bitcoin alphabet) of exactly 32 bytes. Off-curve addresses (PDAs,
 * e.g. associated token accounts) are valid wallet addresses too, so there is no curve check.
 * Plain code over Uint8Array: it runs in a browser Web Worker as well as in Node.
 */

import { base58Decode } from '../shared/base58.js';

// Re-exported: tests and the replay server build addresses and signatures with it.
export { base58Decode, base58Encode } from '../shared/base58.js';

/**
 * True when `s` is a Solana address: base58 decoding to exactly 32 bytes. No trimming: a value
 * with surrounding whitespace is not an address (decisions.md, address vectors). 32 bytes take
 * 32 to 44 characters, so anything outside that range is rejected before decoding.
 */
export function isSolanaAddress(s: string): boolean {
  if (typeof s !== 'string' || s.length < 32 || s.length > 44) return false;
  const bytes = base58Decode(s);
  return bytes !== null && bytes.length === 32;
}
