import { formatAmount } from './format.js';

/** One value on the chart's vertical axis and its label (grouped digits, no exponent). */
export interface Tick {
  value: number;
  label: string;
}

/** Steps a human reads at a glance: 1, 2, 2.5 and 5 times a power of ten. */
const MULTIPLES = [1, 2, 2.5, 5];
/** A span narrower than this (a billionth of the native unit) is drawn as this span. */
const MIN_SPAN = 1e-9;

/**
 * Four to six round values covering [lo, hi] and always holding 0 (the chart marks it): the
 * smallest round step that covers the span in at most five intervals. Labels are exact decimal
 * text of the step's precision, grouped by thousands (30,000, 0.25), never in exponent form.
 */
export function niceTicks(lo: number, hi: number): Tick[] {
  const a = Math.min(lo, 0);
  const b = Math.max(hi, 0, a + MIN_SPAN);
  const power = 10 ** Math.floor(Math.log10((b - a) / 5));
  const intervals = (step: number) => Math.ceil(b / step - 1e-12) - Math.floor(a / step + 1e-12);
  let step = 10 * power;
  let unit = power;
  search: for (const p of [power, 10 * power]) {
    for (const m of MULTIPLES) {
      if (intervals(m * p) <= 5) {
        step = m * p;
        unit = p;
        break search;
      }
    }
  }
  const first = Math.floor(a / step + 1e-12);
  let last = Math.ceil(b / step - 1e-12);
  // At least four ticks (three intervals): a narrow span gets more steps above.
  while (last - first < 3) last++;
  const decimals = Math.max(0, -Math.floor(Math.log10(unit) + 1e-9)) + (Number.isInteger(step / unit) ? 0 : 1);
  const out: Tick[] = [];
  for (let i = first; i <= last; i++) {
    const text = i === 0 ? (0).toFixed(decimals) : (i * step).toFixed(decimals);
    out.push({ value: Number(text), label: formatAmount(text, decimals) });
  }
  return out;
}
