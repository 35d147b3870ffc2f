import { describe, expect, it } from 'vitest';
import { joinedBody } from '../../src/server/routes/answer-body.ts';

describe('joinedBody', () => {
  // The middle is a page's records as the database joined them (json-records.ts `joinedPage`).
  const cases: [string, string, string][] = [
    ['[', '', ']'],
    ['[', '{"a":1}', ']'],
    ['[', '{"n":"Café"},{"n":"東京"},{"n":"👜"},{"n":"\\"q\\""}', ']'],
    ['{"data":[', '{"x":"ü"},{"x":2}', '],"total":2,"page":1,"limit":2}'],
    ['{"data":[', '', '],"total":0,"page":3,"limit":2}'],
  ];
  it.each(cases)('writes %s + the records + the rest, byte for byte (%j)', (before, middle, after) => {
    const body = joinedBody(before, middle, after);
    const expected = Buffer.from(before + middle + after, 'utf8');
    expect(body.equals(expected)).toBe(true);
    expect(body.length).toBe(expected.length);
    expect(() => JSON.parse(body.toString('utf8'))).not.toThrow();
  });
  // SQLite's page arrives as bytes (a BLOB moved from the read worker: a Uint8Array, not a Buffer).
  it.each(cases)('writes %s + the records as bytes + the rest, byte for byte (%j)', (before, middle, after) => {
    const body = joinedBody(before, new Uint8Array(Buffer.from(middle, 'utf8')), after);
    expect(body.equals(Buffer.from(before + middle + after, 'utf8'))).toBe(true);
  });
});
