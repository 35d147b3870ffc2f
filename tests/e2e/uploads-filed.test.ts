/**
 * Uploads filed where they belong (issue 51 point 7), in Chromium against the built client and the
 * real server: a seller's product image, uploaded through the create form's widget, is stored under
 * the products' own endpoint (not the blog's `blogcategory`); the upload widget's spec texts (§5
 * Upload, §8 File validation) show where the spec puts them, with N its endpoint's declared count.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { uploadEndpointOf } from '../../src/manifest/uploads.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { makePng } from '../support/png.ts';
import { account, makeBranch, type Branch } from '../api/fixtures/catalogue.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, openList, toastOf } from './support/admin.ts';

describe.skipIf(!hasChromium)('uploads filed where they belong, in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let branch: Branch;
  let sellerAccount: { email: string };
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
    branch = await makeBranch(server, await server.login('admin'), 'Filed');
    sellerAccount = await account(server, 'seller');
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A fresh page of its own (one at a time: the page in use is the browser's only tab). */
  async function newPage(): Promise<Page> {
    await Promise.all(browser.contexts().map((context) => context.close()));
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    return page;
  }

  /** Signs in; with `lands`, waits for the page the role is sent to (the seller's area), so a list opened next stays. */
  async function signInTo(page: Page, email: string, password: string, lands?: string) {
    await page.goto(server.url);
    await page.locator('input[name="username"]').fill(email);
    await page.locator('input[name="password"]').fill(password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('menuitem', { name: 'Products', exact: true }).waitFor();
    if (lands) await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(lands);
  }

  /** Picks `option` in the combobox `box` by typing part of it. */
  async function choose(page: Page, box: Locator, typed: string, option: string) {
    await box.fill(typed);
    await page.getByRole('option', { name: option, exact: true }).click();
    await expect.poll(() => box.inputValue()).toBe(option);
  }

  it('a product image uploaded in the create form is stored under the products’ endpoint', async () => {
    const seller = await newPage();
    await signInTo(seller, sellerAccount.email, 'secret12', 'Seller area');
    const dialog = dialogOf(seller);
    await openList(seller, 'Products');
    // The toolbar's button or, while the list is empty, its empty state's: whichever is shown.
    await seller.getByRole('button', { name: 'Create product' }).locator('visible=true').first().click();
    await dialog.getByRole('heading', { name: 'Create product' }).waitFor();
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Filed Lamp');
    await choose(seller, dialog.getByRole('combobox', { name: 'Category', exact: true }), 'Filed', 'Filed');
    await dialog.getByRole('spinbutton', { name: /^Seller price/ }).fill('30');

    // Two files for a field that holds one: the spec's warning, and nothing is uploaded.
    const input = dialog.locator('input[type="file"]');
    await input.setInputFiles([
      { name: 'a.png', mimeType: 'image/png', buffer: makePng(20, 20) },
      { name: 'b.png', mimeType: 'image/png', buffer: makePng(20, 20) },
    ]);
    await expect.poll(() => toastOf(seller).textContent()).toContain('Files select error. Please select 1 files.');

    await input.setInputFiles({ name: 'lamp.png', mimeType: 'image/png', buffer: makePng(60, 40) });
    const preview = dialog.getByRole('img', { name: /^Preview of/ });
    await expect.poll(() => preview.getAttribute('src')).toMatch(/\/assets\/images\/products\/[0-9a-f]{24}\.png$/);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => toastOf(seller).textContent()).toContain('Product created successfully.');
    await dialog.waitFor({ state: 'detached' });

    const stored = await server.db.selectFrom('products').selectAll().where('name', '=', 'Filed Lamp').executeTakeFirstOrThrow();
    expect(stored.category).toBe(branch.category);
    expect(stored.images).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/assets\/images\/products\/[0-9a-f]{24}\.png$/);
    const media = await server.db.selectFrom('media').selectAll().where('url', '=', stored.images as string).executeTakeFirstOrThrow();
    expect(media).toMatchObject({ endpoint: 'products', name: 'lamp.png' });
    const served = await fetch(stored.images as string);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('the gallery’s Upload shows the count texts with its endpoint’s N, and asks for files when none are chosen', async () => {
    const n = uploadEndpointOf('pagefile').maxFiles;
    expect(n).toBe(5);
    const admin = await newPage();
    await signInTo(admin, 'admin@demo.test', 'demo1234');
    const dialog = dialogOf(admin);
    await openList(admin, 'Media gallery');
    await admin.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.getByRole('heading', { name: 'Upload files' }).waitFor();
    // The limit, before anything is chosen (§5).
    await dialog.getByText(`You can only upload up to ${n} files.`, { exact: false }).waitFor();

    // Upload with nothing chosen (§8): 'Validation Error' with 'Please selected files'.
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const none = toastOf(admin);
    await expect.poll(() => none.textContent()).toContain('Validation Error');
    expect(await none.textContent()).toContain('Please selected files');

    // More than N (§5, §8): 'File Validation error' with both count texts; nothing is taken.
    await dialog.locator('input[type="file"]').setInputFiles(
      Array.from({ length: n + 1 }, (_, i) => ({ name: `${i}.png`, mimeType: 'image/png', buffer: makePng(10, 10) })),
    );
    const many = admin.getByRole('alert').filter({ hasText: 'File Validation error' });
    await expect.poll(() => many.textContent()).toContain(`Total files cannot exceed ${n}.`);
    expect(await many.textContent()).toContain(`You can only upload up to ${n} files.`);
    expect(await dialog.getByRole('list', { name: 'Chosen files' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
