import { describe, expect, it } from 'vitest';
import { normalizeDecimalLiteral, parseStreamLine, quoteAmountLiterals, readLines } from '../../src/lib/dashboard/ndjson.js';

describe('quoteAmountLiterals', () => {
  it('keeps 18-decimal amounts exact where JSON.parse would round', () => {
    const line =
      '{"trades":[{"signature":"s","side":"buy","token":"T","tokenMint":"m","amountSol":1234.000000000000000001,"amount":99999999999999999999.5,"dex":"pumpfun","blockTime":"2024-05-01T12:34:56Z"}],"cursor":"abc"}';
    expect(JSON.parse(line).trades[0].amountSol).toBe(1234); // the float loses it
    const l = parseStreamLine(line);
    if (l.kind !== 'batch') throw new Error('batch expected');
    expect(l.trades[0].amountSol).toBe('1234.000000000000000001');
    expect(l.trades[0].amount).toBe('99999999999999999999.5');
    expect(l.cursor).toBe('abc');
  });
  it('leaves key-like text inside strings and other numbers alone', () => {
    const line = '{"token":"\\"amount\\":5","amount":7,"x":{"amountSol" : 0.5},"tradeCount":3,"amountSolX":1}';
    expect(quoteAmountLiterals(line)).toBe('{"token":"\\"amount\\":5","amount":"7","x":{"amountSol" : "0.5"},"tradeCount":3,"amountSolX":1}');
  });
  it('keeps null amounts null', () => {
    const l = parseStreamLine(
      '{"trades":[{"signature":"s","side":"sell","token":"","tokenMint":"m","amountSol":null,"amount":null,"dex":"unknown","blockTime":"2024-05-01T12:34:56Z"}],"cursor":"c"}',
    );
    if (l.kind !== 'batch') throw new Error('batch expected');
    expect(l.trades[0]).toMatchObject({ amountSol: null, amount: null, side: 'sell', token: '' });
  });
  it('reads the final line', () => {
    expect(parseStreamLine('{"complete":false,"tradeCount":10,"wallet":"W","firstTrade":"2024-01-01T00:00:00Z","cursor":"k"}')).toEqual({
      kind: 'final',
      complete: false,
      tradeCount: 10,
      wallet: 'W',
      firstTrade: '2024-01-01T00:00:00Z',
      cursor: 'k',
    });
    expect(parseStreamLine('{"complete":true,"tradeCount":0,"wallet":"W","firstTrade":null}')).toMatchObject({
      complete: true,
      firstTrade: null,
      cursor: undefined,
    });
  });
  it.each([
    ['1e3', '1000'],
    ['1.50', '1.5'],
    ['0.000', '0'],
    ['1.5e-3', '0.0015'],
    ['007', '7'],
  ])('normalises %s to %s', (a, b) => expect(normalizeDecimalLiteral(a)).toBe(b));
});

describe('readLines', () => {
  it('assembles lines split across chunks, multi-byte characters included', async () => {
    const bytes = new TextEncoder().encode('{"a":"é"}\n\n{"b":2}\n{"c":3}');
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 3) c.enqueue(bytes.slice(i, i + 3));
        c.close();
      },
    });
    const out: string[] = [];
    for await (const l of readLines(body)) out.push(l);
    expect(out).toEqual(['{"a":"é"}', '{"b":2}', '{"c":3}']);
  });
});

describe('readLines on one huge line', () => {
  it('stays linear: a 20 MB line in 16 KB chunks', async () => {
    const big = '{"x":"' + 'a'.repeat(20_000_000) + '"}\n{"y":1}\n';
    const bytes = new TextEncoder().encode(big);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 16_384) c.enqueue(bytes.subarray(i, i + 16_384));
        c.close();
      },
    });
    const t0 = performance.now();
    const out: number[] = [];
    for await (const l of readLines(body)) out.push(l.length);
    // Quadratic rescanning took over 10 s here; linear takes well under 2.
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(out).toEqual([20_000_008, 7]);
  });
});
