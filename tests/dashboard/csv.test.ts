import { describe, expect, it } from 'vitest';
import { tradesToCsv } from '../../src/lib/dashboard/csv.js';

describe('CSV export', () => {
  it('writes the eight fields with exact amounts and safe quoting', () => {
    const csv = tradesToCsv([
      {
        signature: 's1',
        side: 'buy',
        token: 'A,"B"',
        tokenMint: 'm',
        amountSol: '0.000000000000000001',
        amount: null,
        dex: 'pumpfun',
        blockTime: '2024-05-01T12:34:56Z',
      },
      { signature: 's2', side: 'sell', token: '=cmd()', tokenMint: 'm', amountSol: '1', amount: '2', dex: 'jupiter', blockTime: '2024-05-01T12:35:00Z' },
    ]);
    expect(csv.split('\r\n')).toEqual([
      'blockTime,side,token,tokenMint,amount,amountSol,dex,signature',
      '2024-05-01T12:34:56Z,buy,"A,""B""",m,,0.000000000000000001,pumpfun,s1',
      "2024-05-01T12:35:00Z,sell,'=cmd(),m,2,1,jupiter,s2",
      '',
    ]);
  });
});

import { formatAmount, formatPrice, formatSmart } from '../../src/lib/dashboard/format.js';
import { virtualWindow } from '../../src/lib/dashboard/virtual.js';

describe('display helpers', () => {
  it('rounds exact strings for display', () => {
    expect(formatAmount('1234567.123456789', 2)).toBe('1,234,567.12');
    expect(formatAmount('-0.5', 4)).toBe('-0.5');
    expect(formatAmount(null)).toBe('—');
    expect(formatSmart('0.000000063191234')).toBe('0.00000006319');
    expect(formatPrice('37.4373', '592443959')).toBe('0.00000006319');
    expect(formatPrice('1', '0')).toBe('—');
  });
});

describe('virtualWindow', () => {
  it('bounds the rendered rows whatever the count', () => {
    const w = virtualWindow(100_000, 40, 2_000_000, 600, 8);
    expect(w.start).toBe(50_000 - 8);
    expect(w.end - w.start).toBeLessThanOrEqual(600 / 40 + 1 + 16);
    expect(w.total).toBe(4_000_000);
    expect(virtualWindow(3, 40, 0, 600)).toMatchObject({ start: 0, end: 3 });
    expect(virtualWindow(0, 40, 500, 600)).toMatchObject({ start: 0, end: 0 });
  });
});
