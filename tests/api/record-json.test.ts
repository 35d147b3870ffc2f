/**
 * A one-record read that reaches every row and embeds nothing is answered with the record as the
 * database writes it (`findReachableJson`: SQLite `json_object`, PostgreSQL `row_to_json`), never made into an
 * object and serialised again. Over HTTP, on both engines: the query run is the JSON one, the answer is
 * the record the write answered (multibyte text whole, booleans as booleans, no secret), its ETag the
 * version, an update's new version read back, and an absent record the resource's own 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_COLUMN } from '../../src/server/db/json-records.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { watchMainQueries } from '../support/main-queries.ts';

describe.each(engines)('a record read as the database writes it (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
  });
  afterAll(async () => server?.close());

  /** Runs `read` and answers the SQL texts of the queries it sent to the main connection. */
  async function queriesOf(read: () => Promise<void>): Promise<string[]> {
    const texts: string[] = [];
    const stop = watchMainQueries(server.db, (sql) => texts.push(sql));
    try {
      await read();
    } finally {
      stop();
    }
    return texts;
  }

  it('answers the record written, its version as the ETag, read again after an update, and 404 for none', async () => {
    const name = `Ünïcödé “glass” 👜 ${engine}${Date.now() % 100000}`;
    const made = await server.api('POST', '/top-categories', {
      cookie: admin,
      body: { name, image: '/logo.jpg', href: '/c/x', status: 'PUBLISHED', order: 3 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const slug = made.body.slug as string;

    let one: Awaited<ReturnType<TestServer['api']>> | undefined;
    const texts = await queriesOf(async () => {
      one = await server.api('GET', `/top-categories/${encodeURIComponent(slug)}`, { cookie: admin });
    });
    expect(one!.status).toBe(200);
    expect(one!.body).toEqual(made.body);
    expect(one!.body.name).toBe(name);
    expect(one!.headers.get('etag')).toBe('"1"');
    // The record came from the query that writes it as JSON, not from a row made into an object.
    expect(texts.some((t) => t.includes(`"${JSON_COLUMN}"`) && /json_object|row_to_json/.test(t)), texts.join('\n')).toBe(true);

    const changed = await server.api('PATCH', `/top-categories/${made.body.id}`, {
      cookie: admin,
      body: { name: `${name} 2`, image: '/logo.jpg', href: '/c/x', status: 'PUBLISHED', order: 4 },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const again = await server.api('GET', `/top-categories/${encodeURIComponent(changed.body.slug as string)}`, { cookie: admin });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(changed.body);
    expect(again.headers.get('etag')).toBe('"2"');

    const none = await server.api('GET', `/top-categories/none-${Date.now()}`, { cookie: admin });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe('Top category not found.');
  });
});
