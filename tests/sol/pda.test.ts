import { createHash } from 'node:crypto';
import { address, getAddressEncoder, getProgramDerivedAddress, isOffCurveAddress } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { base58Encode } from '../../src/lib/chains/shared/base58.js';
import { findProgramAddress, isOnCurve, sha256 } from '../../src/lib/chains/sol/pda.js';
import { createPrng } from '../support/sol-replay/synth.js';

const rng = createPrng(23);
const randomBytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(rng() * 256));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const enc = getAddressEncoder();
const bytesOf = (a: string) => enc.encode(address(a)) as Uint8Array;

const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

describe('sha256', () => {
  it('matches the FIPS 180-2 examples', () => {
    expect(hex(sha256(new TextEncoder().encode('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256(new TextEncoder().encode('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('matches node:crypto at every length around the block and padding edges', () => {
    for (let n = 0; n <= 200; n++) {
      const m = randomBytes(n);
      expect(hex(sha256(m)), `length ${n}`).toBe(createHash('sha256').update(m).digest('hex'));
    }
  });
});

describe('isOnCurve', () => {
  it('agrees with @solana/kit on random 32-byte strings', () => {
    let on = 0;
    for (let i = 0; i < 400; i++) {
      const b = randomBytes(32);
      const mine = isOnCurve(b);
      expect(mine, hex(b)).toBe(!isOffCurveAddress(address(base58Encode(b))));
      if (mine) on++;
    }
    // About half of all strings are points: both answers must occur, or the test proves nothing.
    expect(on).toBeGreaterThan(120);
    expect(on).toBeLessThan(280);
  });

  it('knows a real signer from a real program-derived address', () => {
    // A signer of fixture 2BppD7Zq... (an ed25519 public key), and USDC's Metaplex metadata account.
    expect(isOnCurve(bytesOf('4qLQDSpCwGJSig3tDvkfUbgW1TJWgeABpr5BtR3r3vZo'))).toBe(true);
    expect(isOnCurve(bytesOf('5x38Kp4hvdomTCnCrAny4UtMUt5rQBdB6px2K1Ui45Wq'))).toBe(false);
  });

  it('takes y = 1 (x = 0) as a point only with the sign bit clear', () => {
    const y1 = new Uint8Array(32);
    y1[0] = 1;
    expect(isOnCurve(y1)).toBe(true);
    y1[31] = 0x80;
    expect(isOnCurve(y1)).toBe(false);
    expect(isOnCurve(new Uint8Array(31))).toBe(false);
  });

  it('takes y >= p modulo p, as @solana/kit does', () => {
    // p = 2^255 - 19 little-endian: 0xed, then 0xff x 30, then 0x7f. y = p is y = 0 (x^2 = -1, a
    // point); y = p + 1 is y = 1 (x = 0), a point only with the sign bit clear.
    const p = new Uint8Array(32).fill(0xff);
    p[0] = 0xed;
    p[31] = 0x7f;
    const p1 = p.slice();
    p1[0] = 0xee;
    const p1Signed = p1.slice();
    p1Signed[31] |= 0x80;
    for (const b of [p, p1, p1Signed]) expect(isOnCurve(b), hex(b)).toBe(!isOffCurveAddress(address(base58Encode(b))));
    expect([isOnCurve(p), isOnCurve(p1), isOnCurve(p1Signed)]).toEqual([true, true, false]);
  });
});

describe('findProgramAddress', () => {
  it('finds the associated token accounts that real transactions used', () => {
    // From the fixtures' token balances: (owner, mint) -> the token account the transaction touched.
    const cases = [
      ['4qLQDSpCwGJSig3tDvkfUbgW1TJWgeABpr5BtR3r3vZo', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'E9yL2enviMKkDo9wM1ifobKSHzMWdCMtffk5tNhGRKxQ'],
      ['De1Rgnd2nR2bZmvxj9gKfXJhhHDZVuTB3FKNSCwbdUrj', 'DeXRw2jRpVWEhXnM4BG9fjDkFxc7eQ17TPQWezegG9CS', '3DZV4QvrnvVeZZCStrS8bwdra4T5twZr7LNYhQkzaq2a'],
    ];
    for (const [owner, mint, account] of cases) {
      expect(findProgramAddress([bytesOf(owner), bytesOf(TOKEN_PROGRAM), bytesOf(mint)], ATA_PROGRAM).address).toBe(account);
    }
  });

  it('agrees with @solana/kit, bump included, on random seeds', async () => {
    let belowTop = 0;
    for (let i = 0; i < 60; i++) {
      const seeds = [new TextEncoder().encode('metadata'), randomBytes(32), randomBytes(1 + (i % 32))];
      const [pda, bump] = await getProgramDerivedAddress({ programAddress: address(ATA_PROGRAM), seeds });
      expect(findProgramAddress(seeds, ATA_PROGRAM)).toEqual({ address: pda, bump });
      if (bump < 255) belowTop++;
    }
    // Bump 255 lands on the curve about half the time: the search past it is exercised.
    expect(belowTop).toBeGreaterThan(10);
  });

  it('refuses a malformed program id and an over-long seed', () => {
    expect(() => findProgramAddress([], 'not-base58!')).toThrow(/program id/);
    expect(() => findProgramAddress([new Uint8Array(33)], ATA_PROGRAM)).toThrow(/32 bytes/);
  });
});
