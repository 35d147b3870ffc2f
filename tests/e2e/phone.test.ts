/**
 * Phones (issue 9 §5): at 390×844 with touch, in light and dark, every list the admin sees (read from
 * the registry, so a new resource is covered) fits the screen: the page is never wider than the device
 * (compared with the device's width, not `innerWidth`, which mobile emulation widens to fit overflowing
 * content: docs/architecture.md "Testing as a person would"), the toolbar's buttons and the app bar's icons are on
 * screen, a list shows cards (a reorderable one keeps its table, scrolled in its own box) whose row
 * actions can be reached, and a dialog opened on it fills the screen without widening the page.
 */
import { afterAll, beforeAll, describe, inject, it, type ExpectStatic } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { registry } from '../../resources/index.ts';
import { allows, dialogAccess, type ResourceDef } from '../../src/manifest/index.ts';
import { listAccess } from '../../src/client/generate/access.ts';
import { screensFor } from '../../src/client/areas/screens.ts';
import { ROLES } from '../../src/manifest/index.ts';
import { demoEmail, DEMO_PASSWORD } from '../../src/server/seed/index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { hasChromium, launch } from './support/browser.ts';
import { firstRecordIds } from './support/records.ts';
import { signIn } from './support/admin.ts';

const PHONE = { width: 390, height: 844 };
const lists = registry.resources.filter((r) => r.reads.list?.kind === 'list' && allows(listAccess(r), 'admin'));

/** The dialog a phone test opens on a list: its create dialog, else the first that opens a record. */
function dialogToOpen(r: ResourceDef): [string, boolean] | undefined {
  const usable = Object.entries(r.dialogs).filter(([, d]) => allows(dialogAccess(r, d), 'admin'));
  const create = usable.find(([, d]) => d.kind === 'create');
  if (create) return [create[0], false];
  const other = usable.find(([, d]) => d.kind !== 'action');
  return other && [other[0], true];
}

describe.skipIf(!hasChromium)('phones: every list and a dialog on it fit a 390 px screen', () => {
  let server: TestServer;
  let browser: Browser;
  const firstIds = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer({ catalogue: true, clientDir: inject('clientDir') });
    browser = await launch();
    for (const [name, id] of await firstRecordIds(server, lists)) firstIds.set(name, id);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

  /** Whether the element lies within the screen's width. */
  async function onScreen(locator: Locator): Promise<boolean> {
    const box = await locator.boundingBox();
    return !!box && box.x >= 0 && box.x + box.width <= PHONE.width + 0.5;
  }

  /** `expect` is the test's own: the tests run at once. */
  async function showList(page: Page, r: ResourceDef, expect: ExpectStatic) {
    await page.evaluate((hash) => (location.hash = hash), `#/${r.name}`);
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(r.plural);
    await page.getByRole('list', { name: r.plural }).or(page.locator('main table')).or(page.getByText(/^(No .* yet|The .* is empty)$/)).first().waitFor();
    await page.locator('.MuiLinearProgress-root').first().waitFor({ state: 'detached' }).catch(() => {});
  }

  // The three checks run at once, each in a page of its own (the browser's work is in processes of its
  // own); reduced motion: a dialog is measured and closed without waiting out its fade.
  for (const scheme of ['light', 'dark'] as const)
    it.concurrent(`fits every list and dialog (${scheme})`, async ({ expect }) => {
      const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, colorScheme: scheme, reducedMotion: 'reduce' });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      // On a phone the menu is a closed drawer: signing in is done once the landing page's title shows.
      await page.goto(server.url);
      await page.locator('input[name="username"]').fill('admin@demo.test');
      await page.locator('input[name="password"]').fill('demo1234');
      await page.getByRole('button', { name: /sign in/i }).click();
      await page.locator('#react-admin-title').waitFor();
      const problems: string[] = [];
      await page.getByRole('heading', { name: 'Catalogue' }).waitFor();
      const landing = await pageWidth(page);
      if (landing > PHONE.width) problems.push(`the dashboard is ${landing} px wide`);
      for (const r of lists) {
        await showList(page, r, expect);
        const width = await pageWidth(page);
        if (width > PHONE.width) problems.push(`${r.name} list: the page is ${width} px wide`);
        for (const button of await page.locator('header button').all())
          if (!(await onScreen(button))) problems.push(`${r.name} list: the app bar's ${await button.getAttribute('aria-label')} is off screen`);
        const create = page.getByRole('button', { name: 'Create', exact: true });
        // The admin's Create: a create dialog the admin may open (document uploads are their owners').
        if (Object.values(r.dialogs).some((d) => d.kind === 'create' && allows(dialogAccess(r, d), 'admin')) && !(await onScreen(create.first())))
          problems.push(`${r.name} list: Create is off screen`);

        const rows = firstIds.has(r.name);
        if (rows && !r.list?.reorder) {
          // Cards, not a table; the first card's actions are on screen.
          if (await page.locator('main table').count()) problems.push(`${r.name} list: a table on a phone`);
          const card = page.getByRole('list', { name: r.plural }).getByRole('listitem').first();
          for (const action of await card.getByRole('button').all())
            if (!(await onScreen(action))) problems.push(`${r.name} list: the card's ${await action.getAttribute('aria-label')} is off screen`);
        }

        const open = dialogToOpen(r);
        if (!open || (open[1] && !rows)) continue;
        const [type, needsId] = open;
        const search = new URLSearchParams({ dialog: type, ...(needsId ? { id: firstIds.get(r.name)! } : {}) });
        await page.evaluate((hash) => (location.hash = hash), `#/${r.name}?${search}`);
        const dialog = page.getByRole('dialog');
        await dialog.waitFor();
        // Measured once loaded (its form's code, a view's code, what the view reads).
        await dialog.getByRole('progressbar', { name: /^Loading/ }).first().waitFor({ state: 'detached' });
        const paper = await dialog.boundingBox();
        if (!paper || paper.x < 0 || paper.width > PHONE.width || Math.round(paper.width) < PHONE.width)
          problems.push(`${type}: the dialog is ${paper?.width} px wide at ${paper?.x}, not the screen's width`);
        const withDialog = await pageWidth(page);
        if (withDialog > PHONE.width) problems.push(`${type}: the page is ${withDialog} px wide`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }
      await context.close();
      expect(problems).toEqual([]);
    }, 240_000);

  // The hand-written screens (areas/screens.ts): each role's area, and the admin's referral tree and
  // storefront people, as each role that may open them, every one as wide as the phone at most.
  it.concurrent('fits every hand-written screen of every role', async ({ expect }) => {
    const problems: string[] = [];
    for (const role of ROLES) {
      const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, reducedMotion: 'reduce' });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await signIn(page, server.url, demoEmail(role), DEMO_PASSWORD);
      for (const screen of screensFor(role)) {
        await page.evaluate((hash) => (location.hash = hash), `#${screen.path}`);
        await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(screen.title);
        await page.locator('main h2').first().waitFor();
        await page.locator('.MuiSkeleton-root').first().waitFor({ state: 'detached' }).catch(() => {});
        const width = await pageWidth(page);
        if (width > PHONE.width) problems.push(`${screen.path} as ${role}: the page is ${width} px wide`);
        for (const button of await page.locator('main button').all())
          if ((await button.isVisible()) && !(await onScreen(button))) problems.push(`${screen.path} as ${role}: ${await button.textContent()} is off screen`);
      }
      await context.close();
    }
    expect(problems).toEqual([]);
  }, 240_000);
});