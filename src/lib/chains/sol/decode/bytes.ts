/** Little-endian u64 at `o` as a bigint. */
export function readU64(b: Uint8Array, o: number): bigint {
  const lo = (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16)) + b[o + 3] * 0x1000000;
  const hi = (b[o + 4] | (b[o + 5] << 8) | (b[o + 6] << 16)) + b[o + 7] * 0x1000000;
  return (BigInt(hi) << 32n) | BigInt(lo);
}
