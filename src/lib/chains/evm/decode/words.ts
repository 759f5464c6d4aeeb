/** Word `i` (32 bytes) of hex event or call data as an unsigned integer; 0 when the data is short. */
export function dataWord(data: string, i: number): bigint {
  const d = data.startsWith('0x') ? data.slice(2) : data;
  const w = d.slice(i * 64, i * 64 + 64);
  return w.length === 64 ? BigInt('0x' + w) : 0n;
}

/** Word `i` read as a two's-complement signed 256-bit integer (int128/int24 are sign-extended to 256 bits in the ABI). */
export function signedDataWord(data: string, i: number): bigint {
  return BigInt.asIntN(256, dataWord(data, i));
}

/** The address held in the low 20 bytes of a word, lowercase. */
export function wordToAddress(w: bigint): string {
  return '0x' + (w & ((1n << 160n) - 1n)).toString(16).padStart(40, '0');
}
