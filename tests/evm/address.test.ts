import { describe, expect, it } from 'vitest';
import vectors from '../fixtures/address-vectors.json' with { type: 'json' };
import { normalizeEvmAddress, toChecksumAddress } from '../../src/lib/chains/evm/address.js';

describe('EVM address validation (EIP-55)', () => {
  it('accepts every valid vector and stores it lowercase', () => {
    for (const a of vectors.evm.valid) expect(normalizeEvmAddress(a), a).toBe(a.toLowerCase());
  });

  it('rejects every invalid vector', () => {
    for (const [a, why] of Object.entries(vectors.evm.invalid)) expect(normalizeEvmAddress(a), why).toBeNull();
  });

  it('echoes the EIP-55 form of mixed-case vectors exactly', () => {
    for (const a of vectors.evm.valid) {
      const body = a.slice(2);
      if (body !== body.toLowerCase() && body !== body.toUpperCase()) expect(toChecksumAddress(a.toLowerCase())).toBe(a);
    }
    expect(toChecksumAddress('0xd8da6bf26964af9d7eed9e03e53415d37aa96045')).toBe('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045');
  });

  it('rejects non-strings and base58 addresses of other families', () => {
    expect(normalizeEvmAddress(42 as unknown as string)).toBeNull();
    for (const a of vectors.tron.invalid ? Object.keys(vectors.tron.valid) : []) expect(normalizeEvmAddress(a)).toBeNull();
    expect(() => toChecksumAddress('0x123')).toThrow(RangeError);
  });
});
