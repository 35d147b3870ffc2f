/**
 * Creating an agent in Chromium, as the admin does it: Agents, "Create agent" (an action dialog, offered
 * in the toolbar like a create), the read-only Agent ID filled live as the name, city, district and
 * country are typed (spec §3/§9: initials and the country's alpha-3 code, 'XX' while unknown), then
 * saved: the toast, the stored agent and its account, and the new row with its id. The seed already
 * holds a Rahim Uddin of Mirpur, Dhaka: the server makes the id unique with '-2'.
 * And a row's "More actions" menu (the commission, replace and login dialogs): by keyboard, with no
 * axe-core finding while open, and on a phone's cards as on the table.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, openList, signIn, toastOf } from './support/admin.ts';
import { axeFindings, describeFindings } from './support/axe.ts';

describe.skipIf(!hasChromium)('creating an agent in the browser', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir'), catalogue: true });
    browser = await launch();
  });

  /** The admin signed in, in a context of its own: no list filter or page is left from another test. */
  async function adminPage(): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.url);
    return page;
  }
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('Create agent: the Agent ID follows the name, city, district and country; the new agent is listed', async () => {
    const page = await adminPage();
    await openList(page, 'Agents', 'Name');
    await page.getByRole('button', { name: 'Create agent' }).click();
    const dialog = dialogOf(page);
    await dialog.getByRole('heading', { name: 'Create agent', exact: true }).waitFor();
    const agentId = dialog.locator('#root_agentId');
    await agentId.waitFor();
    expect(await agentId.isEditable()).toBe(false);

    // Typed key by key, as a person types: the id is made again on every change.
    await dialog.locator('#root_name').pressSequentially('Rahim Uddin');
    await expect.poll(() => agentId.inputValue()).toBe('R.XX');
    await dialog.locator('#root_city').pressSequentially('Dhaka');
    await expect.poll(() => agentId.inputValue()).toBe('R.D.XX');
    await dialog.locator('#root_district').pressSequentially('Mirpur');
    await expect.poll(() => agentId.inputValue()).toBe('R.D.M.XX');
    const country = dialog.getByRole('combobox', { name: /^country/i });
    await country.fill('Bangla');
    await page.getByRole('option', { name: 'Bangladesh' }).click();
    await expect.poll(() => agentId.inputValue()).toBe('R.D.M.BGD');

    await dialog.locator('#root_email').fill('rahim.uddin.2@example.com');
    await dialog.locator('#root_phone').fill('+8801911000499');
    await dialog.locator('#root_commission').fill('2.5');
    await dialog.locator('#root_fulladdress').fill('House 7, Road 11, Mirpur 1, Dhaka');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => toastOf(page).textContent()).toContain('Agent created successfully.');
    await dialog.waitFor({ state: 'detached' });

    const stored = await server.db.selectFrom('agents').selectAll().where('email', '=', 'rahim.uddin.2@example.com').executeTakeFirstOrThrow();
    // Another Rahim Uddin of Mirpur, Dhaka holds 'R.D.M.BGD' (the seed's): this one is the second.
    expect(stored).toMatchObject({ name: 'Rahim Uddin', city: 'Dhaka', district: 'Mirpur', country: 'BD', agentId: 'R.D.M.BGD-2' });
    const account = await server.db.selectFrom('users').selectAll().where('id', '=', String(stored.userId)).executeTakeFirstOrThrow();
    expect(account).toMatchObject({ email: 'rahim.uddin.2@example.com', role: 'agent' });

    await page.getByPlaceholder('Search').fill('rahim.uddin.2');
    await expect.poll(() => decodeURIComponent(page.url())).toContain('"q":"rahim.uddin.2"');
    // Listed: the one row the search leaves. Its Agent ID may be a column the list left out to fit the
    // width (it is in Columns), so it is read where it is always shown: the record opened from its row.
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.locator('tbody tr').first().getByText('Rahim Uddin').click();
    await expect.poll(() => dialogOf(page).locator('#root_agentId').inputValue()).toBe('R.D.M.BGD-2');
  });

  it('a row\'s "More actions" menu: keyboard, axe-clean, and on a phone', async () => {
    const page = await adminPage();
    await openList(page, 'Agents', 'Name');
    const row = page.getByRole('row').filter({ hasText: 'agent@demo.test' });
    await row.getByRole('button', { name: 'More actions' }).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Agent commission', 'Replace agent', 'Agent login details']);
    const findings = await axeFindings(page, 'agents row menu');
    expect(findings, describeFindings(findings)).toEqual([]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await dialogOf(page).getByRole('heading', { name: 'Replace agent', exact: true }).waitFor();
    expect(await dialogOf(page).locator('#root_name').inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await dialogOf(page).waitFor({ state: 'detached' });

    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
    phone.setDefaultTimeout(20_000);
    await phone.goto(server.url);
    await phone.locator('input[name="username"]').fill('admin@demo.test');
    await phone.locator('input[name="password"]').fill('demo1234');
    await phone.getByRole('button', { name: /sign in/i }).click();
    await phone.locator('#react-admin-title').waitFor();
    await phone.evaluate(() => (location.hash = '#/agents'));
    const card = phone.getByRole('list', { name: 'Agents' }).getByRole('listitem').first();
    await card.waitFor();
    await phone.getByRole('button', { name: 'Create agent' }).waitFor();
    await card.getByRole('button', { name: 'More actions' }).click();
    await phone.getByRole('menuitem', { name: 'Agent login details' }).click();
    await phone.getByRole('dialog').getByRole('heading', { name: 'Agent login details', exact: true }).waitFor();
    await phone.context().close();
  });
});
