/**
 * Live notifications in Chromium against the built client and the real server (its socket.io at
 * /api/socket): one user signed in in two browser contexts; an admin sends that user a notification
 * (`POST /api/notifications/enhanced`); both bells count it and both show its toast. Marking it read in
 * one lowers the count in the other. Scrolling the list reads the next page of 20; axe finds nothing in
 * the open list.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { notifications } from '../../resources/notifications.ts';
import { DEMO_PASSWORD, demoEmail } from '../../src/server/seed/index.ts';
import { parseCall } from '../../src/manifest/index.ts';
import { NOTIFICATIONS } from '../../src/features/notifications/contract.ts';
import { hasChromium, launch } from './support/browser.ts';
import { signIn } from './support/admin.ts';
import { axeFindings, describeFindings } from './support/axe.ts';

const send = parseCall(notifications.operations.send.call);
/** Already there before the user signs in: more than a page, so the list has a second one. */
const EARLIER = NOTIFICATIONS.pageSize + 5;

describe.skipIf(!hasChromium)('live notifications in two browsers', () => {
  let server: TestServer;
  let browser: Browser;
  let pages: Page[] = [];
  const pageErrors: string[] = [];
  let userId = '';

  const notify = async (title: string) => {
    const res = await server.api(send.method, send.path, {
      cookie: await server.login('admin'),
      body: { title, message: `${title}, in full.`, type: 'success', userId, metadata: { category: 'account' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  };
  // Still read while its list is open (MUI's modal hides the page behind it from assistive technology).
  const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/, includeHidden: true });
  const unreadOf = (page: Page) => bell(page).getAttribute('aria-label');

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
    userId = (await server.api('GET', '/getcurrentuser', { cookie: await server.login('user') })).body.id;
    for (let i = 1; i <= EARLIER; i++) await notify(`Earlier ${i}`);
    browser = await launch();
    for (let i = 0; i < 2; i++) {
      // Two contexts: two browsers' worth of cookies and storage, one account.
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      page.setDefaultTimeout(15_000);
      page.on('pageerror', (e) => pageErrors.push(e.message));
      await signIn(page, server.url, demoEmail('user'), DEMO_PASSWORD);
      pages.push(page);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('both bells count what was there at sign-in', async () => {
    for (const page of pages) await expect.poll(() => unreadOf(page)).toBe(`Notifications, ${EARLIER} unread`);
  });

  it('a notification sent to the user arrives live in both: the badge goes up and a toast tells it', async () => {
    await notify('Your commission was approved');
    for (const page of pages) {
      await expect.poll(() => unreadOf(page)).toBe(`Notifications, ${EARLIER + 1} unread`);
      await page.locator('[role="status"]', { hasText: 'Your commission was approved' }).waitFor();
    }
  });

  it('marking it read in one browser lowers the count in the other', async () => {
    const [a, b] = pages;
    await bell(a).click();
    const list = a.getByRole('dialog', { name: 'Notifications' });
    const newest = list.getByRole('menuitem').first();
    await expect.poll(() => newest.textContent()).toContain('Unread: Your commission was approved');
    await newest.press('Enter');
    await expect.poll(() => unreadOf(a)).toBe(`Notifications, ${EARLIER} unread`);
    await expect.poll(() => newest.textContent()).not.toContain('Unread');
    await expect.poll(() => unreadOf(b)).toBe(`Notifications, ${EARLIER} unread`);
  });

  it('scrolling the list to its end reads the next page, and the open list passes axe', async () => {
    const [a] = pages;
    const list = a.getByRole('dialog', { name: 'Notifications' });
    // The first page (and the live one, unless the page was read again since) is shown; the rest is on page 2.
    await expect.poll(() => list.getByRole('menuitem').count()).toBeGreaterThanOrEqual(NOTIFICATIONS.pageSize);
    expect(await list.getByRole('menuitem').count()).toBeLessThan(EARLIER + 1);
    const asked: string[] = [];
    a.on('request', (r) => {
      if (r.url().includes(parseCall(notifications.operations.mine.call).path)) asked.push(new URL(r.url()).searchParams.get('page') ?? '');
    });
    await list.getByRole('menu').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => list.getByRole('menuitem').count()).toBe(EARLIER + 1);
    expect(asked).toEqual(['2']);
    await expect.poll(() => list.getByRole('menuitem').last().textContent()).toContain('Earlier 1');
    // Page 2 was short: the end of the list asks for nothing more.
    await list.getByRole('menu').evaluate((el) => el.scrollTo({ top: 0 }));
    await list.getByRole('menu').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    expect(asked).toEqual(['2']);

    const findings = await axeFindings(a, 'notifications list');
    expect(findings, describeFindings(findings)).toEqual([]);
    await a.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
  });

  it('mark all as read empties the count in both', async () => {
    const [a, b] = pages;
    await bell(b).click();
    await b.getByRole('dialog', { name: 'Notifications' }).getByRole('button', { name: 'Mark all as read' }).click();
    for (const page of [b, a]) await expect.poll(() => unreadOf(page)).toBe('Notifications');
    expect(pageErrors).toEqual([]);
  });
});
