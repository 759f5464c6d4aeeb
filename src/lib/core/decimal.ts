import { formatUnits as viemFormatUnits } from 'viem';

/**
 * Exact decimal formatting of raw integer amounts: `formatUnits(1230000n, 6) === "1.23"`.
 * No exponent, no trailing zeros after the point, no point when the fraction is zero
 * (decisions.md: amounts are exact decimal literals). viem's formatUnits writes exactly that
 * (checked against the contract's literal rule in tests/core/decimal.test.ts); this adds the
 * contract's bounds: amounts are never negative here.
 */
export function formatUnits(raw: bigint, decimals: number): string {
  if (raw < 0n) throw new RangeError('formatUnits takes a non-negative amount');
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) throw new RangeError(`bad decimals: ${decimals}`);
  return viemFormatUnits(raw, decimals);
}

/** formatUnits for a signed change (a balance that went down): `formatSigned(-1500n, 3) === "-1.5"`. */
export function formatSigned(raw: bigint, decimals: number): string {
  return raw < 0n ? '-' + formatUnits(-raw, decimals) : formatUnits(raw, decimals);
}

/**
 * Inverse of formatUnits: the raw integer of a decimal literal at `decimals` places. Stricter than
 * viem's parseUnits, which rounds: a literal with more places than `decimals` is refused here.
 */
export function parseUnits(value: string, decimals: number): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!m) throw new RangeError(`not a decimal: ${value}`);
  const frac = m[2] ?? '';
  if (frac.length > decimals) throw new RangeError(`${value} has more than ${decimals} decimals`);
  return BigInt(m[1] + frac.padEnd(decimals, '0'));
}
