/**
 * The video list through the real server, on every engine (issue 53 point 6; spec §7 "Server-side helper"):
 * the storefront's `GET /api/front/videos` searches the provider the site settings name (a stand-in
 * server on this machine speaking the YouTube Data API's search shape), latest first, without live or
 * upcoming items, page after page; stores the answer (a `videoLists` record holding a JSON string) and
 * answers the stored record afterwards without asking again; answers an empty list and stores nothing
 * when the provider fails. The admin sees the record and fetches it again; nobody else reaches it.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VIDEO_SETTINGS } from '../../src/domain/videos.ts';
import { newId } from '../../src/server/db/id.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

const KEY = 'test-key-123';
const CHANNEL = 'UC_demo_channel';

/** A video as the provider's search answers it. */
const video = (id: string, publishedAt: string, live = 'none') => ({
  kind: 'youtube#searchResult',
  id: { kind: 'youtube#video', videoId: id },
  snippet: { publishedAt, title: `Video ${id}`, description: `About ${id}`, channelTitle: 'Demo', liveBroadcastContent: live, thumbnails: { high: { url: `https://img.test/${id}.jpg` } } },
});

/** The stand-in provider: two pages (out of order across pages, one live and one upcoming item), or a failure. */
class StandIn {
  server!: Server;
  url = '';
  asked: URL[] = [];
  mode: 'ok' | 'error' | 'garbage' = 'ok';
  async start() {
    this.server = createServer((req: IncomingMessage, res) => {
      const url = new URL(req.url!, 'http://x');
      this.asked.push(url);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (this.mode === 'error') return json(403, { error: { code: 403, message: 'quotaExceeded' } });
      if (this.mode === 'garbage') return json(200, { nothing: true });
      if (url.pathname !== '/v3/search' || url.searchParams.get('key') !== KEY) return json(400, { error: 'bad request' });
      if (url.searchParams.get('pageToken') === 'P2')
        return json(200, { items: [video('v-old', '2024-01-01T00:00:00Z'), video('v-newest', '2026-11-30T00:00:00Z'), video('v2', '2026-06-01T00:00:00Z')] });
      return json(200, {
        nextPageToken: 'P2',
        items: [video('v2', '2026-06-01T00:00:00Z'), video('v-live', '2026-12-01T00:00:00Z', 'live'), video('v-soon', '2026-12-02T00:00:00Z', 'upcoming'), video('v1', '2026-03-01T00:00:00Z')],
      });
    });
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v3`;
  }
  close() {
    return new Promise<void>((done) => this.server.close(() => done()));
  }
}

describe.each(engines)('video list (%s)', (engine) => {
  let server: TestServer;
  let provider: StandIn;
  let admin: string;
  let buyer: string;
  const front = () => fetch(`${server.url}/api/front/videos`).then(async (r) => ({ status: r.status, body: await r.json() }));
  const setting = async (name: string, value: string) => {
    await server.db.deleteFrom('siteSettings').where('name', '=', name).execute();
    const now = new Date().toISOString();
    await server.db.insertInto('siteSettings').values({ id: newId(), name, value, createdAt: now, updatedAt: now }).execute();
  };
  const stored = () => server.db.selectFrom('videoLists').selectAll().execute();

  beforeAll(async () => {
    provider = new StandIn();
    await provider.start();
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    buyer = await server.login('user');
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });
  beforeEach(async () => {
    provider.asked = [];
    provider.mode = 'ok';
    await server.db.deleteFrom('videoLists').execute();
    await setting(VIDEO_SETTINGS.url, provider.url);
    await setting(VIDEO_SETTINGS.key, KEY);
    await setting(VIDEO_SETTINGS.channel, CHANNEL);
  });

  it('searches the provider once, latest first and without live items, stores it, then answers the stored record', async () => {
    const first = await front();
    expect(first.status).toBe(200);
    expect(first.body.data.map((v: { id: string }) => v.id)).toEqual(['v-newest', 'v2', 'v1', 'v-old']);
    expect(first.body.data[0]).toEqual({
      id: 'v-newest', title: 'Video v-newest', description: 'About v-newest', publishedAt: '2026-11-30T00:00:00Z', thumbnail: 'https://img.test/v-newest.jpg', channelTitle: 'Demo',
    });
    // Two pages, each asked latest first for videos of the channel.
    expect(provider.asked).toHaveLength(2);
    for (const asked of provider.asked) {
      expect(Object.fromEntries(asked.searchParams)).toMatchObject({ channelId: CHANNEL, order: 'date', type: 'video', part: 'snippet' });
    }
    expect(provider.asked[1].searchParams.get('pageToken')).toBe('P2');
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].count)).toBe(4);
    expect(JSON.parse(String(rows[0].data)).map((v: { id: string }) => v.id)).toEqual(['v-newest', 'v2', 'v1', 'v-old']);

    provider.mode = 'error'; // a second ask must not reach the provider at all
    const again = await front();
    expect(again.body).toEqual(first.body);
    expect(provider.asked).toHaveLength(2);
  });

  it('asks once for a burst of first asks', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, front));
    for (const a of answers) expect(a.body.data).toHaveLength(4);
    expect(provider.asked).toHaveLength(2);
    expect(await stored()).toHaveLength(1);
  });

  it.each(['error', 'garbage'] as const)('answers an empty list and stores nothing when the provider answers %s', async (mode) => {
    provider.mode = mode;
    const res = await front();
    expect(res).toEqual({ status: 200, body: { data: [] } });
    expect(await stored()).toHaveLength(0);
    // Not cached: once the provider is back, the next ask fetches.
    provider.mode = 'ok';
    expect((await front()).body.data).toHaveLength(4);
  });

  it('answers an empty list without asking when no key is set, or the provider is unreachable', async () => {
    await setting(VIDEO_SETTINGS.key, '');
    expect((await front()).body).toEqual({ data: [] });
    expect(provider.asked).toHaveLength(0);
    await setting(VIDEO_SETTINGS.key, KEY);
    await setting(VIDEO_SETTINGS.url, 'http://127.0.0.1:1/v3');
    expect((await front()).body).toEqual({ data: [] });
    expect(await stored()).toHaveLength(0);
  });

  it('lets the admin read and fetch a list again; a buyer reaches neither; a failed fetch keeps the list', async () => {
    await front();
    const list = await server.api('GET', '/videos', { cookie: admin });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    const id = list.body[0].id;
    expect(list.body[0]).toMatchObject({ source: `${provider.url}#${CHANNEL}`, count: 4 });

    expect((await server.api('GET', '/videos', { cookie: buyer })).status).toBe(403);
    expect((await server.api('POST', `/videos/${id}/refresh`, { cookie: buyer })).status).toBe(403);

    provider.asked = [];
    const refreshed = await server.api('POST', `/videos/${id}/refresh`, { cookie: admin });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body).toMatchObject({ id, count: 4 });
    expect(provider.asked).toHaveLength(2);

    provider.mode = 'error';
    const failed = await server.api('POST', `/videos/${id}/refresh`, { cookie: admin });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe('The video provider could not be read: The video provider answered 403.');
    expect(JSON.parse(String((await stored())[0].data))).toHaveLength(4);

    expect((await server.api('POST', `/videos/ffffffffffffffffffffffff/refresh`, { cookie: admin })).status).toBe(404);
  });

  it('fetches anew after the admin deletes the stored list', async () => {
    await front();
    const [row] = await stored();
    const removed = await server.api('DELETE', `/videos/${row.id}`, { cookie: admin });
    expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
    provider.asked = [];
    expect((await front()).body.data).toHaveLength(4);
    expect(provider.asked).toHaveLength(2);
  });
});
