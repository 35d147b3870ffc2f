/**
 * Two admins editing one record (issue 8 §4): every record carries a version, one-record reads send it
 * as the ETag, list rows carry it, and an update sent with a stale If-Match answers 412 with the record
 * as it is now, leaving the first edit in place. Without If-Match, writes keep working (the
 * specification's callers send none). On every engine this machine has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/server/db/id.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const unique = (prefix: string) => `${prefix} ${newId().slice(-10)}`;

describe.each(engines)('record versions (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  const create = async () => {
    const res = await server.api('POST', '/categories', { cookie: admin, body: { name: unique('Versioned') } });
    expect(res.status).toBe(201);
    return res.body as { id: string; name: string; version: number };
  };
  const patch = (id: string, body: unknown, ifMatch?: string) =>
    server.api('PATCH', `/categories/${id}`, { cookie: admin, body, headers: ifMatch ? { 'if-match': ifMatch } : {} });

  it('starts every record at version 1 and answers it as the ETag of creates, one-record reads and list rows', async () => {
    const made = await create();
    expect(made.version).toBe(1);
    const one = await server.api('GET', `/categories/${made.id}`, { cookie: admin });
    expect(one.status).toBe(200);
    expect(one.headers.get('etag')).toBe('"1"');
    expect(one.body.version).toBe(1);
    const listed = await server.api('GET', '/categories', { cookie: admin, query: { filter: { id: [made.id] } } });
    expect(listed.body[0]).toMatchObject({ id: made.id, version: 1 });
  });

  it('refuses a stale If-Match with 412 and the current record; the first edit stays', async () => {
    const made = await create();
    const first = await patch(made.id, { name: unique('First edit'), order: '2' }, '"1"');
    expect(first.status).toBe(200);
    expect(first.body.version).toBe(2);
    expect(first.headers.get('etag')).toBe('"2"');

    // The second admin opened the dialog at version 1 too.
    const second = await patch(made.id, { name: unique('Second edit'), order: '3' }, '"1"');
    expect(second.status).toBe(412);
    expect(second.headers.get('etag')).toBe('"2"');
    expect(second.body.message).toMatch(/changed by someone else/);
    expect(second.body.current).toMatchObject({ id: made.id, name: first.body.name, order: '2', version: 2 });

    const stored = await server.api('GET', `/categories/${made.id}`, { cookie: admin });
    expect(stored.body).toMatchObject({ name: first.body.name, order: '2', version: 2 });
    expect(stored.headers.get('etag')).toBe('"2"');

    // Reloaded at version 2, the second admin can save (weak tags are read the same).
    const retried = await patch(made.id, { name: unique('Second edit'), order: '3' }, 'W/"2"');
    expect(retried.status).toBe(200);
    expect(retried.body.version).toBe(3);
  });

  it('keeps writes without If-Match (or with *) working, last write wins, each moving the version on', async () => {
    const made = await create();
    const a = await patch(made.id, { name: unique('No tag'), order: '1' });
    expect(a.status).toBe(200);
    const b = await patch(made.id, { name: unique('Any tag'), order: '1' }, '*');
    expect(b.status).toBe(200);
    expect(b.body.version).toBe(3);
  });

  it('answers a malformed If-Match with 400 and changes nothing', async () => {
    const made = await create();
    const res = await patch(made.id, { name: unique('Malformed'), order: '1' }, 'not-a-version');
    expect(res.status).toBe(400);
    expect((await server.api('GET', `/categories/${made.id}`, { cookie: admin })).body).toMatchObject({ name: made.name, version: 1 });
  });

  it('lets exactly one of two concurrent updates made against the same version win', async () => {
    const made = await create();
    const names = [unique('Racer A'), unique('Racer B'), unique('Racer C'), unique('Racer D')];
    const answers = await Promise.all(names.map((name) => patch(made.id, { name, order: '1' }, '"1"')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    const stored = await server.api('GET', `/categories/${made.id}`, { cookie: admin });
    expect(stored.body).toMatchObject({ name: winner.body.name, version: 2 });
  });

  it('moves the version on when a row is reordered, so a dialog opened before is stale', async () => {
    const made = await server.api('POST', '/api/home-sections', {
      cookie: admin,
      body: { name: unique('Section'), type: 'products', order: 5, isActive: true },
    });
    expect(made.status).toBe(201);
    const moved = await server.api('PATCH', '/api/home-sections/reorder', {
      cookie: admin,
      body: { sections: [{ id: made.body.id, order: 9 }] },
    });
    expect(moved.status).toBe(200);
    const stale = await server.api('PUT', `/api/home-sections/${made.body.id}`, {
      cookie: admin,
      body: { name: made.body.name, type: 'products', order: 5, isActive: false },
      headers: { 'if-match': '"1"' },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.current).toMatchObject({ order: 9, version: 2 });
  });
});
