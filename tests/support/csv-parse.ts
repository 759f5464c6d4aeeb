/**
 * An RFC 4180 reader for the export tests, written apart from the writer under test
 * (src/lib/pnl/export-csv.ts) so a quoting mistake there cannot hide behind the same mistake here.
 * Rows end with CRLF; a quoted field may hold commas, quotes (doubled) and line breaks.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else if (c === '\n' || c === '\r') throw new Error(`bare line break at ${i}`);
    else field += c;
  }
  if (quoted) throw new Error('unterminated quote');
  if (field !== '' || row.length) throw new Error('last row does not end with CRLF');
  return rows;
}

/** Rows as objects keyed by the header. */
export function csvRecords(text: string): { header: string[]; records: Record<string, string>[] } {
  const [header, ...rows] = parseCsv(text);
  for (const r of rows) if (r.length !== header.length) throw new Error(`row of ${r.length} fields under a header of ${header.length}: ${r.join('|')}`);
  return { header, records: rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))) };
}
