import { describe, expect, it } from 'vitest';
import { asBody, joinedBody } from '../../src/server/routes/answer-body.ts';

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

describe('asBody', () => {
  const pages = ['[]', '[{"a":1}]', '[{"n":"Café"},{"n":"東京"},{"n":"👜"}]'];
  it.each(pages)('answers a page given as bytes with those very bytes, not a copy (%s)', (text) => {
    // As the read worker hands it over: a view of its own ArrayBuffer, here one starting past other bytes.
    const store = Buffer.from(`xx${text}`, 'utf8');
    const bytes = new Uint8Array(store.buffer, store.byteOffset + 2, store.byteLength - 2);
    const body = asBody(bytes);
    expect(body.toString('utf8')).toBe(text);
    expect(body.buffer).toBe(bytes.buffer);
    bytes[0] = 0x20; // the same memory: a change to one is in the other
    expect(body[0]).toBe(0x20);
  });
  it.each(pages)('answers a page given as text with its UTF-8 bytes (%s)', (text) => {
    expect(asBody(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });
});
