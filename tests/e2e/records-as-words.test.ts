/**
 * Issue 51 §5's "done", in Chromium against the built client and the real server: records read as
 * words. The admin downloads the Products list as CSV and finds each reference's label beside its id;
 * opens an audit entry and reads a Before/After table of labelled fields, a reference by its record's
 * name and money formatted (not a JSON blob); and, from the Notifications screen, sends a notification
 * to a role, which arrives live for a person of that role signed in in another browser.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { csvRecords } from '../support/csv.ts';
import { DEMO_PASSWORD, demoEmail } from '../../src/server/seed/index.ts';
import { registry } from '../../resources/index.ts';
import { labelOf } from '../../src/manifest/index.ts';
import { makeBranch, productBody, type Branch } from '../api/fixtures/catalogue.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, openList, signIn, toastOf } from './support/admin.ts';

const fieldOf = (resource: string, name: string) => registry.resource(resource).fields.find((f) => f.name === name)!;

describe.skipIf(!hasChromium)('records that read as words, in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let dealer: Page;
  const pageErrors: string[] = [];
  let lamps: Branch;
  let rugs: Branch;
  let productId = '';

  const bell = (p: Page) => p.getByRole('button', { name: /^Notifications/, includeHidden: true });

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
    const admin = await server.login('admin');
    const seller = await server.login('seller');
    lamps = await makeBranch(server, admin, 'Lamps');
    rugs = await makeBranch(server, admin, 'Rugs');
    // The seller's product, then its price raised: an audit entry with money before and after.
    const made = await server.api('POST', '/products', { cookie: seller, body: productBody(lamps, { name: 'Brass Lamp', sellerprice: 40 }) });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    productId = made.body.id;
    const raised = await server.api('PATCH', `/products/${productId}/edit`, { cookie: seller, body: { ...productBody(lamps, { name: 'Brass Lamp', sellerprice: 55 }) } });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    // A child category moved under another category: an audit entry with a reference before and after.
    const moved = await server.api('PATCH', `/categories/child/${lamps.childCategory}`, { cookie: admin, body: { name: 'Lamps child', image: '/logo.jpg', category: rugs.category } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);

    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 850 }, acceptDownloads: true })).newPage();
    dealer = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    for (const p of [page, dealer]) {
      // Bounds for a hang on a loaded machine (sign-in took 30 s at load 20), not speed checks.
      p.setDefaultTimeout(60_000);
      p.on('pageerror', (e) => pageErrors.push(e.message));
    }
    await signIn(page, server.url);
    await signIn(dealer, server.url, demoEmail('dealer'), DEMO_PASSWORD);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a CSV download of Products holds each reference’s label beside its id', async () => {
    await openList(page, 'Products');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).or(page.getByRole('link', { name: 'Export' })).first().click()]);
    const { header, rows } = csvRecords(readFileSync((await download.path())!, 'utf8'));
    expect(header[header.indexOf('category') + 1]).toBe('category label');
    const lamp = rows.find((r) => r.id === productId)!;
    expect(lamp.category).toBe(lamps.category);
    expect(lamp['category label']).toBe('Lamps');
    expect(lamp['childCategory label']).toBe('Lamps child');
    expect(lamp['sellerId label']).toBe('Demo Seller');
  });

  /** Goes to an address of the app (any open dialog closes with the address it had) and waits for its title. */
  async function goTo(hash: string, title: string) {
    await page.evaluate((h) => (location.hash = h), hash);
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(title);
  }

  /** Opens the audit log filtered to one record's entries and opens its `update` entry. */
  async function openUpdateEntry(resource: string, recordId: string) {
    const filter = encodeURIComponent(JSON.stringify({ resource, recordId, action: 'update' }));
    await goTo(`#/auditLog?filter=${filter}`, 'Audit log');
    const row = page.locator('tbody tr, [role="listitem"]').filter({ hasText: recordId }).first();
    await row.getByText('update', { exact: true }).click();
    return dialogOf(page);
  }

  /** The Before and After cells of a changes table's row, by the field's label. */
  async function change(dialog: ReturnType<typeof dialogOf>, label: string) {
    const table = dialog.getByRole('table', { name: 'Changes' });
    const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) });
    await expect.poll(async () => (await row.getByRole('cell').allInnerTexts()).every((t) => t.trim() !== '')).toBe(true);
    return (await row.getByRole('cell').allInnerTexts()).map((t) => t.trim());
  }

  it('an audit entry reads as a Before/After table of labelled fields: references by name, money formatted', async () => {
    let dialog = await openUpdateEntry('childCategories', lamps.childCategory);
    // Each field by its label in the manifest (a child category's `category` reads 'Parent category').
    await expect.poll(() => change(dialog, labelOf(fieldOf('childCategories', 'category')))).toEqual(['Lamps', 'Rugs']);
    expect(await dialog.getByRole('columnheader').allInnerTexts()).toEqual(['Field', 'Before', 'After']);
    // Not the JSON it is kept as.
    expect(await dialog.textContent()).not.toContain('"before"');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    dialog = await openUpdateEntry('products', productId);
    await expect.poll(() => change(dialog, labelOf(fieldOf('products', 'sellerprice')))).toEqual(['$40.00', '$55.00']);
    const [before, after] = await change(dialog, labelOf(fieldOf('products', 'price')));
    expect(before).toMatch(/^\$\d+\.\d{2}$/);
    expect(after).toMatch(/^\$\d+\.\d{2}$/);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('an admin sends a notification to a role from the Notifications screen; a person of it gets it live', async () => {
    await expect.poll(() => bell(dealer).getAttribute('aria-label')).toBe('Notifications');
    await goTo('#/notifications', 'Notifications');
    await page.getByRole('button', { name: 'Send notification' }).click();
    const dialog = dialogOf(page);
    await dialog.getByRole('combobox', { name: /to role/i }).click();
    await page.getByRole('option', { name: 'Dealer', exact: true }).click();
    await dialog.getByRole('textbox', { name: /^title/i }).fill('Price list');
    await dialog.getByRole('textbox', { name: /^message/i }).fill('The new price list is out.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => toastOf(page).textContent()).toContain('Notification sent.');

    // Live, without a reload: the dealer's badge and toast.
    await expect.poll(() => bell(dealer).getAttribute('aria-label')).toBe('Notifications, 1 unread');
    await dealer.locator('[role="status"]', { hasText: 'Price list' }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('a notification’s details show its title, message, link and time', async () => {
    // The admin was told of the seller's product: that notification links to the product. Opened by its
    // address (a row's click opens the admin's read/unread form).
    const { id } = await server.db.selectFrom('notifications').select('id').where('title', '=', 'Commission to review').executeTakeFirstOrThrow();
    await page.evaluate((hash) => (location.hash = hash), `#/notifications?dialog=notificationDetails&id=${id}`);
    const dialog = dialogOf(page);
    await expect.poll(() => dialog.textContent()).toContain('The product Brass Lamp by Demo Seller waits for its commission to be approved.');
    const text = (await dialog.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Commission to review');
    expect(text).toMatch(/Link Product: ?Brass Lamp/);
    expect(text).toMatch(/Created \S/);
    await page.keyboard.press('Escape');
  });
});
