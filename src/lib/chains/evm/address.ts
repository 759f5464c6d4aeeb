import { keccak256, stringToBytes } from 'viem';

const HEX40 = /^0x[0-9a-fA-F]{40}$/;

/**
 * EIP-55 form of a 20-byte address: a hex letter is upper case when the matching nibble of
 * keccak256(lowercase hex without 0x) is >= 8. Takes any case; throws on a malformed address.
 */
export function toChecksumAddress(address: string): string {
  if (!HEX40.test(address)) throw new RangeError(`not an EVM address: ${address}`);
  const lower = address.slice(2).toLowerCase();
  const hash = keccak256(stringToBytes(lower)).slice(2);
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const c = lower[i];
    out += c >= 'a' && parseInt(hash[i], 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

/**
 * The stored form of an EVM address (decisions.md: compared and stored lowercase), or null when
 * `s` is not `0x` + 40 hex digits or is mixed case with a wrong EIP-55 checksum. All-lowercase and
 * all-uppercase hex carry no checksum and are accepted. `0X` is rejected (policy in the vectors).
 */
export function normalizeEvmAddress(s: string): string | null {
  if (typeof s !== 'string' || !HEX40.test(s)) return null;
  const body = s.slice(2);
  const lower = body.toLowerCase();
  if (body === lower || body === body.toUpperCase()) return '0x' + lower;
  return toChecksumAddress(s) === s ? '0x' + lower : null;
}
