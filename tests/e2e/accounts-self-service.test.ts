/**
 * Accounts people manage themselves (issue 51), in Chromium against the built client and the real
 * server, whose emails go to a real SMTP server in this process (tests/support/smtp.ts):
 * - a buyer follows a referral link, signs up from the sign-in page's "Create account" (the code filled
 *   in, §5's password messages on the way), is signed in, and later signs in with the same password;
 * - "Forgot password?": the link is emailed, opened, a new password chosen, and signed in with; opened
 *   again, the link says it was used;
 * - "Change password" in the account menu: the current password is checked, the new one works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { resetLinkOf } from '../support/smtp.ts';
import { PASSWORD_MESSAGES } from '../../resources/people.ts';
import { SELF_SERVICE_MESSAGES } from '../../resources/self-service.ts';
import { hasChromium } from './support/browser.ts';
import { accountMenu, signInAs as signInWith, startMailedBrowser, type MailedBrowser } from './support/accounts.ts';
import { dialogOf, toastOf } from './support/admin.ts';
import { axeFindings, describeFindings } from './support/axe.ts';

const BUYER = { name: 'Nadia Rahman', email: 'nadia@example.com', password: 'Buyer#2025' };
const AFTER_RESET = 'Reset#2025';
const AFTER_CHANGE = 'Change#2025';

// Each test signs in two or three times in fresh contexts: on loaded cores that is more than the default two minutes.
describe.skipIf(!hasChromium)('accounts people manage themselves, in the browser', { timeout: 300_000 }, () => {
  let run: MailedBrowser;
  const freshPage = () => run.freshPage();
  const signInAs = (page: Page, email: string, password: string) => signInWith(page, run.server.url, email, password);

  beforeAll(async () => {
    run = await startMailedBrowser();
  });
  afterAll(() => run?.close());

  it('signs a referred buyer up from the sign-in page, signed in at once and again later', async () => {
    const page = await freshPage();
    // A referral link (spec §9 `bref`): the seeded agent's invite code.
    await page.goto(`${run.server.url}/?bref=DEMO-AGENT#/login`);
    await page.getByRole('link', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Create account', level: 1 }).waitFor();
    expect(await page.getByLabel('Referral code (optional)').inputValue()).toBe('DEMO-AGENT');
    const findings = await axeFindings(page, 'sign-up');
    expect(findings, describeFindings(findings)).toEqual([]);

    await page.getByLabel(/^Name/).fill(BUYER.name);
    await page.getByLabel(/^Email/).fill(BUYER.email);
    await page.getByLabel(/^Password/).fill('abc');
    await page.getByLabel(/^Repeat the password/).fill('abd');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(PASSWORD_MESSAGES.short).waitFor();
    await page.getByText(SELF_SERVICE_MESSAGES.mismatch).waitFor();
    await page.getByLabel(/^Password/).fill(BUYER.password);
    await page.getByLabel(/^Repeat the password/).fill(BUYER.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    // Signed in as the new buyer.
    await expect.poll(() => accountMenu(page).getAttribute('aria-label')).toBe(`${BUYER.name}, account menu`);

    const stored = await run.server.db.selectFrom('users').selectAll().where('email', '=', BUYER.email).executeTakeFirstOrThrow();
    const agent = await run.server.db.selectFrom('users').select('id').where('email', '=', 'agent@demo.test').executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ name: BUYER.name, role: 'user', referredBy: agent.id });

    const later = await freshPage();
    await signInAs(later, BUYER.email, BUYER.password);
    await expect.poll(() => accountMenu(later).getAttribute('aria-label')).toBe(`${BUYER.name}, account menu`);
  });

  it('resets a forgotten password with the emailed link, which works once', async () => {
    const page = await freshPage();
    await page.goto(`${run.server.url}/#/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot password?', level: 1 }).waitFor();
    await page.getByLabel(/^Email/).fill(BUYER.email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByRole('status').filter({ hasText: SELF_SERVICE_MESSAGES.resetRequested }).waitFor();

    await expect.poll(() => run.smtp.to(BUYER.email).length).toBe(1);
    const link = resetLinkOf(run.smtp.to(BUYER.email)[0]);
    expect(link, run.smtp.to(BUYER.email)[0].text).toMatch(new RegExp(`^${run.server.url}/#/reset-password\\?token=`));

    await page.goto(link!);
    await page.getByRole('heading', { name: 'Choose a new password', level: 1 }).waitFor();
    const findings = await axeFindings(page, 'reset password');
    expect(findings, describeFindings(findings)).toEqual([]);
    await page.getByLabel(/^New password/).fill(AFTER_RESET);
    await page.getByLabel(/^Repeat the new password/).fill(AFTER_RESET);
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => toastOf(page).textContent()).toContain(SELF_SERVICE_MESSAGES.resetDone);
    await page.locator('input[name="username"]').waitFor();

    await signInAs(page, BUYER.email, AFTER_RESET);
    await expect.poll(() => accountMenu(page).getAttribute('aria-label')).toBe(`${BUYER.name}, account menu`);

    // The link again, in another browser: used up.
    const again = await freshPage();
    await again.goto(link!);
    await again.getByLabel(/^New password/).fill('Other#2025');
    await again.getByLabel(/^Repeat the new password/).fill('Other#2025');
    await again.getByRole('button', { name: 'Set password' }).click();
    await again.getByRole('alert').filter({ hasText: SELF_SERVICE_MESSAGES.badToken }).first().waitFor();
  });

  it('changes the password from the account menu', async () => {
    const page = await freshPage();
    await signInAs(page, BUYER.email, AFTER_RESET);
    await accountMenu(page).click();
    await page.getByRole('menuitem', { name: 'Change password' }).click();
    const dialog = dialogOf(page);
    await dialog.getByRole('heading', { name: 'Change password' }).waitFor();
    const findings = await axeFindings(page, 'change password');
    expect(findings, describeFindings(findings)).toEqual([]);

    await dialog.getByLabel(/^Current password/).fill('Wrong#2025');
    await dialog.getByLabel(/^New password/).fill(AFTER_CHANGE);
    await dialog.getByLabel(/^Repeat the new password/).fill(AFTER_CHANGE);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Current password is wrong.').waitFor();

    await dialog.getByLabel(/^Current password/).fill(AFTER_RESET);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => toastOf(page).textContent()).toContain(SELF_SERVICE_MESSAGES.passwordChanged);
    await dialog.waitFor({ state: 'detached' });
    // Still signed in here (the answer started this session afresh).
    expect((await page.request.get(`${run.server.url}/api/admin/v1/getcurrentuser`)).status()).toBe(200);

    const later = await freshPage();
    await signInAs(later, BUYER.email, AFTER_RESET);
    await later.getByText(/Invalid email or password/).first().waitFor();
    await signInAs(later, BUYER.email, AFTER_CHANGE);
    await expect.poll(() => accountMenu(later).getAttribute('aria-label')).toBe(`${BUYER.name}, account menu`);
    expect(run.pageErrors).toEqual([]);
  });
});
