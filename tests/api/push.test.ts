/**
 * Web Push on the server (spec §7 push calls, issue 11): the VAPID key (made once, kept, one pair for
 * concurrent starts), subscribe / unsubscribe (strict bodies, ownership), the endpoint rules (https, 443,
 * public hosts only, resolved at subscribe and at send, connections pinned), and real pushes to a
 * stand-in push service: encrypted for the subscription's keys, signed with our VAPID key, a 404/410
 * deleting the subscription, a redirect not followed.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import {
  browserSubscription,
  decryptPush,
  PUSH_SERVICE_NAME,
  startPushService,
  verifyVapid,
  type PushService,
} from '../support/push-service.ts';
import { PUSH_SERVER_MESSAGES, PUSH_SUBSCRIPTIONS, pushSubscriptions } from '../../resources/push.ts';
import { loadVapidKeys, VAPID_SETTING } from '../../src/features/push/server/vapid.ts';
import { endpointKey } from '../../src/features/push/server/index.ts';
import { SETTINGS } from '../../src/server/settings/index.ts';
import { makeBranch, productBody } from './fixtures/catalogue.ts';

const { vapidPublicKey, subscribe, unsubscribe } = pushSubscriptions.operations;
const pathOf = (call: string) => call.split(' ')[1];
const KEY_PATH = pathOf(vapidPublicKey.call);
const SUBSCRIBE_PATH = pathOf(subscribe.call);

/** The test's DNS: names to addresses, changeable mid-test; every question is counted. */
const dns = new Map<string, string[]>();
const asked: string[] = [];
const resolve = async (host: string) => {
  asked.push(host);
  const addresses = dns.get(host);
  if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe.each(engines)('web push (%s)', (engine) => {
  let server: TestServer;
  let service: PushService;
  let admin: string;
  let user: string;
  let seller: string;
  let userId: string;
  const logs: string[] = [];

  beforeAll(async () => {
    service = await startPushService();
    const allowed = new Set([`127.0.0.1:${service.port}`, `${PUSH_SERVICE_NAME}:${service.port}`]);
    dns.set(PUSH_SERVICE_NAME, ['127.0.0.1']);
    server = await startTestServer({
      engine,
      app: {
        push: { allowEndpoint: (url) => allowed.has(url.host), ca: service.cert, resolve },
        logger: { level: 'error', stream: new Writable({ write: (chunk, _, done) => (logs.push(String(chunk)), done()) }) },
      },
    });
    [admin, user, seller] = await Promise.all([server.login('admin'), server.login('user'), server.login('seller')]);
    userId = (await server.api('GET', '/getcurrentuser', { cookie: user })).body.id;
    // A fresh PostgreSQL schema is migrated and seeded first: seconds on a busy machine.
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await service?.close();
  });

  const body = (endpoint: string, keys = browserSubscription(endpoint).json) => ({ subscription: keys, userAgent: 'Test browser', endpoint });
  const rows = (endpoint: string) => server.db.selectFrom(PUSH_SUBSCRIPTIONS).selectAll().where('endpointKey', '=', endpointKey(endpoint)).execute();
  const notifyUser = async (title: string) => {
    const res = await server.api('POST', '/api/notifications/enhanced', {
      cookie: admin,
      body: { userId, title, message: `${title}: the message`, type: 'info', metadata: { category: 'test' } },
    });
    expect(res.status).toBe(201);
    await server.app.push.settled();
  };

  it('answers the VAPID public key to signed-in users only, the same every time and as stored', async () => {
    expect((await server.api('GET', KEY_PATH)).status).toBe(401);
    const first = await server.api('GET', KEY_PATH, { cookie: user });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['publicKey']);
    expect(Buffer.from(first.body.publicKey, 'base64url')).toHaveLength(65);
    expect((await server.api('GET', KEY_PATH, { cookie: seller })).body.publicKey).toBe(first.body.publicKey);
    // Kept in the database: a restart (another load) reads the same pair.
    expect((await loadVapidKeys(server.db)).publicKey).toBe(first.body.publicKey);
  });

  it('makes one key pair when several nodes start at once on an empty database', async () => {
    const before = await loadVapidKeys(server.db);
    await server.db.deleteFrom(SETTINGS).where('key', '=', VAPID_SETTING).execute();
    const pairs = await Promise.all(Array.from({ length: 8 }, () => loadVapidKeys(server.db)));
    expect(new Set(pairs.map((p) => JSON.stringify(p))).size).toBe(1);
    expect(pairs[0].publicKey).not.toBe(before.publicKey);
    const stored = await server.db.selectFrom(SETTINGS).selectAll().where('key', '=', VAPID_SETTING).execute();
    expect(stored).toHaveLength(1);
    expect(JSON.parse(String(stored[0].value))).toEqual(pairs[0]);
    // The app keeps the pair it started with; put it back so the rest of the suite verifies against it.
    await server.db.updateTable(SETTINGS).set({ value: JSON.stringify(before) }).where('key', '=', VAPID_SETTING).execute();
  });

  it('refuses a subscribe without a session, and any body that is not exactly the spec’s', async () => {
    const endpoint = `${service.origin}/push/strict`;
    const good = body(endpoint);
    expect((await server.api('POST', SUBSCRIBE_PATH, { body: good })).status).toBe(401);
    const bad: unknown[] = [
      { ...good, extra: 1 },
      { ...good, subscription: { ...good.subscription, extra: 1 } },
      { ...good, subscription: { ...good.subscription, keys: { ...good.subscription.keys, extra: 'x' } } },
      { subscription: good.subscription, endpoint },
      { ...good, userAgent: 5 },
      { ...good, endpoint: `${endpoint}/other` },
      { ...good, subscription: { ...good.subscription, keys: { ...good.subscription.keys, p256dh: 'AAAA' } } },
      { ...good, subscription: { ...good.subscription, keys: { ...good.subscription.keys, auth: Buffer.alloc(8).toString('base64url') } } },
      { ...good, subscription: { ...good.subscription, expirationTime: 'soon' } },
      { ...good, endpoint: 'x'.repeat(2001), subscription: { ...good.subscription, endpoint: 'x'.repeat(2001) } },
      [],
      'text',
    ];
    for (const b of bad) {
      const res = await server.api('POST', SUBSCRIBE_PATH, { cookie: user, body: b });
      expect(res.status, JSON.stringify(b).slice(0, 200)).toBe(400);
    }
    expect(await rows(endpoint)).toHaveLength(0);
    const mismatch = await server.api('POST', SUBSCRIBE_PATH, { cookie: user, body: { ...good, endpoint: `${endpoint}/other` } });
    expect(mismatch.body.errors.endpoint).toEqual([PUSH_SERVER_MESSAGES.endpointMismatch]);
  });

  it('refuses every endpoint that is not https on 443 at a public host', async () => {
    dns.set('loopback.example.com', ['127.0.0.1']);
    dns.set('mixed.example.com', ['93.184.216.34', '10.1.2.3']);
    dns.set('metadata.example.com', ['169.254.169.254']);
    dns.set('mapped.example.com', ['::ffff:127.0.0.1']);
    dns.set('ula.example.com', ['fd12:3456::1']);
    const refused: [string, string][] = [
      ['http://push.example.com/x', PUSH_SERVER_MESSAGES.notHttps],
      ['https://push.example.com:8443/x', PUSH_SERVER_MESSAGES.notHttps],
      ['https://user:secret@push.example.com/x', PUSH_SERVER_MESSAGES.notHttps],
      ['not a url', PUSH_SERVER_MESSAGES.notHttps],
      ['https://169.254.169.254/latest/meta-data', PUSH_SERVER_MESSAGES.notPublic],
      ['https://127.0.0.1/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://localhost/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://push.localhost/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://10.0.0.5/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://172.16.4.2/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://192.168.1.1/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://100.64.0.1/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://0.0.0.0/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://[::1]/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://[::]/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://[fe80::1]/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://[fc00::1]/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://[::ffff:127.0.0.1]/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://[::ffff:a9fe:a9fe]/x', PUSH_SERVER_MESSAGES.notPublic],
      // Odd spellings of 127.0.0.1 and 169.254.169.254.
      ['https://0x7f.1/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://2130706433/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://017700000001/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://0xa9.0xfe.0xa9.0xfe/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://127.1/x', PUSH_SERVER_MESSAGES.notPublic],
      // Names: resolving to loopback, to a private address among public ones, to metadata, to mapped/ULA IPv6.
      ['https://loopback.example.com/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://mixed.example.com/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://metadata.example.com/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://mapped.example.com/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://ula.example.com/x', PUSH_SERVER_MESSAGES.notPublic],
      ['https://nowhere.example.com/x', PUSH_SERVER_MESSAGES.unresolved],
      // The stand-in itself on another port than the one the test allows.
      [`https://127.0.0.1:${service.port + 1}/x`, PUSH_SERVER_MESSAGES.notHttps],
    ];
    for (const [endpoint, message] of refused) {
      const res = await server.api('POST', SUBSCRIBE_PATH, { cookie: user, body: body(endpoint) });
      expect(res.status, endpoint).toBe(400);
      expect(res.body.errors, endpoint).toEqual({ endpoint: [message] });
    }
    const stored = await server.db.selectFrom(PUSH_SUBSCRIPTIONS).select('endpoint').execute();
    expect(stored.map((r) => r.endpoint).filter((e) => refused.some(([x]) => x === e))).toEqual([]);
  });

  it('keeps one subscription per endpoint, owned by whoever saved it; only the owner deletes it', async () => {
    dns.set('fcm.example.com', ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    const endpoint = 'https://fcm.example.com/fcm/send/owned';
    expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: seller, body: body(endpoint) })).status).toBe(200);
    expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: seller, body: body(endpoint) })).status).toBe(200);
    expect(await rows(endpoint)).toHaveLength(1);
    const sellerId = (await server.api('GET', '/getcurrentuser', { cookie: seller })).body.id;
    expect((await rows(endpoint))[0].userId).toBe(sellerId);

    expect((await server.api('DELETE', SUBSCRIBE_PATH, { body: { endpoint } })).status).toBe(401);
    expect((await server.api('DELETE', SUBSCRIBE_PATH, { cookie: seller, body: { endpoint, extra: 1 } })).status).toBe(400);
    // Another user's endpoint is as unknown as one never saved.
    const foreign = await server.api('DELETE', SUBSCRIBE_PATH, { cookie: user, body: { endpoint } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(PUSH_SERVER_MESSAGES.notFound);
    expect(await rows(endpoint)).toHaveLength(1);
    expect((await server.api('DELETE', SUBSCRIBE_PATH, { cookie: seller, body: { endpoint } })).status).toBe(204);
    expect(await rows(endpoint)).toHaveLength(0);
    expect((await server.api('DELETE', SUBSCRIBE_PATH, { cookie: seller, body: { endpoint } })).status).toBe(404);
  });

  it('refuses another account saving an endpoint without its keys; the browser holding them moves it to whoever signed in on it', async () => {
    // Issue 50 part 4: the newcomer used to take the row over, and the owner's DELETE then answered 404.
    dns.set('takeover.example.com', ['93.184.216.34']);
    const endpoint = 'https://takeover.example.com/fcm/send/victim';
    const sellerId = (await server.api('GET', '/getcurrentuser', { cookie: seller })).body.id;
    const owners = browserSubscription(endpoint).json;
    expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: seller, body: body(endpoint, owners) })).status).toBe(200);

    // Someone who learned the URL sends it with keys of their own, or with the owner's public key only.
    const attacker = browserSubscription(endpoint).json;
    const halfStolen = { ...attacker, keys: { ...attacker.keys, p256dh: owners.keys.p256dh } };
    for (const keys of [attacker, halfStolen]) {
      const refused = await server.api('POST', SUBSCRIBE_PATH, { cookie: user, body: body(endpoint, keys) });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ message: PUSH_SERVER_MESSAGES.taken, errors: { endpoint: [PUSH_SERVER_MESSAGES.taken] } });
    }
    const [row] = await rows(endpoint);
    expect(row.userId).toBe(sellerId);
    expect(JSON.parse(String(row.subscription)).keys).toEqual(owners.keys);
    expect((await server.api('DELETE', SUBSCRIBE_PATH, { cookie: user, body: { endpoint } })).status).toBe(404);
    expect((await server.api('DELETE', SUBSCRIBE_PATH, { cookie: seller, body: { endpoint } })).status).toBe(204);
    expect(await rows(endpoint)).toHaveLength(0);

    // A shared computer: the next person signed in on it, and the page saves the browser's own
    // subscription (the same keys) again. Only they get its pushes from now on.
    expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: seller, body: body(endpoint, owners) })).status).toBe(200);
    expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: user, body: body(endpoint, owners) })).status).toBe(200);
    expect((await rows(endpoint)).map((r) => r.userId)).toEqual([userId]);
    expect((await server.api('DELETE', SUBSCRIBE_PATH, { cookie: seller, body: { endpoint } })).status).toBe(404);
    expect((await server.api('DELETE', SUBSCRIBE_PATH, { cookie: user, body: { endpoint } })).status).toBe(204);
  });

  it('refuses a p256dh that is not a point of the P-256 curve', async () => {
    const endpoint = `${service.origin}/push/bad-point`;
    const good = browserSubscription(endpoint).json;
    const point = Buffer.from(good.keys.p256dh, 'base64url');
    const offCurve = Buffer.from(point);
    offCurve[64] ^= 1;
    const compressedPrefix = Buffer.from(point);
    compressedPrefix[0] = 0x02;
    const xTooBig = Buffer.alloc(65, 0xff);
    xTooBig[0] = 0x04;
    const zeros = Buffer.alloc(65);
    zeros[0] = 0x04;
    for (const bad of [offCurve, compressedPrefix, xTooBig, zeros]) {
      const keys = { ...good, keys: { ...good.keys, p256dh: bad.toString('base64url') } };
      const res = await server.api('POST', SUBSCRIBE_PATH, { cookie: user, body: body(endpoint, keys) });
      expect(res.status, bad.toString('hex')).toBe(400);
      expect(res.body.errors).toEqual({ subscription: [PUSH_SERVER_MESSAGES.badKeys] });
    }
    expect(await rows(endpoint)).toHaveLength(0);
    expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: user, body: body(endpoint, good) })).status).toBe(200);
    await server.api('DELETE', SUBSCRIBE_PATH, { cookie: user, body: { endpoint } });
  });

  it('sends a notification as an encrypted push signed with our VAPID key, to the address checked', async () => {
    const path = '/push/user-browser';
    // Subscribed under a name only the test's resolver knows: the request arrives only through the pinned address.
    const endpoint = `https://${PUSH_SERVICE_NAME}:${service.port}${path}`;
    const browser = browserSubscription(endpoint);
    expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: user, body: body(endpoint, browser.json) })).status).toBe(200);
    const publicKey = (await server.api('GET', KEY_PATH, { cookie: user })).body.publicKey;
    const askedBefore = asked.filter((h) => h === PUSH_SERVICE_NAME).length;

    await notifyUser('Commission approved');
    const sent = service.requests.filter((r) => r.path === path);
    expect(sent).toHaveLength(1);
    const [request] = sent;
    // Resolved again at send.
    expect(asked.filter((h) => h === PUSH_SERVICE_NAME).length).toBe(askedBefore + 1);
    expect(request.method).toBe('POST');
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request.headers.ttl)).toBeGreaterThan(0);
    const claims = verifyVapid(String(request.headers.authorization), publicKey, `https://${PUSH_SERVICE_NAME}:${service.port}`);
    expect(claims.sub).toMatch(/^(mailto:|https:)/);
    const payload = JSON.parse(decryptPush(request.body, browser));
    expect(payload).toMatchObject({ title: 'Commission approved', body: 'Commission approved: the message', url: '/', type: 'info' });
    expect(typeof payload.id).toBe('string');
    expect(await rows(endpoint)).toHaveLength(1);
  });

  it("pushes a role's notification to a subscription made just after one found nobody of the role subscribed", async () => {
    const branch = await makeBranch(server, admin);
    const create = async (name: string) => {
      expect((await server.api('POST', '/products', { cookie: seller, body: productBody(branch, { name }) })).status).toBe(201);
      // The role is told after the answer, on a later turn (notify.ts `deliverToRole`): its push starts then.
      await new Promise((resolve) => setImmediate(resolve));
      await server.app.push.settled();
    };
    // No admin has a subscription yet: the admins' notification of a product goes to no push service.
    await server.db.deleteFrom(PUSH_SUBSCRIPTIONS).where('userId', 'in', server.db.selectFrom('users').select('id').where('role', '=', 'admin')).execute();
    server.app.readCache.invalidate(PUSH_SUBSCRIPTIONS);
    const before = service.requests.length;
    await create('Unpushed Lamp');
    expect(service.requests.length).toBe(before);
    // An admin subscribes; the next product's notification reaches that browser (the role's "nobody" is not kept past it).
    const path = '/push/admin-role';
    const endpoint = `${service.origin}${path}`;
    const browser = browserSubscription(endpoint);
    expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: admin, body: body(endpoint, browser.json) })).status).toBe(200);
    await create('Pushed Lamp');
    await vi.waitFor(() => expect(service.requests.filter((r) => r.path === path)).toHaveLength(1));
    const sent = service.requests.filter((r) => r.path === path);
    expect(JSON.parse(decryptPush(sent[0].body, browser)).body).toContain('Pushed Lamp');
  });

  it.each([404, 410])('deletes the subscription the push service answers %i for', async (status) => {
    const path = `/push/gone-${status}`;
    const endpoint = `${service.origin}${path}`;
    expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: user, body: body(endpoint) })).status).toBe(200);
    service.answer(path, { status });
    await notifyUser(`Gone ${status}`);
    expect(service.requests.filter((r) => r.path === path)).toHaveLength(1);
    expect(await rows(endpoint)).toHaveLength(0);
  });

  it('follows no redirect and keeps the subscription', async () => {
    const path = '/push/redirected';
    const endpoint = `${service.origin}${path}`;
    expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: user, body: body(endpoint) })).status).toBe(200);
    service.answer(path, { status: 307, location: `${service.origin}/push/elsewhere` });
    service.answer('/push/elsewhere', { status: 201 });
    await notifyUser('Redirected');
    expect(service.requests.filter((r) => r.path === path)).toHaveLength(1);
    expect(service.requests.filter((r) => r.path === '/push/elsewhere')).toHaveLength(0);
    expect(await rows(endpoint)).toHaveLength(1);
    expect(logs.some((l) => l.includes('push: sending failed (307)'))).toBe(true);
  });

  it('forgets a subscription when the session it was saved in ends, and all of a user’s when the account is disabled', async () => {
    const login = async (email: string) => {
      const res = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'demo1234' }),
      });
      return res.headers.get('set-cookie')!.split(';')[0];
    };
    // A second session of the user (a shared computer), signed out after subscribing.
    const shared = await login('user@demo.test');
    const sharedEndpoint = `${service.origin}/push/shared-computer`;
    const kept = `${service.origin}/push/kept`;
    expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: shared, body: body(sharedEndpoint) })).status).toBe(200);
    expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: user, body: body(kept) })).status).toBe(200);
    expect((await server.api('POST', '/api/auth/logout', { cookie: shared })).status).toBeLessThan(300);
    await server.app.push.settled();
    expect(await rows(sharedEndpoint)).toHaveLength(0);
    expect(await rows(kept)).toHaveLength(1);
    await server.api('DELETE', SUBSCRIBE_PATH, { cookie: user, body: { endpoint: kept } });

    // Disabling an account ends all its sessions: every subscription of it goes.
    const support = await login('support@demo.test');
    const supportId = (await server.api('GET', '/getcurrentuser', { cookie: support })).body.id;
    const endpoints = [`${service.origin}/push/support-1`, `${service.origin}/push/support-2`];
    for (const endpoint of endpoints)
      expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: support, body: body(endpoint) })).status).toBe(200);
    expect((await server.api('PATCH', `/users/${supportId}`, { cookie: admin, body: { role: 'support', status: 'DISABLED' } })).status).toBe(200);
    await server.app.push.settled();
    for (const endpoint of endpoints) expect(await rows(endpoint)).toHaveLength(0);
  });

  it('checks the host again at send: a name that now resolves privately gets nothing', async () => {
    dns.set('rebind.example.com', ['93.184.216.34']);
    const endpoint = 'https://rebind.example.com/push/rebind';
    // Owned by the user, so the next notification tries it.
    expect((await server.api('POST', SUBSCRIBE_PATH, { cookie: user, body: body(endpoint) })).status).toBe(200);
    dns.set('rebind.example.com', ['127.0.0.1']);
    const before = service.requests.length;
    const askedBefore = asked.filter((h) => h === 'rebind.example.com').length;
    await notifyUser('Rebound');
    expect(asked.filter((h) => h === 'rebind.example.com').length).toBe(askedBefore + 1);
    expect(logs.some((l) => l.includes(`endpoint refused at send (${PUSH_SERVER_MESSAGES.notPublic})`))).toBe(true);
    // Every other subscription of the user was still served.
    expect(service.requests.length).toBeGreaterThan(before);
    expect(service.requests.slice(before).every((r) => r.path !== '/push/rebind')).toBe(true);
    await server.api('DELETE', SUBSCRIBE_PATH, { cookie: user, body: { endpoint } });
  });
});
