/**
 * An account's own flows in Chromium against the built client and the real server: the admin opens a
 * seller's login details (seller-login-details), issues a one-time password and reads it once; the
 * seller signs in with it in a fresh browser context and is made to choose a new password before
 * anything else; then the seller's profile (user-profile-details-modal) is opened from the account menu.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { PASSWORD_MESSAGES } from '../../resources/people.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, openList, signIn, toastOf } from './support/admin.ts';
import { axeFindings, describeFindings } from './support/axe.ts';

describe.skipIf(!hasChromium)('one-time passwords and the profile in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  let otp = '';

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
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

  it('the admin issues a one-time password from a seller’s login details and sees it once', async () => {
    await openList(page, 'Sellers');
    const row = page.getByRole('row').filter({ hasText: 'Demo Seller Shop' });
    // Declared on the accounts (resources/people.ts), offered in the seller row's "More actions".
    const openLoginDetails = async () => {
      await row.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: /login details/i }).click();
    };
    await openLoginDetails();
    const dialog = dialogOf(page);
    await dialog.getByText('seller@demo.test').waitFor();
    const area = dialog.getByRole('link', { name: `${server.url}/seller` });
    expect(await area.getAttribute('href')).toBe(`${server.url}/seller`);
    // Nothing of a password is shown before one is issued.
    expect(await dialog.getByLabel('One-time password').count()).toBe(0);

    await dialog.getByRole('button', { name: 'Issue a one-time password' }).click();
    await dialog.getByText('The current password stops working and every session of this account ends.').waitFor();
    const confirmFindings = await axeFindings(page, 'login details, confirming');
    expect(confirmFindings, describeFindings(confirmFindings)).toEqual([]);
    await dialog.getByRole('button', { name: 'Issue', exact: true }).click();
    const shown = dialog.getByLabel('One-time password');
    await shown.waitFor();
    otp = (await shown.textContent())!.trim();
    expect(otp).toMatch(/^[A-Za-z2-9]{12}$/);
    await dialog.getByText(/Shown only now\. It was emailed to seller@demo\.test/).waitFor();
    const issuedFindings = await axeFindings(page, 'login details, issued');
    expect(issuedFindings, describeFindings(issuedFindings)).toEqual([]);

    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Opened again, the dialog has forgotten it. It reads the account afresh (held back here): until the
    // account is in, it says it is loading and shows none of it; then the login, the account's state and
    // the button come at once, so nothing moves under a pointer on its way to Close.
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    const account = '**/api/admin/v1/users/*';
    await page.route(account, async (route) => {
      await held;
      await route.continue();
    });
    await openLoginDetails();
    await dialogOf(page).getByRole('progressbar', { name: 'Loading account' }).waitFor();
    expect(await dialogOf(page).getByRole('button', { name: 'Issue a one-time password' }).count()).toBe(0);
    expect(await dialogOf(page).getByText('seller@demo.test').count()).toBe(0);
    release();
    await dialogOf(page).getByRole('button', { name: 'Issue a one-time password' }).waitFor();
    expect(await dialogOf(page).getByText('Must choose a new password').count()).toBe(1);
    expect(await dialogOf(page).getByRole('progressbar').count()).toBe(0);
    await page.unroute(account);
    expect(await dialogOf(page).getByText(otp).count()).toBe(0);
    await dialogOf(page).getByRole('button', { name: 'Close' }).click();
    await dialogOf(page).waitFor({ state: 'detached' });

    const history = await server.db.selectFrom('emailHistory').selectAll().where('to', '=', 'seller@demo.test').execute();
    expect(history).toHaveLength(1);
    expect(JSON.stringify(history)).not.toContain(otp);
  });

  it('the seller signs in with it in a fresh context and must choose a new password first', async () => {
    const context = await browser.newContext();
    const seller = await context.newPage();
    seller.setDefaultTimeout(15_000);
    seller.on('pageerror', (e) => pageErrors.push(e.message));
    try {
      await seller.goto(server.url);
      await seller.locator('input[name="username"]').fill('seller@demo.test');
      await seller.locator('input[name="password"]').fill(otp);
      await seller.getByRole('button', { name: /sign in/i }).click();
      await seller.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      // No screen behind the form: no menu.
      expect(await seller.getByRole('menuitem').count()).toBe(0);
      const gateFindings = await axeFindings(seller, 'choose a new password');
      expect(gateFindings, describeFindings(gateFindings)).toEqual([]);

      const fresh = seller.getByLabel('New password', { exact: false }).first();
      await fresh.fill('abc');
      await seller.getByLabel(/Repeat the new password/).fill('abc');
      await seller.getByRole('button', { name: 'Set password' }).click();
      await seller.getByText(PASSWORD_MESSAGES.short).waitFor();
      await fresh.fill('Shop#2025');
      await seller.getByLabel(/Repeat the new password/).fill('Shop#2026');
      await seller.getByRole('button', { name: 'Set password' }).click();
      await seller.getByText('The passwords do not match.').waitFor();
      await seller.getByLabel(/Repeat the new password/).fill('Shop#2025');
      await seller.getByRole('button', { name: 'Set password' }).click();
      await expect.poll(() => toastOf(seller).textContent()).toContain('Your new password is set.');
      await seller.getByRole('menuitem').first().waitFor();
      expect(await seller.getByRole('heading', { name: 'Choose a new password' }).count()).toBe(0);

      // The profile, from the account menu: the stored values, email shown but not editable.
      await seller.getByRole('button', { name: /account menu/i }).click();
      await seller.getByRole('menuitem', { name: 'Profile' }).click();
      const profile = dialogOf(seller);
      await profile.getByRole('heading', { name: 'Profile' }).waitFor();
      const email = profile.getByRole('textbox', { name: /^email/i });
      expect(await email.inputValue()).toBe('seller@demo.test');
      expect(await email.isDisabled()).toBe(true);
      await profile.getByRole('textbox', { name: /^whatsapp/i }).fill('+8801712345678');
      await profile.getByRole('textbox', { name: /^designation/i }).fill('Shop owner');
      await profile.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => toastOf(seller).textContent()).toContain('Profile updated successfully.');
      const stored = await server.db.selectFrom('users').selectAll().where('email', '=', 'seller@demo.test').executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ whatsapp: '+8801712345678', designation: 'Shop owner', mustChangePassword: 0 });
    } finally {
      await context.close();
    }
    const signIn = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'seller@demo.test', password: 'Shop#2025' }),
    });
    expect(signIn.status).toBe(200);
    expect(pageErrors).toEqual([]);
  });
});
