import { getBase58Decoder, getBase58Encoder } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { base58Decode, base58Encode } from '../../src/lib/chains/shared/base58.js';

/** The hand-written decoder (kept for speed, see its header) against @solana/kit's codec. */
describe('base58 against @solana/kit', () => {
  const kitText = getBase58Decoder();
  const kitBytes = getBase58Encoder();
  let seed = 11;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const samples: Uint8Array[] = [new Uint8Array(0), new Uint8Array(1), new Uint8Array(32), Uint8Array.from([0, 0, 1]), new Uint8Array(64).fill(255)];
  for (let i = 0; i < 500; i++) {
    const b = new Uint8Array(rand(300)).map(() => rand(256));
    // Leading zero bytes are base58's one special case: give a third of the samples some.
    if (i % 3 === 0) b.fill(0, 0, Math.min(b.length, rand(5)));
    samples.push(b);
  }
  it('decodes what @solana/kit encodes, and encodes the same text, for 505 byte strings', () => {
    for (const b of samples) {
      const text = kitText.decode(b);
      expect(base58Encode(b)).toBe(text);
      expect(base58Decode(text)).toEqual(Uint8Array.from(kitBytes.encode(text)));
    }
  });
  it('encodes a slice as the library encodes that slice', () => {
    const b = Uint8Array.from({ length: 40 }, (_, i) => (i * 7) & 255);
    expect(base58Encode(b, 3, 20)).toBe(kitText.decode(b.subarray(3, 23)));
  });
  it('refuses characters outside the alphabet', () => {
    for (const bad of ['0', 'O', 'I', 'l', '+', 'abc!']) expect(base58Decode(bad)).toBeNull();
  });
});
