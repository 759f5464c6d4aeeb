/** Little-endian u64 at `o` as a bigint. */
export function readU64(b: Uint8Array, o: number): bigint {
  const lo = (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16)) + b[o + 3] * 0x1000000;
  const hi = (b[o + 4] | (b[o + 5] << 8) | (b[o + 6] << 16)) + b[o + 7] * 0x1000000;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** Bytes of a standard base64 string (a `Program data:` payload), or null when it is not base64. */
export function base64Bytes(s: string): Uint8Array | null {
  let bin: string;
  try {
    bin = atob(s);
  } catch {
    return null;
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
