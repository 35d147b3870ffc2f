/**
 * Lists that fit their screen (issue 51 §3, §4, §9), in Chromium against the built client and the real
 * server. On every list the admin has (read from the registry, so a new resource is covered), at
 * 1366×850 and at 390×844: nothing scrolls sideways (neither the page nor the table's own box) and the
 * first row's actions are in sight; a column left out to fit is in the column chooser; long text is cut
 * with its full text on hover. Products shows the search and two filters, the rest behind a Filters
 * button (a drawer on a phone) that counts those in use. With the keyboard: choosing a list in the menu
 * focuses its heading, every stop before the first row is a visible control, and Enter opens a row.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { registry } from '../../resources/index.ts';
import { allows, type ResourceDef } from '../../src/manifest/index.ts';
import { listAccess } from '../../src/client/generate/access.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, signIn } from './support/admin.ts';

const DESKTOP = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };
const lists = registry.resources.filter((r) => r.reads.list?.kind === 'list' && allows(listAccess(r), 'admin'));
const LONG_NAME = `Garden furniture ${'and outdoor living '.repeat(8)}end`;

/** How far the page, or any box around the list's table, scrolls sideways (0: it fits). */
const sidewaysScroll = (page: Page) =>
  page.evaluate(() => {
    const root = document.documentElement;
    const found: string[] = [];
    if (root.scrollWidth > window.innerWidth) found.push(`the page is ${root.scrollWidth} px wide`);
    const table = document.querySelector('main table');
    for (let el = table?.parentElement; el && el !== root; el = el.parentElement)
      if (el.scrollWidth > el.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(el).overflowX))
        found.push(`the table scrolls in a ${el.clientWidth} px box: ${el.scrollWidth} px wide`);
    return found;
  });

/** Whether the control is on screen and is what a pointer there would reach (nothing covers it). */
const inSight = (control: Locator, viewport: { width: number; height: number }) =>
  control.evaluate((el, { width, height }) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.left < 0 || r.right > width + 0.5 || r.top < 0 || r.bottom > height) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && (el === hit || el.contains(hit));
  }, viewport);

/** What is wrong with the list on screen: how it scrolls sideways, and its first row's actions out of sight. */
async function judge(page: Page, r: ResourceDef, viewport: { width: number; height: number }) {
  const found = await sidewaysScroll(page);
  const first = page.locator('main tbody tr').or(page.getByRole('list', { name: r.plural }).getByRole('listitem')).first();
  if (!(await first.count())) return found;
  for (const action of await first.getByRole('button').all()) {
    if (await action.isDisabled()) continue; // the first row's Move up
    const label = (await action.getAttribute('aria-label')) ?? (await action.textContent());
    if (label?.startsWith('Open ')) continue; // a card's title
    if (!(await inSight(action, viewport))) found.push(`the first row's ${label} is out of sight`);
  }
  return found;
}

