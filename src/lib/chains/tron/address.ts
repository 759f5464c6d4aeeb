import { sha256 } from 'viem';
import { base58Decode, base58Encode } from '../shared/base58.js';

/**
 * Tron addresses. One account is 21 bytes (0x41, then the 20 bytes an EVM address would hold),
 * written four ways (tron-endpoints.md): base58check `T…` (what people and the API use), `41` +
 * 40 hex (raw_data, internal transactions), 40 hex without the prefix (log addresses), and a
 * 32-byte word (topics, event data, calldata). The decoder works on one internal form, EVM-like
 * `0x` + 40 lowercase hex, so the event decoding shared with the EVM family reads Tron logs
 * as they are; only what is shown goes back to base58.
 */

const HEX40 = /^[0-9a-f]{40}$/;

function checksum(body: Uint8Array): Uint8Array {
  return sha256(sha256(body), 'bytes').subarray(0, 4);
}

/**
 * A Tron address as decisions.md defines it: base58check of 25 bytes (0x41, 20 address bytes,
 * 4 checksum bytes = first 4 of sha256(sha256(21 bytes))). Case-sensitive; nothing is trimmed.
 */
export function isTronAddress(s: string): boolean {
  if (typeof s !== 'string' || s.length !== 34 || s[0] !== 'T') return false;
  const b = base58Decode(s);
  if (!b || b.length !== 25 || b[0] !== 0x41) return false;
  const check = checksum(b.subarray(0, 21));
  return check[0] === b[21] && check[1] === b[22] && check[2] === b[23] && check[3] === b[24];
}

/** `T…` to the internal form `0x` + 40 lowercase hex; null when not a valid Tron address. */
export function tronToHex(address: string): string | null {
  if (!isTronAddress(address)) return null;
  const b = base58Decode(address)!;
  let h = '0x';
  for (let i = 1; i < 21; i++) h += b[i].toString(16).padStart(2, '0');
  return h;
}

const cache = new Map<string, string>();

/**
 * Any hex form (`0x` + 40, `41` + 40, 40 bare, or a 32-byte word) to base58 `T…`. The last 20
 * bytes are the account. Memoised: a wallet's history names the same few hundred contracts
 * thousands of times, and each encoding costs two sha256.
 */
export function hexToTron(hex: string): string {
  const h = hex.toLowerCase().replace(/^0x/, '').slice(-40);
  if (!HEX40.test(h)) throw new RangeError(`not a 20-byte hex address: ${hex}`);
  const known = cache.get(h);
  if (known) return known;
  const b = new Uint8Array(25);
  b[0] = 0x41;
  for (let i = 0; i < 20; i++) b[i + 1] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
  b.set(checksum(b.subarray(0, 21)), 21);
  const s = base58Encode(b);
  if (cache.size > 50_000) cache.clear();
  cache.set(h, s);
  return s;
}

/** Any hex form (`41…`, bare, `0x…`, a word) to the internal `0x` + 40 lowercase hex. */
export function toInternalHex(hex: string): string {
  const h = hex.toLowerCase().replace(/^0x/, '').slice(-40);
  if (!HEX40.test(h)) throw new RangeError(`not a 20-byte hex address: ${hex}`);
  return '0x' + h;
}
