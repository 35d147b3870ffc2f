/**
 * Applying for a job in the browser (issue 53 point 1; spec §5 Jobs, §6, §8), in Chromium against the
 * built client and the real server: a signed-in buyer opens the Jobs list, chooses Apply on a job's row,
 * sees the form refuse what the server would (§5's texts), the message's live counter n/500, uploads the
 * CV (a PDF, through the upload widget), and is told 'Application Submitted Successfully!'; the second
 * try warns 'Already Applied' and opens no form. The admin then sees the application and its CV.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { JOB_MESSAGES as M } from '../../src/features/jobs/contract.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { account } from '../api/fixtures/catalogue.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, openList, signedInPage, toastOf } from './support/admin.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const MESSAGE = 'I have led warehouse shifts for three years and know dispatch software well.';

describe.skipIf(!hasChromium)('applying for a job in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let buyer: { id: string; cookie: string; email: string };
  let job: { id: string; title: string };
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
    const admin = await server.login('admin');
    const posted = await server.api('POST', '/jobs', {
      cookie: admin,
      body: { title: `Dispatch lead ${Date.now().toString(36)}`, description: 'Lead dispatch for the Dhaka warehouse, evenings included.', employmentType: 'FULL_TIME', location: 'Dhaka', remote: false, pay: 9000, currency: 'USD' },
    });
    expect(posted.status).toBe(201);
    job = posted.body;
    buyer = await account(server, 'user');
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const pageAs = (email: string, password: string) => signedInPage(browser, server.url, email, password, pageErrors);

  async function openApply(page: Page) {
    const row = page.getByRole('row').filter({ hasText: job.title });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Apply for this job' }).click();
  }

  it('refuses what the server would, counts the message, uploads the CV and submits once', async () => {
    const page = await pageAs(buyer.email, 'secret12');
    await openList(page, 'Jobs');
    await openApply(page);
    const dialog = dialogOf(page);
    await dialog.getByRole('heading', { name: 'Apply for this job' }).waitFor();

    // §5's texts under the fields, nothing sent.
    await dialog.locator('#root_whatsapp').fill('12345');
    await dialog.locator('#root_message').fill('Too short');
    await dialog.getByRole('button', { name: 'Submit application' }).click();
    for (const text of [M.whatsappShort, M.cvresume, M.messageShort]) await dialog.getByText(text, { exact: true }).first().waitFor();
    await dialog.locator('#root_whatsapp').fill('+880 17-1100-0000x');
    await dialog.getByText(M.whatsappLong, { exact: true }).or(dialog.getByText(M.whatsappInvalid, { exact: true })).first().waitFor();

    // The live counter follows the message.
    await dialog.getByText('9/500').waitFor();
    await dialog.locator('#root_message').fill(MESSAGE);
    await dialog.getByText(`${MESSAGE.length}/500`).waitFor();
    expect(await server.db.selectFrom('jobApplications').selectAll().where('userId', '=', buyer.id).execute()).toEqual([]);

    await dialog.locator('#root_whatsapp').fill('+880 1711-00000');
    await dialog.locator('#root_country').fill('Bangladesh');
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'cv.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect.poll(async () => (await dialog.getByText(M.cvresume, { exact: true }).count())).toBe(0);
    await dialog.getByRole('button', { name: 'Submit application' }).click();
    await expect.poll(() => toastOf(page).textContent()).toContain(M.submittedTitle);
    expect(await toastOf(page).textContent()).toContain(M.submitted);
    await dialog.waitFor({ state: 'detached' });

    const stored = await server.db.selectFrom('jobApplications').selectAll().where('userId', '=', buyer.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ job: job.id, whatsapp: '+880 1711-00000', message: MESSAGE, country: 'Bangladesh', status: 'NEW' });
    // The CV is stored privately: the buyer fetches it, a guest does not.
    const cv = String(stored[0].cvresume);
    expect((await fetch(new URL(cv, server.url), { headers: { cookie: buyer.cookie } })).status).toBe(200);
    expect((await fetch(new URL(cv, server.url))).status).toBe(404);

    // The second try: warned, no form.
    await page.reload();
    await page.locator('#react-admin-title').waitFor();
    await openApply(page);
    await expect.poll(() => toastOf(page).textContent()).toContain(M.alreadyTitle);
    expect(await toastOf(page).textContent()).toContain(M.alreadyApplied);
    await expect.poll(() => dialogOf(page).count()).toBe(0);
    expect(await server.db.selectFrom('jobApplications').selectAll().where('userId', '=', buyer.id).execute()).toHaveLength(1);
    expect(pageErrors).toEqual([]);
  });

  it('the admin sees the application, opens its details with the CV, and shortlists it', async () => {
    const page = await pageAs('admin@demo.test', 'demo1234');
    await openList(page, 'Job applications');
    const row = page.getByRole('row').filter({ hasText: '+880 1711-00000' });
    await expect.poll(() => row.count()).toBe(1);
    await row.click();
    const dialog = dialogOf(page);
    await dialog.getByText(MESSAGE).waitFor();
    await dialog.getByRole('link', { name: /cv|\.pdf|open/i }).first().waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The review's transitions are in the row's menu; each opens its form.
    await row.getByRole('button', { name: 'More actions' }).click();
    expect(await page.getByRole('menuitem').allTextContents()).toEqual(['Mark reviewed', 'Shortlist', 'Reject']);
    await page.getByRole('menuitem', { name: 'Shortlist' }).click();
    const step = dialogOf(page);
    await step.getByRole('heading', { name: 'Shortlist' }).waitFor();
    await step.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => toastOf(page).textContent()).toContain('Application shortlisted.');
    await expect.poll(async () => (await server.db.selectFrom('jobApplications').select('status').where('userId', '=', buyer.id).executeTakeFirst())?.status).toBe('SHORTLISTED');
    const told = await server.db.selectFrom('notifications').select('title').where('userId', '=', buyer.id).execute();
    expect(told.map((t) => t.title)).toContain('Application shortlisted');
    expect(pageErrors).toEqual([]);
  });
});
