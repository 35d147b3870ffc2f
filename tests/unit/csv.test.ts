/** CSV cells (src/server/routes/csv.ts): RFC 4180 quoting, and no cell a spreadsheet would run as a formula. */
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '../../src/server/routes/csv.ts';

describe('csv', () => {
  it('quotes cells holding commas, quotes or line breaks, and doubles their quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it('prefixes text that starts a formula with an apostrophe', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}SUM(A1)`).replace(/^"/, '')).toMatch(/^'/);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes numbers, booleans, nulls and objects as values', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(1.5)).toBe('1.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell({ label: 'a', value: 1 })).toBe('"{""label"":""a"",""value"":1}"');
  });

  it('ends every line with CRLF', () => {
    expect(csvLine(['a', 1, null, 'b,c'])).toBe('a,1,,"b,c"\r\n');
  });
});
