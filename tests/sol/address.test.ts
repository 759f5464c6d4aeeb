import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { base58Decode, base58Encode, isSolanaAddress } from '../../src/lib/chains/sol/address.js';

const vectors = JSON.parse(readFileSync(new URL('../fixtures/address-vectors.json', import.meta.url), 'utf8')) as {
  solana: { valid: string[]; invalid: Record<string, string> };
};

describe('isSolanaAddress', () => {
  it.each(vectors.solana.valid)('accepts %s', (a) => {
    expect(isSolanaAddress(a)).toBe(true);
  });
  it.each(Object.entries(vectors.solana.invalid))('rejects %j (%s)', (a) => {
    expect(isSolanaAddress(a)).toBe(false);
  });
  it('rejects trailing whitespace and non-ASCII look-alikes', () => {
    expect(isSolanaAddress('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM ')).toBe(false);
    expect(isSolanaAddress('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWМ')).toBe(false); // Cyrillic M
  });
});

describe('base58', () => {
  it('round-trips bytes with leading zeros', () => {
    for (const bytes of [new Uint8Array(0), new Uint8Array([0, 0, 1, 2, 255]), new Uint8Array(64).fill(255), new Uint8Array(32)]) {
      expect(base58Decode(base58Encode(bytes))).toEqual(bytes);
    }
  });
  it('decodes a known address to its 32 bytes', () => {
    // The System Program is 32 zero bytes; wrapped SOL starts 0x06 0x9b.
    expect(base58Decode('11111111111111111111111111111111')).toEqual(new Uint8Array(32));
    const wsol = base58Decode('So11111111111111111111111111111111111111112')!;
    expect(wsol.length).toBe(32);
    expect([wsol[0], wsol[1]]).toEqual([0x06, 0x9b]);
  });
});
