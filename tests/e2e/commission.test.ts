/**
 * A product's commission as the admin decides it, in Chromium against the built client and the real
 * server: a click on a product's row opens the commission dialog; the admin changes a percentage and
 * sees the commission and the main sell price follow, approves one product, rejects another with a typed
 * reason (by keyboard), and sees each status in the list and in the dialog. No axe finding in the dialog.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch, productBody } from '../api/fixtures/catalogue.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, openList, signIn, toastOf } from './support/admin.ts';
import { axeFindings, describeFindings } from './support/axe.ts';

describe.skipIf(!hasChromium)('product commission in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const ids: Record<string, string> = {};
  let sellerEmail: string;
  const pageErrors: string[] = [];
  const dialog = () => dialogOf(page);
  const toast = () => toastOf(page);
  const row = (name: string) => page.getByRole('row').filter({ hasText: name });

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
    const admin = await server.login('admin');
    const branch = await makeBranch(server, admin, 'Kitchen');
    const seller = await account(server, 'seller');
    sellerEmail = seller.email;
    for (const name of ['Copper Kettle', 'Clay Teapot']) {
      const res = await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch, { name, sellerprice: 80 }) });
      ids[name] = res.body.id;
    }
    browser = await launch();
    page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const statusOf = async (id: string) =>
    (await server.db.selectFrom('products').select(['comissionStatus', 'commissionRejectReason']).where('id', '=', id).executeTakeFirstOrThrow());

  it('approves a commission: the prices follow the percentages as they are typed', async () => {
    await openList(page, 'Products');
    await row('Copper Kettle').getByText('Pending').waitFor();
    await row('Copper Kettle').getByText('Copper Kettle').click();
    await dialog().getByRole('heading', { name: 'Product commission' }).waitFor();
    await dialog().getByText('Pending').waitFor();
    expect(await dialog().getByLabel('Seller price').inputValue()).toBe('$80.00');
    // 80 + 4.00 + 1.60 + 1.60 + 0.80 + 0.80
    expect(await dialog().getByLabel('Main sell price').inputValue()).toBe('$88.80');

    const site = dialog().getByRole('textbox', { name: /^Site commission \(%\)/ });
    await site.fill('7.25');
    await dialog().getByText('Commission: $5.80').waitFor();
    expect(await dialog().getByLabel('Main sell price').inputValue()).toBe('$90.60');

    expect(describeFindings(await axeFindings(page, 'commission dialog'))).toBe('');
    await dialog().getByRole('radio', { name: 'Approve' }).check();
    await dialog().getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => toast().textContent()).toContain('Commission approved successfully!');
    await dialog().waitFor({ state: 'detached' });
    await row('Copper Kettle').getByText('Approved').waitFor();
    expect(await statusOf(ids['Copper Kettle'])).toEqual({ comissionStatus: 'APPROVED', commissionRejectReason: null });
    const stored = await server.db.selectFrom('products').select(['siteCommission', 'price']).where('id', '=', ids['Copper Kettle']).executeTakeFirstOrThrow();
    expect([Number(stored.siteCommission), Number(stored.price)]).toEqual([7.25, 90.6]);
  });

  it('refuses to reject without a reason, then rejects with the one typed (keyboard only)', async () => {
    await row('Clay Teapot').getByText('Clay Teapot').click();
    await dialog().getByRole('heading', { name: 'Product commission' }).waitFor();
    // The first percentage has the focus; the decision is further on.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('root_siteCommission');
    await dialog().getByRole('radio', { name: 'Reject' }).focus();
    await page.keyboard.press('Space');
    const reason = dialog().getByRole('textbox', { name: /^Reject reason/ });
    await reason.waitFor();
    await dialog().getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await dialog().getByText('Please write why the commission is rejected.').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('root_message');
    await page.keyboard.type('The agent commission is above what this category allows.');
    await dialog().getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => toast().textContent()).toContain('Commission rejected successfully!');
    await dialog().waitFor({ state: 'detached' });
    await row('Clay Teapot').getByText('Rejected').waitFor();
    expect(await statusOf(ids['Clay Teapot'])).toEqual({
      comissionStatus: 'REJECTED',
      commissionRejectReason: 'The agent commission is above what this category allows.',
    });
  });

  it('shows each status in the dialog, with the reason of a rejected one', async () => {
    await row('Clay Teapot').getByText('Clay Teapot').click();
    await dialog().getByText('Rejected', { exact: true }).waitFor();
    await dialog().getByText('Reject reason: The agent commission is above what this category allows.').waitFor();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    await row('Copper Kettle').getByText('Copper Kettle').click();
    await dialog().getByText('Approved', { exact: true }).waitFor();
    expect(await dialog().getByText(/^Reject reason:/).count()).toBe(0);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });

  it("edits the site's percentages from the commission dialog", async () => {
    await row('Copper Kettle').getByText('Copper Kettle').click();
    await dialog().getByRole('button', { name: 'Site commission' }).click();
    await dialog().getByRole('heading', { name: 'Site commission' }).waitFor();
    const site = dialog().getByRole('spinbutton', { name: /^Site commission/ });
    await expect.poll(() => site.inputValue()).toBe('5');
    await site.fill('6');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => toast().textContent()).toContain('site commission updated successfully.');
    await dialog().waitFor({ state: 'detached' });
    const saved = await server.api('GET', '/site-commissions/', { cookie: await server.login('admin') });
    expect(saved.body).toMatchObject({ siteCommission: 6, dealerSiteCommission: 2 });
  });

  it("shows the seller its product's commission read-only, in the dark scheme too, with no axe finding", async () => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const sellerPage = await context.newPage();
    sellerPage.setDefaultTimeout(15_000);
    try {
      await signIn(sellerPage, server.url, sellerEmail, 'secret12');
      // Wherever the seller lands, its products are at their address.
      await sellerPage.evaluate(() => (location.hash = '#/products'));
      await expect.poll(() => sellerPage.locator('#react-admin-title').textContent()).toBe('Products');
      await sellerPage.getByRole('row').filter({ hasText: 'Clay Teapot' }).getByRole('button', { name: 'Details' }).click();
      const shown = sellerPage.getByRole('dialog');
      await shown.getByText('Reject reason: The agent commission is above what this category allows.').waitFor();
      expect(await shown.getByRole('textbox', { name: /^Site commission \(%\)/ }).getAttribute('readonly')).not.toBeNull();
      expect(await shown.getByRole('button', { name: 'Save' }).count()).toBe(0);
      expect(await shown.getByRole('radio').count()).toBe(0);
      await expect.poll(() => shown.evaluate((el) => getComputedStyle(el.closest('.MuiDialog-container') ?? el).opacity)).toBe('1');
      expect(describeFindings(await axeFindings(sellerPage, 'commission dialog, seller, dark'))).toBe('');
      await shown.getByRole('button', { name: 'Close' }).click();
      await shown.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });
});
