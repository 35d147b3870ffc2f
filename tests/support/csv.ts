/**
 * CSV as the exports write it (src/server/routes/export.ts), read back by the tests that check them:
 * the API's (tests/api/export.test.ts, records-as-words.test.ts) and the browser's download
 * (tests/e2e/records-as-words.test.ts).
 */

/** RFC 4180 read back: quoted cells may hold commas, doubled quotes and line breaks. No byte order mark expected. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += c;
  }
  if (cell !== '' || row.length) row.push(cell), rows.push(row);
  return rows;
}

/** An export's text (its byte order mark dropped) as its header and its rows, each an object by header. */
export function csvRecords(text: string): { header: string[]; rows: Record<string, string>[] } {
  const [header = [], ...rows] = parseCsv(text.replace(/^\ufeff/, ''));
  return { header, rows: rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]!]))) };
}
