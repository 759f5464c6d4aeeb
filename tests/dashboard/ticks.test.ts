import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { niceTicks } from '../../src/lib/dashboard/ticks.js';

/** The PnL chart's vertical axis (issue 21): four to six round ticks, zero marked, labels grouped and never in exponent form. */
describe('chart ticks', () => {
  it('labels a Tron-sized span in grouped digits with zero among them', () => {
    // The span the issue saw labelled 2.85e+5 and unlabelled at zero.
    expect(niceTicks(-177, 285_000).map((t) => t.label)).toEqual(['-100,000', '0', '100,000', '200,000', '300,000']);
    expect(niceTicks(0, 37_550.265).map((t) => t.label)).toEqual(['0', '10,000', '20,000', '30,000', '40,000']);
    expect(niceTicks(-0.34, 0.12).map((t) => t.label)).toEqual(['-0.4', '-0.2', '0', '0.2']);
    expect(niceTicks(-11.37, 0).map((t) => t.label)).toEqual(['-12.5', '-10', '-7.5', '-5', '-2.5', '0']);
    expect(niceTicks(0, 0).map((t) => t.label)).toEqual(['0', '0.0000000002', '0.0000000004', '0.0000000006', '0.0000000008', '0.000000001']);
  });

  it('for any span: four to six ticks, evenly spaced, covering it, zero among them, no exponent', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), fc.double({ min: -1e12, max: 1e12, noNaN: true }), (x, y) => {
        const [lo, hi] = x <= y ? [x, y] : [y, x];
        const t = niceTicks(lo, hi);
        expect(t.length).toBeGreaterThanOrEqual(4);
        expect(t.length).toBeLessThanOrEqual(6);
        // Covering the span, down to the chart's resolution: a billionth of the native unit or of the span's size.
        const tol = 1e-9 * Math.max(1, Math.abs(lo), Math.abs(hi));
        expect(t[0].value).toBeLessThanOrEqual(Math.min(lo, 0) + tol);
        expect(t.at(-1)!.value).toBeGreaterThanOrEqual(Math.max(hi, 0) - tol);
        expect(t.some((k) => k.value === 0 && k.label === '0')).toBe(true);
        const step = t[1].value - t[0].value;
        for (let i = 1; i < t.length; i++) expect(Math.abs(t[i].value - t[i - 1].value - step)).toBeLessThanOrEqual(Math.abs(step) * 1e-9);
        for (const k of t) expect(k.label).toMatch(/^-?\d{1,3}(,\d{3})*(\.\d+)?$/);
      }),
      { numRuns: 500 },
    );
  });
});
