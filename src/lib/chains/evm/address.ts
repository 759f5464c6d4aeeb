import { checksumAddress, isAddress, type Address } from 'viem';

const HEX40 = /^0x[0-9a-fA-F]{40}$/;

/** EIP-55 form of a 20-byte address (viem's checksumAddress). Takes any case; throws on a malformed address. */
export function toChecksumAddress(address: string): string {
  if (!HEX40.test(address)) throw new RangeError(`not an EVM address: ${address}`);
  return checksumAddress(address.toLowerCase() as Address);
}

/**
 * The stored form of an EVM address (decisions.md: compared and stored lowercase), or null when
 * `s` is not `0x` + 40 hex digits or is mixed case with a wrong EIP-55 checksum (viem's strict
 * isAddress). All-lowercase and all-uppercase hex carry no checksum and are accepted (viem would
 * check an all-uppercase one); `0X` is rejected (policy in the address vectors).
 */
export function normalizeEvmAddress(s: string): string | null {
  if (typeof s !== 'string' || !HEX40.test(s)) return null;
  const body = s.slice(2);
  if (body === body.toUpperCase() || isAddress(s, { strict: true })) return '0x' + body.toLowerCase();
  return null;
}
