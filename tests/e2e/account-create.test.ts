/**
 * Admin creation of accounts (issue 51 §2, and §6 "roles are not offered what the server will refuse"),
 * in Chromium against the built client and the real server, whose emails go to a real SMTP server in
 * this process (tests/support/smtp.ts). Each account is made through its real dialog, then its owner
 * signs in by the two ways a password-less account gets one:
 * - Sellers, "Create seller": the shop and its account; the admin issues a one-time password from the
 *   row's login details, the seller signs in with it and chooses its own;
 * - Dealers, "Create dealer": the profile (its Dealer ID made as the fields are typed) and the account;
 *   the dealer asks "Forgot password?", follows the emailed link and signs in with the password chosen;
 * - Users, "Create user": its Role select offers the roles without a profile alone; a support person is
 *   made and signs in the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { resetLinkOf } from '../support/smtp.ts';
import { ACCOUNT_ONLY_ROLES, users } from '../../resources/people.ts';
import { dealers, sellers } from '../../resources/accounts.ts';
import { SELF_SERVICE_MESSAGES } from '../../resources/self-service.ts';
import type { ActionDialog } from '../../src/manifest/index.ts';
import { hasChromium } from './support/browser.ts';
import { dialogOf, openList, signIn, toastOf } from './support/admin.ts';
import { accountMenu, signedInAs, signInAs, startMailedBrowser, type MailedBrowser } from './support/accounts.ts';

const SELLER = { shop: 'Rahim Traders', email: 'rahim.traders@example.com', password: 'Shop#2025' };
const DEALER = { name: 'Karim Hossain', email: 'karim.hossain@example.com', password: 'Deal#2025' };
const SUPPORT = { name: 'Sara Support', email: 'sara.support@example.com', password: 'Help#2025' };
const successOf = (d: unknown) => (d as ActionDialog).success;

// Each test signs in twice or three times in fresh contexts: on loaded cores that is more than the default two minutes.
describe.skipIf(!hasChromium)('an admin creates accounts in the browser, and their owners sign in', { timeout: 300_000 }, () => {
  let run: MailedBrowser;
  const freshPage = () => run.freshPage();
  async function adminPage(): Promise<Page> {
    const page = await freshPage();
    await signIn(page, run.server.url);
    return page;
  }
  const stored = (email: string) => run.server.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

  /** The account's owner asks for a reset link, chooses `password` with it, and signs in with that. */
  async function firstPasswordByEmail(email: string, password: string, name: string) {
    const page = await freshPage();
    // A password-less account cannot sign in with anything.
    await signInAs(page, run.server.url, email, password);
    await page.getByRole('alert').filter({ hasText: /./ }).first().waitFor();
    expect(await accountMenu(page).count()).toBe(0);

    await page.goto(`${run.server.url}/#/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByLabel(/^Email/).fill(email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByRole('status').filter({ hasText: SELF_SERVICE_MESSAGES.resetRequested }).waitFor();
    await expect.poll(() => run.smtp.to(email).length).toBe(1);
    const link = resetLinkOf(run.smtp.to(email)[0]);
    expect(link, run.smtp.to(email)[0]?.text).toBeTruthy();
    await page.goto(link!);
    await page.getByLabel(/^New password/).fill(password);
    await page.getByLabel(/^Repeat the new password/).fill(password);
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => toastOf(page).textContent()).toContain(SELF_SERVICE_MESSAGES.resetDone);
    await page.locator('input[name="username"]').waitFor();
    await signInAs(page, run.server.url, email, password);
    await signedInAs(page, name);
  }

  /** Picks a country in a dialog's country field, typed as a person types it. */
  async function chooseCountry(page: Page, dialog: ReturnType<typeof dialogOf>) {
    await dialog.getByRole('combobox', { name: /^country/i }).fill('Bangla');
    await page.getByRole('option', { name: 'Bangladesh' }).click();
  }

  beforeAll(async () => {
    run = await startMailedBrowser();
  });
  afterAll(() => run?.close());

  it('Create seller: the shop and its account; the seller signs in with a one-time password and chooses its own', async () => {
    const page = await adminPage();
    await openList(page, 'Sellers');
    await page.getByRole('button', { name: 'Create seller' }).click();
    const dialog = dialogOf(page);
    await dialog.getByRole('heading', { name: 'Create seller', exact: true }).waitFor();
    await dialog.locator('#root_shopname').fill(SELLER.shop);
    await dialog.locator('#root_email').fill(SELLER.email);
    await chooseCountry(page, dialog);
    await dialog.locator('#root_phone').fill('+8801711000321');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => toastOf(page).textContent()).toContain(successOf(sellers.dialogs.createSeller));
    await dialog.waitFor({ state: 'detached' });

    const account = await stored(SELLER.email);
    expect(account).toMatchObject({ role: 'seller', name: SELLER.shop, country: 'BD' });
    expect(account!.passwordHash ?? null).toBeNull();
    const shop = await run.server.db.selectFrom('sellers').selectAll().where('userId', '=', String(account!.id)).executeTakeFirstOrThrow();
    expect(shop).toMatchObject({ shopname: SELLER.shop, email: SELLER.email });

    // Listed, and its row's login details issue the password it signs in with.
    await page.getByPlaceholder('Search').fill('Rahim Traders');
    // The search is debounced, and the new seller may already be a row of the unfiltered page: a click
    // made before the filtered page is drawn lands where the row was, not on its menu. Wait until the
    // search is the list's filter and its one row is all the list shows.
    await expect.poll(() => decodeURIComponent(page.url())).toContain('"q":"Rahim Traders"');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    const row = page.getByRole('row').filter({ hasText: SELLER.shop });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: /login details/i }).click();
    await dialog.getByText(SELLER.email).waitFor();
    await dialog.getByRole('button', { name: 'Issue a one-time password' }).click();
    await dialog.getByRole('button', { name: 'Issue', exact: true }).click();
    const shown = dialog.getByLabel('One-time password');
    await shown.waitFor();
    const otp = (await shown.textContent())!.trim();
    expect(otp.length).toBeGreaterThanOrEqual(6);

    const seller = await freshPage();
    await signInAs(seller, run.server.url, SELLER.email, otp);
    await seller.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await seller.getByLabel(/^New password/).fill(SELLER.password);
    await seller.getByLabel(/^Repeat the new password/).fill(SELLER.password);
    await seller.getByRole('button', { name: 'Set password' }).click();
    await signedInAs(seller, SELLER.shop);

    const later = await freshPage();
    await signInAs(later, run.server.url, SELLER.email, SELLER.password);
    await signedInAs(later, SELLER.shop);
  });

  it('Create dealer: the profile and its account; the dealer gets a password by the emailed link and signs in', async () => {
    const page = await adminPage();
    await openList(page, 'Dealers');
    await page.getByRole('button', { name: 'Create dealer' }).click();
    const dialog = dialogOf(page);
    await dialog.getByRole('heading', { name: 'Create dealer', exact: true }).waitFor();
    await dialog.locator('#root_name').fill(DEALER.name);
    await dialog.locator('#root_email').fill(DEALER.email);
    await dialog.locator('#root_city').fill('Dhaka');
    await dialog.locator('#root_district').fill('Gulshan');
    await chooseCountry(page, dialog);
    await dialog.locator('#root_commission').fill('4.5');
    await expect.poll(() => dialog.locator('#root_dealerId').inputValue()).toMatch(/BGD/);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => toastOf(page).textContent()).toContain(successOf(dealers.dialogs.createDealer));
    await dialog.waitFor({ state: 'detached' });

    const account = await stored(DEALER.email);
    expect(account).toMatchObject({ role: 'dealer', name: DEALER.name });
    const profile = await run.server.db.selectFrom('dealers').selectAll().where('userId', '=', String(account!.id)).executeTakeFirstOrThrow();
    expect(profile).toMatchObject({ name: DEALER.name, city: 'Dhaka', district: 'Gulshan', country: 'BD', commission: 4.5 });

    await firstPasswordByEmail(DEALER.email, DEALER.password, DEALER.name);
  });

  it('Create user: offers the roles without a profile alone; a support person is made and signs in', async () => {
    const page = await adminPage();
    await openList(page, 'Users');
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = dialogOf(page);
    await dialog.getByRole('heading', { name: 'Create user', exact: true }).waitFor();
    await dialog.locator('#root_name').fill(SUPPORT.name);
    await dialog.locator('#root_email').fill(SUPPORT.email);
    await dialog.getByRole('combobox', { name: /^Role/ }).click();
    const roles = users.fields.find((f) => f.name === 'role')!.choices!;
    const labelOf = (value: string) => roles.find((c) => c.value === value)!.label;
    // The select's first option is its empty one (nothing chosen yet).
    const offered = async () => (await page.getByRole('listbox').getByRole('option').allTextContents()).filter(Boolean);
    await expect.poll(offered).toEqual(ACCOUNT_ONLY_ROLES.map(labelOf));
    expect(await page.getByRole('option', { name: labelOf('seller') }).count()).toBe(0);
    await page.getByRole('option', { name: labelOf('support') }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => toastOf(page).textContent()).toContain(successOf(users.dialogs.createUser));
    await dialog.waitFor({ state: 'detached' });
    expect(await stored(SUPPORT.email)).toMatchObject({ role: 'support', name: SUPPORT.name, status: 'ACTIVE' });

    await firstPasswordByEmail(SUPPORT.email, SUPPORT.password, SUPPORT.name);
    expect(run.pageErrors).toEqual([]);
  });
});
