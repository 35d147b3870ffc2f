/**
 * Issue 51, point 6, in Chromium against the built client and the real server: each action means what
 * it says. An admin's product Details is read-only (no Save, nothing to type into; the decision is the
 * row's Edit); the demo seller is offered Edit on its own shop, and no Delete (spec §6: an admin's).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody } from '../api/fixtures/catalogue.ts';
import { DEMO_PASSWORD } from '../../src/server/seed/index.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, openList, signIn } from './support/admin.ts';

describe.skipIf(!hasChromium)('each action means what it says, in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  const pages: Page[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
    const admin = await server.login('admin');
    const branch = await makeBranch(server, admin, 'Pantry');
    const seller = await account(server, 'seller');
    await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch, { name: 'Walnut Board', sellerprice: 40 }) });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function pageAs(email?: string, password?: string): Promise<Page> {
    const page = await browser.newPage();
    pages.push(page);
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(page, server.url, email, password);
    return page;
  }

  it("opens an admin's product Details read-only, without Save", async () => {
    const page = await pageAs();
    await openList(page, 'Products');
    const row = page.getByRole('row').filter({ hasText: 'Walnut Board' });
    await row.getByRole('button', { name: 'Details' }).click();
    const dialog = dialogOf(page);
    await dialog.getByRole('heading', { name: 'Product commission' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).waitFor();
    expect(await dialog.getByRole('button', { name: /^(Save|Create)$/ }).count()).toBe(0);
    expect(await dialog.getByRole('radio').count()).toBe(0);
    const editable = await dialog.locator('input:not([type="hidden"]), textarea').evaluateAll((inputs) =>
      inputs.filter((i) => !(i as HTMLInputElement).readOnly && !(i as HTMLInputElement).disabled).map((i) => i.id),
    );
    expect(editable).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The decision is the row's Edit: that one saves.
    await row.getByRole('button', { name: 'Edit' }).click();
    await dialog.getByRole('button', { name: 'Save' }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('offers the seller Edit on its own shop, and no Delete', async () => {
    const page = await pageAs('seller@demo.test', DEMO_PASSWORD);
    await openList(page, 'Sellers');
    const row = page.getByRole('row').filter({ hasText: 'Demo Seller Shop' });
    await row.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await row.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    // Nor a box to select it for a bulk delete.
    expect(await row.getByRole('checkbox').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
