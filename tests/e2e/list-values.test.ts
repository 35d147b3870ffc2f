/**
 * Values people read and filters by kind (issue 9 §2–4), in Chromium against the built client and the
 * real server over the seeded catalogue: Countries' and Currencies' Status filters are selects of
 * words whose every choice the server answers (they were text boxes answering 400 for 'active');
 * statuses read 'Active'/'Inactive'; a category's order sorts 1, 2, …, 10; a reference is its
 * parent's name and opens the parent's update dialog; a refused list call leaves no total behind.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, openList, signIn } from './support/admin.ts';

describe.skipIf(!hasChromium)('list values in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const refused: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ catalogue: true, clientDir: inject('clientDir') });
    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(page, server.url);
    // Every read the screens make once signed in: none may be refused while the user only uses what is offered.
    page.on('response', (res) => {
      if (res.url().includes('/api/') && res.request().method() === 'GET' && res.status() >= 400) refused.push(`${res.status()} ${res.url()}`);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const rows = () => page.locator('tbody tr');
  const pagination = () => page.locator('.MuiTablePagination-displayedRows');
  /** Picks `option` in the list filter select labelled `label`. */
  async function choose(label: string, option: string) {
    const select = page.getByRole('combobox', { name: label, exact: true });
    const more = page.getByRole('button', { name: /^Filters/ });
    // Judged once the filters are drawn (the select above the list, or the button that holds the rest):
    // asked earlier, an inline select not drawn yet reads as behind the button.
    await expect.poll(async () => (await select.count()) + (await more.count())).toBeGreaterThan(0);
    // Not among the filters above the list: behind its Filters button.
    const behind = !(await select.count());
    if (behind) await more.click();
    await select.click();
    await page.getByRole('option', { name: option, exact: true }).click();
    if (behind) {
      await page.getByRole('dialog', { name: 'Filters' }).getByRole('button', { name: 'Done' }).click();
      await page.getByRole('dialog', { name: 'Filters' }).waitFor({ state: 'detached' });
    }
  }

  it('filters countries by Status with a select of words, and reads each row’s status as a word', async () => {
    await openList(page, 'Countries', 'Name');
    await expect.poll(() => pagination().textContent()).toMatch(/of 195/);
    // Not a text box any more: there is none labelled Status.
    expect(await page.getByRole('textbox', { name: 'Status', exact: true }).count()).toBe(0);
    await expect.poll(() => rows().first().locator('.MuiChip-root').textContent()).toBe('Active');

    await choose('Status', 'Inactive');
    // Every country is active: none found, and no error.
    await page.getByText(/No Countries found/i).waitFor();
    await choose('Status', 'Active');
    await expect.poll(() => pagination().textContent()).toMatch(/of 195/);
    expect(refused).toEqual([]);
  });

  it('filters currencies by Status: the inactive one reads Inactive, and its country is a linked name', async () => {
    await openList(page, 'Currencies', 'Name');
    await choose('Status', 'Inactive');
    await expect.poll(() => rows().count()).toBe(1);
    const gbp = rows().first();
    expect(await gbp.getByText('Pound Sterling').count()).toBe(1);
    expect(await gbp.locator('.MuiChip-root').filter({ hasText: 'Inactive' }).count()).toBe(1);
    // The country is held by its 3-letter code and read by name, linked to the country's own dialog
    // (countries have an update dialog: record-address.ts), opened over the countries list.
    const country = gbp.getByRole('link', { name: 'United Kingdom' });
    await country.waitFor();
    expect(await country.getAttribute('href')).toMatch(/^#\/countries\?dialog=updateCountry&id=/);
    await country.click();
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('Countries');
    await expect.poll(() => page.getByRole('dialog').getByRole('textbox', { name: /^Name/ }).inputValue()).toBe('United Kingdom');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(refused).toEqual([]);
  });

  it('sorts categories by order as numbers: 1, 2, …, 10', async () => {
    await openList(page, 'Categories', 'Name');
    await page.getByRole('columnheader', { name: 'Order' }).getByRole('button').click();
    await expect.poll(async () => (await rows().locator('td.column-order').allTextContents()).map((t) => t.trim())).toEqual(
      ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'],
    );
    await page.getByRole('columnheader', { name: 'Order' }).getByRole('button').click();
    await expect.poll(async () => (await rows().locator('td.column-order').allTextContents())[0]?.trim()).toBe('10');
  });

  it('opens a child category’s parent in its update dialog from the parent’s name', async () => {
    await openList(page, 'Child categories', 'Name');
    const first = rows().first();
    const parent = first.locator('td.column-category a');
    await parent.waitFor();
    const name = (await parent.textContent())!.trim();
    await parent.click();
    const dialog = dialogOf(page);
    await dialog.getByRole('heading', { name: 'Update category' }).waitFor();
    await expect.poll(() => dialog.getByRole('textbox', { name: /name/i }).inputValue()).toBe(name);
    expect(new URL(page.url()).hash).toMatch(/^#\/categories\?dialog=updateCategory&id=[0-9a-f]{24}$/);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('filters by a date range from the Filters button: created until yesterday finds nothing, until today finds them all', async () => {
    await openList(page, 'Top categories', 'Name');
    const all = await rows().count();
    expect(all).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    const until = page.getByRole('dialog', { name: 'Filters' }).getByLabel('Created until');
    // Days in the browser's own time zone, as its date input takes them.
    const day = (offset: number) => page.evaluate((o) => {
      const d = new Date(Date.now() + o * 86_400_000);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    }, offset);
    const sent = page.waitForRequest((req) => req.url().includes('/top-categories?') && req.url().includes('createdAt_lte'));
    await until.fill(await day(-1));
    // The last millisecond of that day where the user is, as an instant.
    const filter = JSON.parse(new URL((await sent).url()).searchParams.get('filter')!);
    expect(filter.createdAt_lte).toBe(await page.evaluate((d) => new Date(`${d}T23:59:59.999`).toISOString(), await day(-1)));
    await page.getByText(/No Top categories found/i).waitFor();
    await until.fill(await day(0));
    await expect.poll(() => rows().count()).toBe(all);
    expect(refused).toEqual([]);
  });

  it('shows the refusal, and no total, for a filter the server refuses (a stale link)', async () => {
    await page.goto(`${server.url}/#/countries?filter=${encodeURIComponent('{"status":"active"}')}`);
    await page.getByText(`'status' must be a number.`).first().waitFor();
    expect(await pagination().count()).toBe(0);
    expect(await page.getByText(/of 195/).count()).toBe(0);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => pagination().textContent()).toMatch(/of 195/);
    expect(pageErrors).toEqual([]);
  });
});
