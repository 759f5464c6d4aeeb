/**
 * Exact decimal formatting of raw integer amounts: `formatUnits(1230000n, 6) === "1.23"`.
 * No exponent, no trailing zeros after the point, no point when the fraction is zero
 * (decisions.md: amounts are exact decimal literals).
 */
export function formatUnits(raw: bigint, decimals: number): string {
  if (raw < 0n) throw new RangeError('formatUnits takes a non-negative amount');
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) throw new RangeError(`bad decimals: ${decimals}`);
  const s = raw.toString();
  if (decimals === 0) return s;
  const whole = s.length > decimals ? s.slice(0, s.length - decimals) : '0';
  const frac = (s.length > decimals ? s.slice(s.length - decimals) : s.padStart(decimals, '0')).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/** Inverse of formatUnits: the raw integer of a decimal literal at `decimals` places. */
export function parseUnits(value: string, decimals: number): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!m) throw new RangeError(`not a decimal: ${value}`);
  const frac = m[2] ?? '';
  if (frac.length > decimals) throw new RangeError(`${value} has more than ${decimals} decimals`);
  return BigInt(m[1] + frac.padEnd(decimals, '0'));
}
