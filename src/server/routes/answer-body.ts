/**
 * A list page's answer as the bytes it is sent as, written once from the records' JSON texts, which the
 * database joined (json-records.ts `joinedPage`), and kept so by the read cache.
 *
 * Why: a page handed to Fastify as a string was copied on the V8 heap three more times on its way out:
 * joined from the records, flattened when its byte length was measured (a template's result is a rope),
 * and again when Node put the response's head in front of a string body to write both at once. For a
 * page of 25 products (19 KB) that was some 60 KB of young objects a request besides the records
 * themselves (at 50 connections V8 scavenged 9.7 times a thousand pages on PostgreSQL, 6.1 now). A
 * Buffer's length is known and Node writes it after the head as it is. One-record answers (under a
 * kilobyte) stay strings: a Buffer costs them more than the copies it saves (measured: 3-9 % fewer
 * get-ones a second).
 */

/**
 * `before` + `middle` + `after`, written straight into one Buffer (no string joined first). `middle` is
 * text (PostgreSQL) or already bytes (SQLite's page, a BLOB), copied as they are.
 */
export function joinedBody(before: string, middle: string | Uint8Array, after: string): Buffer {
  const head = Buffer.byteLength(before);
  const length = typeof middle === 'string' ? Buffer.byteLength(middle) : middle.byteLength;
  const out = Buffer.allocUnsafe(head + length + Buffer.byteLength(after));
  out.write(before, 0);
  if (typeof middle === 'string') out.write(middle, head);
  else out.set(middle, head);
  out.write(after, head + length);
  return out;
}

/**
 * A page's whole answer as a Buffer: bytes (SQLite's page, moved from the read worker) as they are, not
 * copied; text (PostgreSQL) written once.
 */
export function asBody(page: string | Uint8Array): Buffer {
  return typeof page === 'string' ? Buffer.from(page) : Buffer.from(page.buffer, page.byteOffset, page.byteLength);
}
