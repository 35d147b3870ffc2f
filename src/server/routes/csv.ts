/**
 * CSV as RFC 4180 writes it (comma-separated, CRLF line ends, quoted when a cell holds a comma, a
 * quote or a line break), made safe to open in a spreadsheet: a text cell that a spreadsheet would
 * run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage return; OWASP's "CSV
 * injection") is prefixed with `'`, so it shows as the text it is.
 */

/** What starts a formula in Excel, LibreOffice and Google Sheets. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell that must be quoted to stay one cell. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One value as a cell: nothing for null, `true`/`false`, numbers as JavaScript writes them (a number
 * is never a formula, so `-5` stays `-5`), objects as JSON, text guarded against formulas.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') text = String(value);
  else {
    text = typeof value === 'string' ? value : JSON.stringify(value);
    if (FORMULA_START.test(text)) text = `'${text}`;
  }
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record (or the header) as a CSV line, its CRLF included. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/**
 * Written before the first line: the UTF-8 byte order mark, without which Excel reads a CSV file as
 * the system's legacy code page and garbles every accented name.
 */
export const UTF8_BOM = '\ufeff';
