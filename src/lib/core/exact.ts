/**
 * Exact decimal arithmetic on scaled bigints for PnL (the dashboard's and the engine's, pnl/). Every amount is held as an integer count of
 * 1e-36 units: 36 places cover the 18 decimals of EVM amounts twice over, so an average-cost
 * division (cost * sold / held) rounds at 1e-36 native, far below any displayed digit.
 */
import { formatUnits } from 'viem';

export const SCALE_DIGITS = 36;

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** 10^0 … 10^36, so a parsed amount is scaled by one multiplication. */
const POW10 = Array.from({ length: SCALE_DIGITS + 1 }, (_, i) => 10n ** BigInt(i));

/**
 * One test, one BigInt of the digits as written and one multiplication by a power of ten: the PnL
 * of 100,000 trades parses 300,000 amounts, and BigInt's parse grows with the digits, so the 36
 * places are not written out as zeros first (57 → 51 ms for those 300,000 in Node 20).
 */
export function toScaled(s: string): bigint {
  if (!DECIMAL.test(s)) throw new RangeError(`not a decimal: ${s}`);
  const dot = s.indexOf('.');
  if (dot < 0) return BigInt(s) * POW10[SCALE_DIGITS];
  // Digits past 36 places are cut (no amount on any chain here has more than 18 decimals).
  const frac = s.slice(dot + 1, dot + 1 + SCALE_DIGITS);
  return BigInt(s.slice(0, dot) + frac) * POW10[SCALE_DIGITS - frac.length];
}

/** The exact literal of a scaled value (viem's formatUnits, which also writes the sign). */
export function fromScaled(v: bigint): string {
  return formatUnits(v, SCALE_DIGITS);
}

/** a * b / c with the quotient rounded half away from zero (c > 0). */
export function mulDiv(a: bigint, b: bigint, c: bigint): bigint {
  if (c <= 0n) throw new RangeError('mulDiv by a non-positive divisor');
  const p = a * b;
  const q = p / c;
  const r = p % c;
  if (r === 0n) return q;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= c) return p < 0n ? q - 1n : q + 1n;
  return q;
}

/** a * b / c with the quotient rounded half to even (c > 0): the PnL engine's average cost (decisions.md). */
export function mulDivHalfEven(a: bigint, b: bigint, c: bigint): bigint {
  if (c <= 0n) throw new RangeError('mulDiv by a non-positive divisor');
  const p = a * b;
  let q = p / c;
  // One division: the remainder from the quotient (a multiplication costs far less than a second division).
  let r = p - q * c;
  if (r === 0n) return q;
  // Toward negative infinity first, then the remainder against half the divisor.
  if (r < 0n) {
    q -= 1n;
    r += c;
  }
  const twice = r * 2n;
  if (twice > c || (twice === c && q % 2n !== 0n)) q += 1n;
  return q;
}

/** Rounded display at `places` decimals with thousands separators left to the caller. */
export function roundScaled(v: bigint, places: number): string {
  const unit = 10n ** BigInt(SCALE_DIGITS - places);
  const r = mulDiv(v, 1n, unit);
  const neg = r < 0n;
  const a = neg ? -r : r;
  const s = a.toString().padStart(places + 1, '0');
  const whole = s.slice(0, s.length - places);
  const frac = places > 0 ? s.slice(s.length - places) : '';
  const body = frac ? `${whole}.${frac}` : whole;
  return neg && /[1-9]/.test(body) ? `-${body}` : body;
}

/** A float for plotting only (the chart's pixel positions), never for sums. */
export function scaledToNumber(v: bigint): number {
  return Number(v / 10n ** 18n) / 1e18;
}

export const ZERO = 0n;
