import { sha256 } from 'viem';
import { base58Decode } from '../shared/base58.js';

/**
 * A Tron address as decisions.md defines it: base58check of 25 bytes (0x41, 20 address bytes,
 * 4 checksum bytes = first 4 of sha256(sha256(21 bytes))). Case-sensitive; nothing is trimmed.
 */
export function isTronAddress(s: string): boolean {
  if (typeof s !== 'string' || s.length !== 34 || s[0] !== 'T') return false;
  const b = base58Decode(s);
  if (!b || b.length !== 25 || b[0] !== 0x41) return false;
  const check = sha256(sha256(b.subarray(0, 21)), 'bytes');
  return check[0] === b[21] && check[1] === b[22] && check[2] === b[23] && check[3] === b[24];
}
