/** Display of exact amounts: rounded for the eye, the exact text kept for titles and CSV. */
import { fromScaled, mulDiv, roundScaled, toScaled } from '../core/exact.js';

/** Rounds a decimal string to `places` and groups thousands; exact input, exact rounding. */
export function formatAmount(s: string | null, places = 4): string {
  if (s === null) return '—';
  const [whole, frac] = roundScaled(toScaled(s), places).split('.');
  const neg = whole.startsWith('-');
  const digits = neg ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const f = (frac ?? '').replace(/0+$/, '');
  return `${neg ? '-' : ''}${grouped}${f ? '.' + f : ''}`;
}

/** Places that show a value sensibly: tiny values (meme token prices) get more. */
export function smartPlaces(s: string | null): number {
  if (s === null) return 2;
  const a = s.replace('-', '');
  if (a.startsWith('0.')) {
    const lead = /^0\.(0*)/.exec(a)![1].length;
    return Math.min(lead + 4, 18);
  }
  return a.split('.')[0].length > 6 ? 0 : 4;
}

export function formatSmart(s: string | null): string {
  return formatAmount(s, smartPlaces(s));
}

export function signClass(s: string | null): string {
  if (!s || /^0(\.0*)?$/.test(s)) return '';
  return s.startsWith('-') ? 'neg' : 'pos';
}

export function shortAddress(a: string, keep = 4): string {
  return a.length <= keep * 2 + 1 ? a : `${a.slice(0, keep)}…${a.slice(-keep)}`;
}

/** `2024-05-01T12:34:56Z` as `2024-05-01 12:34` (UTC, as the API states it). */
export function formatTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

/** Price in native per token, exact to 36 places then rounded for display (tiny meme prices keep 4 significant digits). */
export function formatPrice(amountSol: string | null, amount: string | null): string {
  if (amountSol === null || amount === null) return '—';
  const q = toScaled(amount);
  if (q <= 0n) return '—';
  return formatSmart(fromScaled(mulDiv(toScaled(amountSol), 10n ** 36n, q)));
}

/** A USD value for the eye: cents, more places below a cent; a dash where no price is known. */
export function formatUsd(v: string | null | undefined): string {
  if (v === null || v === undefined) return '—';
  const neg = v.startsWith('-');
  const abs = neg ? v.slice(1) : v;
  const places = abs.startsWith('0.00') ? smartPlaces(abs) : 2;
  const text = formatAmount(abs, places);
  // A loss reads -$12.50: the sign ahead of the currency (rounded to zero, no sign).
  return `${neg && /[1-9]/.test(text) ? '-' : ''}$${text}`;
}

/** The hover text of a USD value: the exact figure, the native price used and when it came into force. */
export function usdTitle(t: { valueUsd?: string | null; nativeUsd?: string | null; priceTime?: number | null }, nativeSymbol: string): string {
  if (t.valueUsd === undefined && t.nativeUsd === undefined) return 'No USD price stored for this trade yet';
  const value = t.valueUsd === null || t.valueUsd === undefined ? 'USD value unknown' : `$${t.valueUsd}`;
  if (t.nativeUsd === null || t.nativeUsd === undefined) return `${value}; no ${nativeSymbol} price at this time`;
  const when = t.priceTime ? `feed round of ${new Date(t.priceTime * 1000).toISOString().replace('.000Z', 'Z')}` : 'the feed round in force at the trade';
  return `${value}; ${nativeSymbol} at $${t.nativeUsd} (${when})`;
}

/** A share for display (a win rate): whole percent, a dash when there is nothing to rate. */
export function formatPercent(r: number | null): string {
  return r === null ? '—' : `${Math.round(r * 100)}%`;
}

/** A holding time for the eye: the largest unit that keeps a number of at least 1. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  const units: [number, string][] = [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'min'],
  ];
  for (const [size, name] of units) if (seconds >= size) return `${(seconds / size).toFixed(seconds >= size * 10 ? 0 : 1)} ${name}`;
  return `${Math.round(seconds)} s`;
}

/** The name to show for a wallet: its label, or its address shortened. */
export function walletName(w: { label?: string; address: string }, keep = 4): string {
  return w.label?.trim() || shortAddress(w.address, keep);
}
