/**
 * The USD arithmetic of decisions.md worked independently of src/prices, for the price tests'
 * expectations.
 */
export /** a × b, both non-negative decimal literals, rounded half-even to 6 decimals, canonical. */
function mul6(a: string, b: string): string {
  const [aw, af = ''] = a.split('.');
  const [bw, bf = ''] = b.split('.');
  const n = BigInt(aw + af) * BigInt(bw + bf);
  const scale = af.length + bf.length;
  let q = scale > 6 ? n / 10n ** BigInt(scale - 6) : n * 10n ** BigInt(6 - scale);
  if (scale > 6) {
    const r = n % 10n ** BigInt(scale - 6);
    const half = 10n ** BigInt(scale - 6);
    if (2n * r > half || (2n * r === half && q % 2n === 1n)) q += 1n;
  }
  const s = q.toString().padStart(7, '0');
  const frac = s.slice(-6).replace(/0+$/, '');
  return s.slice(0, -6) + (frac ? '.' + frac : '');
}
