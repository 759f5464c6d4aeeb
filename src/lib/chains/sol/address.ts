/**
 * Solana addresses: base58 (Bitcoin alphabet) of exactly 32 bytes. Off-curve addresses (PDAs,
 * e.g. associated token accounts) are valid wallet addresses too, so there is no curve check.
 * Plain code over Uint8Array: it runs in a browser Web Worker as well as in Node.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

/** Bytes of a base58 string, or null when it holds a character outside the alphabet. */
export function base58Decode(s: string): Uint8Array | null {
  let zeros = 0;
  while (zeros < s.length && s.charCodeAt(zeros) === 49 /* '1' */) zeros++;
  // log(58)/log(256) ~ 0.733: upper bound of the byte length of the non-zero part.
  const size = Math.ceil((s.length - zeros) * 0.733) + 1;
  const b256 = new Uint8Array(size);
  let length = 0;
  for (let i = zeros; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let carry = c < 128 ? INDEX[c] : -1;
    if (carry < 0) return null;
    let j = 0;
    for (let k = size - 1; (carry !== 0 || j < length) && k >= 0; k--, j++) {
      carry += 58 * b256[k];
      b256[k] = carry & 0xff;
      carry >>= 8;
    }
    length = j;
  }
  const out = new Uint8Array(zeros + length);
  out.set(b256.subarray(size - length), zeros);
  return out;
}

/** Base58 text of bytes (leading zero bytes become '1'). */
export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // log(256)/log(58) ~ 1.366.
  const size = Math.ceil((bytes.length - zeros) * 1.366) + 1;
  const b58 = new Uint8Array(size);
  let length = 0;
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i];
    let j = 0;
    for (let k = size - 1; (carry !== 0 || j < length) && k >= 0; k--, j++) {
      carry += 256 * b58[k];
      b58[k] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    length = j;
  }
  let out = '1'.repeat(zeros);
  for (let k = size - length; k < size; k++) out += ALPHABET[b58[k]];
  return out;
}

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