describe.skipIf(!hasChromium)('lists that fit, filters that do not bury the rows, rows the keyboard reaches', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ catalogue: true, clientDir: inject('clientDir') });
    const admin = await server.login('admin');
    await server.api('POST', '/categories', { cookie: admin, body: { name: LONG_NAME } });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function newPage(viewport: { width: number; height: number }) {
    const phone = viewport.width < 600;
    const context = await browser.newContext({ viewport, isMobile: phone, hasTouch: phone, reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.url);
    return page;
  }

  async function showList(page: Page, r: ResourceDef, query = '') {
    await page.evaluate((hash) => (location.hash = hash), `#/${r.name}${query}`);
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(r.plural);
    await page
      .locator('main tbody tr')
      .or(page.getByRole('list', { name: r.plural }).getByRole('listitem'))
      .or(page.getByText(/^(No .* (yet|found)|The .* is empty)/))
      .first()
      .waitFor();
    await page.locator('.MuiLinearProgress-root').first().waitFor({ state: 'detached' }).catch(() => {});
  }

  for (const [name, viewport] of [
    ['1366×850', DESKTOP],
    ['390×844', PHONE],
  ] as const)
    it(`fits every list at ${name}: nothing scrolls sideways, and the first row's actions are in sight`, async () => {
      const page = await newPage(viewport);
      const problems: string[] = [];
      for (const r of lists) {
        await showList(page, r);
        // The columns are chosen once the rows have drawn (and again as later reads widen a cell): a list is
        // judged once it has settled, up to 15 s. In CI, beside another browser file, Dealers was still 4 px
        // too wide at 5 s once, and another time its table fitted while its first row's History was still
        // out of sight; alone it fits at once. A list that never settles is reported as last seen.
        let found: string[] = [];
        await expect
          .poll(async () => (found = await judge(page, r, viewport)), { timeout: 15_000 })
          .toEqual([])
          .catch(() => {});
        problems.push(...found.map((f) => `${r.name}: ${f}`));
      }
      await page.context().close();
      expect(problems).toEqual([]);
    }, 240_000);

  it('keeps a column left out to fit in the Columns chooser; ticked on, it shows and the actions stay in sight', async () => {
    const page = await newPage(DESKTOP);
    const agents = registry.resource('agents');
    await showList(page, agents);
    await page.getByRole('button', { name: 'Columns' }).click();
    const chooser = page.getByRole('dialog', { name: 'Shown columns' });
    // The timestamps start hidden; any other unticked column was left out to fit.
    const unticked = chooser.getByRole('checkbox', { checked: false });
    const leftOut: string[] = [];
    for (const box of await unticked.all()) {
      const label = (await box.evaluate((el) => el.closest('label')?.textContent ?? '')).trim();
      if (label !== 'Created' && label !== 'Updated') leftOut.push(label);
    }
    expect(leftOut.length, 'the Agents list leaves a column out at 1366 px').toBeGreaterThan(0);
    await chooser.getByRole('checkbox', { name: leftOut[0], exact: true }).check();
    await page.keyboard.press('Escape');
    await chooser.waitFor({ state: 'detached' });
    await page.getByRole('columnheader', { name: leftOut[0] }).waitFor();
    const first = page.locator('main tbody tr').first();
    // Judged once the table has made room for it (the columns are chosen again after the choice).
    for (const action of await first.getByRole('button').all())
      if (await action.isEnabled())
        await expect.poll(() => inSight(action, DESKTOP), { message: `${await action.getAttribute('aria-label')} in sight` }).toBe(true);
    await page.context().close();
  });

  it("keeps a row's open More actions menu open while the list fits its columns again", async () => {
    // The columns are chosen again whenever the rows or the width change: a search that leaves fewer rows,
    // a narrower window. The row's menu, open meanwhile, must stay open on its record: in CI a search
    // applied just after the click refitted the Sellers list and closed the menu (the actions cell had been
    // keyed by its place among the columns, so one column fewer drew it anew).
    const page = await newPage(DESKTOP);
    const agents = registry.resource('agents');
    await showList(page, agents);
    const headers = page.locator('main thead th');
    const before = await headers.count();
    const row = page.locator('main tbody tr').first();
    await row.getByRole('button', { name: 'More actions' }).click();
    // Drawn in its row (not in a portal): the row's own menu, not the navigation's.
    const menu = row.getByRole('menu');
    await menu.waitFor();
    const items = await menu.getByRole('menuitem').allTextContents();
    await page.setViewportSize({ width: 900, height: DESKTOP.height });
    await expect.poll(() => headers.count(), { message: 'a column is left out at 900 px' }).toBeLessThan(before);
    expect(await menu.isVisible(), 'the menu is still open').toBe(true);
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(items);
    await page.context().close();
  });

  it("keeps an open More actions menu with its record when a reload moves it, and closes it when the record leaves", async () => {
    // Rows are keyed by their place (list-body.tsx): a filter applied just after the click (a debounced
    // search) moves the record to the first row, another record's row before. The menu goes with it.
    const page = await newPage(DESKTOP);
    const agents = registry.resource('agents');
    await showList(page, agents);
    const rows = page.locator('main tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThan(2);
    const email = (await rows.nth(2).locator('td').filter({ hasText: '@' }).first().textContent())?.trim();
    expect(email, 'the third row shows its email').toMatch(/@/);
    await rows.nth(2).getByRole('button', { name: 'More actions' }).click();
    const items = await rows.nth(2).getByRole('menu').getByRole('menuitem').allTextContents();
    expect(items.length).toBeGreaterThan(0);

    await page.evaluate((q) => (location.hash = `#/agents?filter=${encodeURIComponent(JSON.stringify({ q }))}`), email!);
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => rows.first().getByRole('menu').getByRole('menuitem').allTextContents()).toEqual(items);
    expect(await rows.first().textContent()).toContain(email);

    // Its record gone from the page, the menu closes, and does not come back open with it.
    await page.evaluate(() => (location.hash = `#/agents?filter=${encodeURIComponent(JSON.stringify({ q: 'no such agent at all' }))}`));
    await page.getByText(/^No .* found/).waitFor();
    await expect.poll(() => page.getByRole('menuitem', { name: items[0], exact: true }).count()).toBe(0);
    await page.evaluate((q) => (location.hash = `#/agents?filter=${encodeURIComponent(JSON.stringify({ q }))}`), email!);
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => rows.first().getByRole('button', { name: 'More actions' }).getAttribute('aria-expanded')).toBeNull();
    expect(await page.getByRole('menuitem', { name: items[0], exact: true }).count()).toBe(0);
    await page.context().close();
  });

  it('cuts long text to a line, with the full text on hover', async () => {
    const page = await newPage(DESKTOP);
    await showList(page, registry.resource('categories'), `?filter=${encodeURIComponent(JSON.stringify({ q: 'outdoor living' }))}`);
    const text = page.locator('main tbody td').getByText(LONG_NAME, { exact: true });
    const cut = await text.evaluate((el) => ({ full: el.scrollWidth, shown: el.clientWidth, height: el.getBoundingClientRect().height }));
    expect(cut.shown).toBeLessThan(cut.full);
    expect(cut.height).toBeLessThan(30); // one line
    await text.hover();
    await expect.poll(() => text.getAttribute('title')).toBe(LONG_NAME);
    await page.context().close();
  });

  it('shows the search and two filters above Products, the rest behind Filters with a count of those in use', async () => {
    const page = await newPage(DESKTOP);
    const products = registry.resource('products');
    await showList(page, products);
    const filterForm = page.locator('form').filter({ has: page.getByPlaceholder('Search') });
    expect(await filterForm.locator('input:not([type="hidden"])').count()).toBeLessThanOrEqual(3);
    // One row of filters, not three.
    expect((await filterForm.boundingBox())!.height).toBeLessThan(80);

    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Filters' });
    await drawer.getByRole('combobox', { name: 'Commission status' }).click();
    await page.getByRole('option', { name: 'Approved' }).click();
    await expect.poll(() => decodeURIComponent(page.url())).toContain('"comissionStatus":"APPROVED"');
    await drawer.getByRole('button', { name: 'Done' }).click();
    await drawer.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Filters (1)', exact: true }).waitFor();
    // The rows are the approved products (the status column itself may be left out to fit).
    const approved = (await server.db.selectFrom('products').select('name').where('comissionStatus', '=', 'APPROVED').execute()).map((p) => p.name);
    const names = page.locator('main tbody td.column-name');
    await expect.poll(async () => (await names.allTextContents()).every((n) => approved.includes(n))).toBe(true);
    expect(await names.count()).toBe(Math.min(approved.length, 25));
    await page.context().close();
  });

  it('on a phone: only the search above the cards, the first card on the first screen, the filters in a drawer', async () => {
    const page = await newPage(PHONE);
    const products = registry.resource('products');
    await showList(page, products);
    const filterForm = page.locator('form').filter({ has: page.getByPlaceholder('Search') });
    expect(await filterForm.locator('input:not([type="hidden"])').count()).toBe(1);
    const card = page.getByRole('list', { name: products.plural }).getByRole('listitem').first();
    expect((await card.boundingBox())!.y).toBeLessThan(PHONE.height / 2);
    // A product's card shows its prices and its commission status.
    for (const label of ['Sell price', 'Commission status']) expect(await card.getByText(label, { exact: true }).count(), label).toBe(1);

    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Filters' });
    await drawer.getByRole('combobox', { name: 'Seller' }).waitFor();
    const box = (await drawer.boundingBox())!;
    // A drawer from the bottom, across the screen.
    expect(Math.round(box.width)).toBe(PHONE.width);
    expect(Math.round(box.y + box.height)).toBe(PHONE.height);
    await drawer.getByRole('combobox', { name: 'Commission status' }).click();
    await page.getByRole('option', { name: 'Rejected' }).click();
    await expect.poll(() => decodeURIComponent(page.url())).toContain('"comissionStatus":"REJECTED"');
    await drawer.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Filters (1)', exact: true }).waitFor();
    await page.context().close();
  });

  it('with the keyboard: a list chosen in the menu has the focus on its heading, visible stops only, and Enter opens a row', async () => {
    const page = await newPage(DESKTOP);
    const item = page.getByRole('menuitem', { name: 'Categories', exact: true });
    await item.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => ({ tag: document.activeElement?.tagName, text: document.activeElement?.textContent }))).toEqual({
      tag: 'H1',
      text: 'Categories',
    });
    await page.locator('main tbody tr').first().waitFor();
    await page.locator('.MuiLinearProgress-root').first().waitFor({ state: 'detached' }).catch(() => {});

    const stops: string[] = [];
    let row = '';
    for (let i = 0; i < 40 && !row; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        // A checkbox's input is see-through over the box drawn for it: the box is what shows.
        const shown = el.matches('input[type="checkbox"]') ? el.parentElement! : el;
        const r = shown.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {
          name: el.getAttribute('aria-label') ?? el.getAttribute('placeholder') ?? el.textContent?.slice(0, 40) ?? el.tagName,
          row: el.tagName === 'TR' && !!el.closest('tbody') ? (el.textContent ?? '') : '',
          visible:
            r.width > 0 &&
            r.height > 0 &&
            shown.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
            !!hit &&
            (shown === hit || shown.contains(hit) || hit.contains(shown)),
        };
      });
      if (!focused.visible) stops.push(focused.name);
      row = focused.row;
    }
    expect(stops, 'invisible stops before the first row').toEqual([]);
    expect(row, 'Tab reaches a row').not.toBe('');
    await page.keyboard.press('Enter');
    await dialogOf(page).waitFor();
    expect(page.url()).toContain('dialog=updateCategory');
    await page.context().close();
  });
});
