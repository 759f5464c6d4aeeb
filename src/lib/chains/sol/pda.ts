/**
 * Program-derived addresses, computed here and synchronously.
 *
 * @solana/kit's getProgramDerivedAddress takes 0.7-1 ms per address on this machine: SHA-256
 * through crypto.subtle (a promise per bump tried) and an on-curve test that raises to a 252-bit
 * power with a BigInt `%` per step. A cold wallet's first symbol lookup derives the Metaplex
 * address of up to 100 mints on the thread that serves requests, so that was up to ~90 ms
 * before the lookup could leave. Here SHA-256 runs in plain JS and the on-curve test is one
 * Jacobi symbol: 70-180 µs an address (about two tries each), by how busy the thread is.
 */
import { base58Decode, base58Encode } from '../shared/base58.js';

// ---- SHA-256 (FIPS 180-4) ----

/** The first `n` primes. */
function primes(n: number): number[] {
  const out: number[] = [];
  for (let c = 2; out.length < n; c++) if (out.every((p) => c % p !== 0)) out.push(c);
  return out;
}
/**
 * The standard's constants are the first 32 bits of the fractional parts of the cube roots of
 * the first 64 primes (K) and of the square roots of the first 8 (H0). A double carries 52 bits,
 * the integer parts take at most 3, so the 32 bits needed are exact; the test vectors check them.
 */
const frac32 = (x: number) => ((x - Math.floor(x)) * 2 ** 32) >>> 0;
const K = Uint32Array.from(primes(64), (p) => frac32(Math.cbrt(p)));
const H0 = Uint32Array.from(primes(8), (p) => frac32(Math.sqrt(p)));
const W = new Uint32Array(64);

export function sha256(message: Uint8Array): Uint8Array {
  // Padding: a 1 bit, zeros, then the bit length as 64 bits, to a multiple of 64 bytes.
  const blocks = Math.ceil((message.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(message.length / 2 ** 29));
  view.setUint32(padded.length - 4, (message.length * 8) >>> 0);
  const h = H0.slice();
  for (let b = 0; b < blocks; b++) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(b * 64 + i * 4);
    for (let i = 16; i < 64; i++) {
      const x = W[i - 15];
      const y = W[i - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      W[i] = (W[i - 16] + s0 + W[i - 7] + s1) >>> 0;
    }
    let [a, bb, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i] + W[i]) >>> 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & bb) ^ (a & c) ^ (bb & c);
      const t2 = (S0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = bb;
      bb = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a;
    h[1] += bb;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(i * 4, h[i]);
  return out;
}

// ---- ed25519: is a 32-byte string a point's encoding? ----

const P = 2n ** 255n - 19n;
const LOW_255 = 2n ** 255n - 1n;

/** x mod p for 0 <= x < 2^510, using 2^255 = 19 (mod p). */
function reduce(x: bigint): bigint {
  x = (x & LOW_255) + 19n * (x >> 255n);
  x = (x & LOW_255) + 19n * (x >> 255n);
  return x >= P ? x - P : x;
}

function powMod(base: bigint, exp: bigint): bigint {
  let r = 1n;
  let b = base % P;
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) r = reduce(r * b);
    b = reduce(b * b);
  }
  return r;
}

/** The curve's d = -121665/121666 mod p. */
const D = reduce(P - reduce(121665n * powMod(121666n, P - 2n)));

/** The Jacobi symbol (a/n) for odd n > 0, by quadratic reciprocity: 1, -1 or 0. */
function jacobi(a: bigint, n: bigint): number {
  let t = 1;
  a %= n;
  while (a !== 0n) {
    while ((a & 1n) === 0n) {
      a >>= 1n;
      const r = n & 7n;
      if (r === 3n || r === 5n) t = -t;
    }
    const swap = a;
    a = n;
    n = swap;
    if ((a & 3n) === 3n && (n & 3n) === 3n) t = -t;
    a %= n;
  }
  return n === 1n ? t : 0;
}

/**
 * Whether 32 bytes decode to a point of ed25519: y from the low 255 bits, little-endian (y >= p
 * taken mod p), the top bit the sign of x. A point exists when x^2 = (y^2 - 1)/(d y^2 + 1) has a
 * root, that is when u*v (u = y^2 - 1, v = d y^2 + 1, never 0) is 0 or a square mod p. For x = 0
 * (y = 1 or p - 1) the sign bit must be clear, as @solana/kit decides; the runtime's decompression
 * would accept it, but a hash lands there with odds of 2^-253, so addresses agree either way.
 */
export function isOnCurve(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) return false;
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(i === 31 ? bytes[i] & 0x7f : bytes[i]);
  const y2 = reduce(y * y);
  const u = y2 === 0n ? P - 1n : y2 - 1n;
  const v = reduce(D * y2 + 1n);
  const uv = reduce(u * v);
  if (uv === 0n) return (bytes[31] & 0x80) === 0;
  return jacobi(uv, P) === 1;
}

// ---- Program-derived addresses ----

const PDA_MARKER = new TextEncoder().encode('ProgramDerivedAddress');

/**
 * The first off-curve sha256(seeds || bump || program || "ProgramDerivedAddress") for bump 255
 * down to 0, as `find_program_address` does on chain. Throws on a malformed program id.
 */
export function findProgramAddress(seeds: readonly Uint8Array[], programId: string): { address: string; bump: number } {
  const program = base58Decode(programId);
  if (!program || program.length !== 32) throw new Error(`not a program id: ${programId}`);
  let size = 1 + program.length + PDA_MARKER.length;
  for (const s of seeds) {
    if (s.length > 32) throw new Error('a seed is longer than 32 bytes');
    size += s.length;
  }
  const input = new Uint8Array(size);
  let at = 0;
  for (const s of seeds) {
    input.set(s, at);
    at += s.length;
  }
  const bumpAt = at;
  input.set(program, at + 1);
  input.set(PDA_MARKER, at + 1 + program.length);
  for (let bump = 255; bump >= 0; bump--) {
    input[bumpAt] = bump;
    const hash = sha256(input);
    if (!isOnCurve(hash)) return { address: base58Encode(hash), bump };
  }
  throw new Error('no off-curve address for these seeds');
}
