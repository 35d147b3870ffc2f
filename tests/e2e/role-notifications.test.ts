/**
 * A notification to every admin, in Chromium against the built client and the real server (issue 54:
 * stored once for the role, each admin's read state apart, emitted once to the role's room): two admins
 * are signed in; a seller creates a product; both bells count "Commission to review" live and show its
 * toast. One admin reads it from the bell: its count goes down, the other's stays, and still does after
 * a reload (the read is that admin's alone).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { DEMO_PASSWORD } from '../../src/server/seed/index.ts';
import { hashPassword } from '../../src/server/auth/password.ts';
import { newId } from '../../src/server/db/id.ts';
import { hasChromium, launch } from './support/browser.ts';
import { signedInPage } from './support/admin.ts';
import { account, makeBranch, productBody } from '../api/fixtures/catalogue.ts';

describe.skipIf(!hasChromium)('a notification to every admin, in two admins’ browsers', () => {
  let server: TestServer;
  let browser: Browser;
  const pages: Page[] = [];
  const pageErrors: string[] = [];

  const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/, includeHidden: true });
  const unreadOf = (page: Page) => bell(page).getAttribute('aria-label');
  const countOf = async (page: Page) => Number(/(\d+) unread/.exec((await unreadOf(page)) ?? '')?.[1] ?? 0);

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
    // A second admin, signing in with the demo password.
    const now = new Date().toISOString();
    await server.db
      .insertInto('users')
      .values({ id: newId(), name: 'Second Admin', email: 'second-admin@test.example', role: 'admin', status: 'ACTIVE', passwordHash: await hashPassword(DEMO_PASSWORD), createdAt: now, updatedAt: now })
      .execute();
    browser = await launch();
    pages.push(await signedInPage(browser, server.url, 'admin@demo.test', DEMO_PASSWORD, pageErrors));
    pages.push(await signedInPage(browser, server.url, 'second-admin@test.example', DEMO_PASSWORD, pageErrors));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('reaches both admins live, and one admin’s read leaves the other’s unread', async () => {
    const [a, b] = pages;
    for (const page of pages) await bell(page).waitFor();
    const before = await Promise.all(pages.map(countOf));
    const seller = await account(server, 'seller');
    const branch = await makeBranch(server, await server.login('admin'));
    const made = await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch, { name: 'Twin Lamp' }) });
    expect(made.status).toBe(201);
    for (const [i, page] of pages.entries()) {
      await expect.poll(() => countOf(page)).toBe(before[i] + 1);
      await page.locator('[role="status"]', { hasText: 'Commission to review' }).waitFor();
    }

    await bell(a).click();
    const list = a.getByRole('dialog', { name: 'Notifications' });
    const item = list.getByRole('menuitem').filter({ hasText: 'Twin Lamp' }).first();
    await expect.poll(() => item.textContent()).toContain('Unread: Commission to review');
    await item.press('Enter');
    await expect.poll(() => countOf(a)).toBe(before[0]);
    // The other admin's is still unread, now and after a reload (read from the server).
    expect(await countOf(b)).toBe(before[1] + 1);
    await b.reload();
    await bell(b).waitFor();
    await expect.poll(() => countOf(b)).toBe(before[1] + 1);
    expect(pageErrors).toEqual([]);
  });
});
