/**
 * Reading the v1 JSON without losing precision. `amountSol` and `amount` (and with `include=usd`,
 * `nativeUsd` and `valueUsd`) are JSON number literals that may carry 18+ decimals
 * (decisions.md), which `JSON.parse` would round to a float64 (about 15-17 significant digits).
 * `quoteAmountLiterals` rewrites a text so those values become strings holding the exact literal,
 * then `JSON.parse` is safe. The dashboard reads streams with it; the server reads stored trades.
 */
const AMOUNT_KEYS: ReadonlySet<string> = new Set(['amountSol', 'amount', 'nativeUsd', 'valueUsd']);

/**
 * Wraps the number literal value of every `amountSol` / `amount` key in quotes. A one-pass scanner
 * that tracks strings (with escapes), so a key-like text inside a string value is never touched.
 */
export function quoteAmountLiterals(line: string): string {
  let out = '';
  let last = 0;
  let i = 0;
  const n = line.length;
  let lastString = '';
  let lastStringEnd = -1;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (c === 34 /* " */) {
      const start = i + 1;
      i = start;
      let escaped = false;
      while (i < n) {
        const d = line.charCodeAt(i);
        if (d === 92 /* \ */) {
          escaped = true;
          i += 2;
          continue;
        }
        if (d === 34) break;
        i++;
      }
      // Keys of interest have no escapes; slicing only when short keeps the scan cheap.
      lastString = !escaped && i - start <= 9 ? line.slice(start, i) : '';
      i++;
      lastStringEnd = i;
      continue;
    }
    if (c === 58 /* : */ && lastStringEnd >= 0 && AMOUNT_KEYS.has(lastString)) {
      // Skip whitespace after the colon, then capture a number literal if one is there.
      let j = i + 1;
      while (j < n && (line.charCodeAt(j) === 32 || line.charCodeAt(j) === 9)) j++;
      let k = j;
      while (k < n) {
        const d = line.charCodeAt(k);
        // digits, '-', '+', '.', 'e', 'E'
        if ((d >= 48 && d <= 57) || d === 45 || d === 43 || d === 46 || d === 101 || d === 69) k++;
        else break;
      }
      if (k > j) {
        out += line.slice(last, j) + '"' + line.slice(j, k) + '"';
        last = k;
      }
      lastStringEnd = -1;
      i = k > j ? k : i + 1;
      continue;
    }
    if (c !== 32 && c !== 9 && c !== 58) lastStringEnd = -1;
    i++;
  }
  return last === 0 ? line : out + line.slice(last);
}
