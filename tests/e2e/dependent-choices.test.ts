/**
 * Dependent choices in Chromium against the built client and the real server (issue 51, point 1): a
 * seller creating a product is offered, as Child category, only the child categories of the Category
 * chosen; before one is chosen, none, with what to do first; changing the Category empties the Child
 * category (and the levels below it) and offers the new category's children. The product is created
 * with the branch chosen.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, type Branch } from '../api/fixtures/catalogue.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, signIn, toastOf } from './support/admin.ts';

describe.skipIf(!hasChromium)('dependent choices in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let kitchen: Branch;
  let garden: Branch;
  const pageErrors: string[] = [];
  const dialog = () => dialogOf(page);
  const picker = (name: string) => dialog().getByRole('combobox', { name, exact: true });
  /** The options the open picker offers, by their text. */
  const offered = () => page.getByRole('listbox').getByRole('option').allTextContents();

  /** Picks `option` in `box` by typing part of it; picked again if a click landed while the options were replaced. */
  async function choose(box: Locator, typed: string, option: string) {
    await box.fill(typed);
    await page.getByRole('option', { name: option, exact: true }).click();
    await expect
      .poll(async () => {
        const held = await box.inputValue();
        if (held !== option) await page.getByRole('option', { name: option, exact: true }).click({ timeout: 2_000 }).catch(() => {});
        return held;
      }, { timeout: 15_000 })
      .toBe(option);
  }

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
    const admin = await server.login('admin');
    // makeBranch names the levels '<name> child', '<name> sub' and '<name> leaf'.
    kitchen = await makeBranch(server, admin, 'Kitchen');
    garden = await makeBranch(server, admin, 'Garden');
    const seller = await account(server, 'seller');
    browser = await launch();
    page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(page, server.url, seller.email, 'secret12');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('offers no child category until a category is chosen, saying to choose it first', async () => {
    // Wherever the seller lands, its products are at their address.
    await page.evaluate(() => (location.hash = '#/products'));
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('Products');
    await page.getByRole('button', { name: 'Create product' }).click();
    await dialog().getByRole('heading', { name: 'Create product' }).waitFor();
    const child = picker('Child category');
    await dialog().getByText('Choose the category first.').waitFor();
    await child.click();
    await page.locator('.MuiAutocomplete-noOptions').filter({ hasText: 'Choose the category first.' }).waitFor();
    expect(await page.getByRole('option').count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it("offers only the chosen category's children, and empties the branch when the category changes", async () => {
    const category = picker('Category');
    const child = picker('Child category');
    const sub = picker('Sub category');
    await choose(category, 'Kitch', 'Kitchen');
    // The hint has gone: the choice is there to make.
    await expect.poll(() => dialog().getByText('Choose the category first.').count()).toBe(0);
    await child.click();
    await expect.poll(offered).toEqual(['Kitchen child']);
    await page.keyboard.press('Escape');
    await choose(child, 'Kitchen', 'Kitchen child');
    await choose(sub, 'Kitchen', 'Kitchen sub');
    await sub.click();
    await expect.poll(offered).toEqual(['Kitchen sub']);
    await page.keyboard.press('Escape');

    await choose(category, 'Gard', 'Garden');
    await expect.poll(() => child.inputValue()).toBe('');
    await expect.poll(() => sub.inputValue()).toBe('');
    await dialog().getByText('Choose the child category first.').waitFor();
    await child.click();
    await expect.poll(offered).toEqual(['Garden child']);
    await page.keyboard.press('Escape');
    await choose(child, 'Garden', 'Garden child');
  });

  it('creates the product with the branch chosen', async () => {
    await dialog().getByRole('textbox', { name: /^Name/ }).fill('Watering Can');
    await dialog().getByRole('spinbutton', { name: /^Seller price/ }).fill('25');
    await dialog().getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => toastOf(page).textContent()).toContain('Product created successfully.');
    await dialog().waitFor({ state: 'detached' });
    const stored = await server.db.selectFrom('products').selectAll().where('name', '=', 'Watering Can').executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ category: garden.category, childCategory: garden.childCategory, subCategory: null, subChildCategory: null });
    expect(kitchen.category).not.toBe(garden.category);
    expect(pageErrors).toEqual([]);
  });
});
