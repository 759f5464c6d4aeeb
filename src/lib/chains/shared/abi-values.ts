/**
 * Return values of the token getters every EVM-style chain shares (EVM `eth_call`, Tron
 * `triggerconstantcontract`: both answer the ABI-encoded bytes).
 */

function hexToBytes(hex: string): Uint8Array {
  const h = hex.startsWith('0x') ? hex.slice(2) : hex;
  const out = new Uint8Array(Math.floor(h.length / 2));
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
  return out;
}

const clean = (s: string) => s.replaceAll('\u0000', '').trim();

/**
 * A `symbol()` return value as text: an ABI `string`, or a `bytes32` (MKR, SAI and other early
 * tokens) with NUL padding; trimmed of NUL and whitespace (decisions.md), '' when undecodable.
 */
export function decodeSymbol(hex: unknown): string {
  if (typeof hex !== 'string' || !/^0x[0-9a-fA-F]*$/.test(hex)) return '';
  const b = hexToBytes(hex);
  const dec = new TextDecoder('utf-8', { fatal: true });
  if (b.length >= 64) {
    const offsetBig = BigInt('0x' + hex.slice(2, 66));
    const offset = offsetBig < BigInt(b.length) ? Number(offsetBig) : b.length;
    if (offset + 32 <= b.length) {
      const len = Number(BigInt('0x' + hex.slice(2 + offset * 2, 2 + offset * 2 + 64)));
      if (offset + 32 + len <= b.length && len <= 1024) {
        try {
          return clean(dec.decode(b.slice(offset + 32, offset + 32 + len)));
        } catch {
          return '';
        }
      }
    }
  }
  // bytes32, also when followed by more words: early Vyper tokens (Uniswap V1's UNI-V1) return
  // the bytes32 followed by about 4 KB of zeros.
  if (b.length >= 32) {
    let end = 32;
    while (end > 0 && b[end - 1] === 0) end--;
    try {
      return clean(dec.decode(b.slice(0, end)));
    } catch {
      return '';
    }
  }
  return '';
}

/** A `decimals()` return value, or null when it is missing or not a plausible uint8. */
export function decodeDecimals(hex: unknown): number | null {
  if (typeof hex !== 'string' || !/^0x[0-9a-fA-F]{64}/.test(hex)) return null;
  const v = BigInt(hex.slice(0, 66));
  return v <= 255n ? Number(v) : null;
}
