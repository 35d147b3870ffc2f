/**
 * Issue 11's "done": one person signed in on two browsers, each browser on its own server node (two
 * apps on two ports sharing the machine's PostgreSQL and Redis, as production runs behind a proxy).
 * A notification created through the other node arrives live with its badge; marking it read in one
 * browser lowers the other's count across the nodes; after opting in to push, a notification created
 * through the other node is also sent as a real Web Push to the stand-in push service (the one boundary
 * stood in for; tests/support/push-service.ts) and decrypts to what was sent.
 * The nodes are apps in this process rather than processes (tests/api/multi-node.test.ts runs those),
 * so they can be given the test-only push option; they share nothing but the database and Redis.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { registry } from '../../resources/index.ts';
import { buildApp } from '../../src/server/app.ts';
import { connect, dropSchema, type Database } from '../../src/server/db/connect.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { DEMO_PASSWORD, demoEmail, seedIfEmpty } from '../../src/server/seed/index.ts';
import { PUSH_TEXTS } from '../../src/features/push/messages.ts';
import { clusterUnavailable } from '../support/nodes.ts';
import { browserSubscription, decryptPush, startPushService, type PushService } from '../support/push-service.ts';
import { hasChromium, launch } from './support/browser.ts';
import { signIn } from './support/admin.ts';

const why = clusterUnavailable();
if (why) console.warn(`Two-node browser test skipped: ${why} (CI sets both; see .ci/run).`);

const PUSH_PATH = '/push/live-two-nodes';

describe.skipIf(!hasChromium || !!why)('two browsers on two nodes: live notifications and push', () => {
  const schema = `live_${randomBytes(6).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-live-'));
  const databases: Database[] = [];
  const apps: FastifyInstance[] = [];
  const urls: string[] = [];
  const pages: Page[] = [];
  const pageErrors: string[] = [];
  let service: PushService;
  let browser: Browser;
  let keys: ReturnType<typeof browserSubscription>;
  let admin = '';
  let userId = '';

  const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/, includeHidden: true });
  const unreadOf = (page: Page) => bell(page).getAttribute('aria-label');
  /** An admin's `POST /api/notifications/enhanced` through node `n`. */
  const notifyThrough = async (n: number, title: string) => {
    const res = await fetch(`${urls[n]}/api/notifications/enhanced`, {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json', origin: urls[n] },
      body: JSON.stringify({ userId, title, message: `${title}.`, type: 'info' }),
    });
    expect(res.status).toBe(201);
  };

  beforeAll(async () => {
    service = await startPushService();
    const prefix = `live_${schema}`;
    for (let n = 0; n < 2; n++) {
      const database = await connect({ url: process.env.DATABASE_URL, schema });
      databases.push(database);
      if (n === 0) {
        await migrate(database, registry);
        await seedIfEmpty(database.db, registry, { catalogue: false });
      }
      const app = await buildApp({
        database,
        registry,
        clientDir: inject('clientDir'),
        uploadsDir: join(dir, 'uploads'),
        redisUrl: process.env.REDIS_URL,
        redisPrefix: prefix,
        push: { allowEndpoint: (url) => url.host === `127.0.0.1:${service.port}`, ca: service.cert },
      });
      apps.push(app);
      urls.push(await app.listen({ port: 0, host: '127.0.0.1' }));
    }
    const login = await fetch(`${urls[1]}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: demoEmail('admin'), password: DEMO_PASSWORD }),
    });
    admin = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const user = await databases[0].db.selectFrom('users').select('id').where('email', '=', demoEmail('seller')).executeTakeFirstOrThrow();
    userId = String(user.id);

    keys = browserSubscription(`${service.origin}${PUSH_PATH}`);
    browser = await launch();
    for (let n = 0; n < 2; n++) {
      const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(['notifications'], { origin: urls[n] });
      // The boundary: the browser's own push service is out of reach; subscribing answers the stand-in's endpoint.
      await context.addInitScript((json) => {
        let current: unknown = null;
        PushManager.prototype.subscribe = async function () {
          current = { endpoint: json.endpoint, expirationTime: null, toJSON: () => json, unsubscribe: async () => ((current = null), true) };
          return current as PushSubscription;
        };
        PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
      }, keys.json);
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      page.on('pageerror', (e) => pageErrors.push(e.message));
      await signIn(page, urls[n], demoEmail('seller'), DEMO_PASSWORD);
      pages.push(page);
    }
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    if (process.env.DATABASE_URL) await dropSchema(process.env.DATABASE_URL, schema);
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a notification created through node A appears live, with its badge, in the browser on node B', async () => {
    await expect.poll(() => unreadOf(pages[1])).toBe('Notifications');
    await notifyThrough(0, 'Made on node A');
    await expect.poll(() => unreadOf(pages[1])).toBe('Notifications, 1 unread');
    await pages[1].locator('[role="status"]', { hasText: 'Made on node A' }).waitFor();
    // And in the browser on node A too, with its toast: awaited, so that it cannot come late and replace
    // (one toast at a time, spec §9) the toast the last test waits for on this page.
    await expect.poll(() => unreadOf(pages[0])).toBe('Notifications, 1 unread');
    await pages[0].locator('[role="status"]', { hasText: 'Made on node A' }).waitFor();
  });

  it('marked read in the browser on node B, the count falls in the browser on node A', async () => {
    const b = pages[1];
    await bell(b).click();
    const newest = b.getByRole('dialog', { name: 'Notifications' }).getByRole('menuitem').first();
    await expect.poll(() => newest.textContent()).toContain('Made on node A');
    await newest.press('Enter');
    await expect.poll(() => unreadOf(b)).toBe('Notifications');
    await expect.poll(() => unreadOf(pages[0])).toBe('Notifications');
    await b.keyboard.press('Escape');
  });

  it('after opting in on node A, a notification created through node B arrives as a real push', async () => {
    const a = pages[0];
    await a.getByRole('button', { name: /account menu/i }).click();
    await a.getByRole('menuitemcheckbox', { name: PUSH_TEXTS.toggleOff }).click();
    await a.getByText(PUSH_TEXTS.enabled, { exact: true }).waitFor();
    await a.keyboard.press('Escape');

    await notifyThrough(1, 'Made on node B');
    await expect.poll(() => unreadOf(a)).toBe('Notifications, 1 unread');
    for (const app of apps) await app.push.settled();
    const sent = service.requests.filter((r) => r.path === PUSH_PATH);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(decryptPush(sent[0].body, keys))).toMatchObject({ title: 'Made on node B', body: 'Made on node B.' });
    expect(pageErrors).toEqual([]);
  });
});
