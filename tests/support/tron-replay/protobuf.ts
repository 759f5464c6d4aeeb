/**
 * The little of protobuf the Tron replay needs (a signed transaction's `raw_data_hex`): the
 * top-level fields of a message, in order, and writing them back byte for byte. Fixed-width
 * fields (wire types 1 and 5) are kept as their bytes.
 */
export interface ProtoField {
  n: number;
  wire: number;
  value: bigint | Uint8Array;
}

function readVarint(b: Uint8Array, i: number): [bigint, number] {
  let r = 0n;
  let s = 0n;
  for (;;) {
    if (i >= b.length) throw new Error('varint runs past the end of the message');
    const x = b[i++];
    r |= BigInt(x & 0x7f) << s;
    s += 7n;
    if (x < 0x80) return [r, i];
  }
}

function writeVarint(v: bigint, out: number[]) {
  if (v < 0n) v = BigInt.asUintN(64, v);
  do {
    const x = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? x | 0x80 : x);
  } while (v > 0n);
}

/** The top-level fields of a message, in order, each with its value (varint) or bytes. */
export function readFields(b: Uint8Array): ProtoField[] {
  const out: ProtoField[] = [];
  let i = 0;
  while (i < b.length) {
    const [k, j] = readVarint(b, i);
    i = j;
    const n = Number(k >> 3n);
    const wire = Number(k & 7n);
    if (wire === 0) {
      const [v, m] = readVarint(b, i);
      out.push({ n, wire, value: v });
      i = m;
    } else if (wire === 2) {
      const [l, m] = readVarint(b, i);
      out.push({ n, wire, value: b.subarray(m, m + Number(l)) });
      i = m + Number(l);
    } else if (wire === 1 || wire === 5) {
      const w = wire === 1 ? 8 : 4;
      out.push({ n, wire, value: b.subarray(i, i + w) });
      i += w;
    } else throw new Error(`wire type ${wire} in the message`);
  }
  return out;
}

/** The fields written back as a message (what readFields read gives the same bytes). */
export function encodeFields(fields: readonly ProtoField[]): Uint8Array {
  const out: number[] = [];
  for (const f of fields) {
    writeVarint(BigInt((f.n << 3) | f.wire), out);
    if (f.wire === 0) writeVarint(f.value as bigint, out);
    else if (f.wire === 2) {
      writeVarint(BigInt((f.value as Uint8Array).length), out);
      out.push(...(f.value as Uint8Array));
    } else out.push(...(f.value as Uint8Array));
  }
  return Uint8Array.from(out);
}
