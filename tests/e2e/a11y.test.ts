/**
 * Accessible to everyone (issue 13): axe-core finds no violation of WCAG 2.2 AA or best practice on the
 * sign-in page, on every list, and in every dialog of every resource, as each role that may open it, in
 * light and in dark. The views are read from the registry, so a new resource or dialog is covered
 * without editing this test; dialogs are opened by their address (`#/<resource>?dialog=<type>&id=…`).
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { registry } from '../../resources/index.ts';
import { allows, dialogAccess, parseCall, ROLES, type ResourceDef, type Role } from '../../src/manifest/index.ts';
import { listAccess } from '../../src/client/generate/access.ts';
import { screensFor, type Screen } from '../../src/client/areas/screens.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { demoEmail, DEMO_PASSWORD } from '../../src/server/seed/index.ts';
import { hasChromium, launch } from './support/browser.ts';
import { firstRecordIds } from './support/records.ts';
import { signIn } from './support/admin.ts';
import { axeFindings, describeFindings, type Finding } from './support/axe.ts';

const SCHEMES = ['light', 'dark'] as const;
const lists = (role: Role) => registry.resources.filter((r) => r.reads.list?.kind === 'list' && allows(listAccess(r), role));
/**
 * The dialogs a role may open from a list: the resource's own, and those its rows borrow from another
 * resource (`list.rowDialogs`: replacing an agent), opened at the list's address with its record.
 */
const dialogsOf = (r: ResourceDef, role: Role) => [
  ...Object.entries(r.dialogs).filter(([, d]) => allows(dialogAccess(r, d), role)),
  ...(r.list?.rowDialogs ?? []).flatMap((type) => {
    const found = registry.dialog(type)!;
    return allows(dialogAccess(found.resource, found.dialog), role) ? [[type, found.dialog] as const] : [];
  }),
];

describe.skipIf(!hasChromium)('no axe-core violation on any screen or dialog', () => {
  let server: TestServer;
  let browser: Browser;
  /** The first record of each resource each role reaches, for the dialogs that open one. */
  const firstIds = new Map<Role, Map<string, string>>();
  const findings: Finding[] = [];

  beforeAll(async () => {
    server = await startTestServer({ catalogue: true, clientDir: inject('clientDir') });
    browser = await launch();
    for (const role of ROLES) firstIds.set(role, await firstRecordIds(server, lists(role), role));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (process.env.AXE_REPORT) writeFileSync(process.env.AXE_REPORT, JSON.stringify(findings, null, 2));
  });

  /** Waits for the route's list (its title, then rows or its empty state) and for nothing loading. */
  async function showList(page: Page, r: ResourceDef) {
    await page.evaluate((hash) => (location.hash = hash), `#/${r.name}`);
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(r.plural);
    await page.getByRole('columnheader').or(page.getByText(/^(No .* yet|The .* is empty)$/)).or(page.getByRole('alert')).first().waitFor();
    await page.locator('.MuiLinearProgress-root, [role="progressbar"]').first().waitFor({ state: 'detached' }).catch(() => {});
  }

  /** Opens a dialog by its address and waits for its opening transition to finish. */
  async function showDialog(page: Page, r: ResourceDef, type: string, id?: string) {
    const search = new URLSearchParams({ dialog: type, ...(id ? { id } : {}) });
    await page.evaluate((hash) => (location.hash = hash), `#/${r.name}?${search}`);
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // Judged once loaded: its form's code, a view's code, what the view reads (login details: the account).
    await dialog.getByRole('progressbar', { name: /^Loading/ }).first().waitFor({ state: 'detached' });
    // MUI fades a dialog in: judge it once fully shown (axe reads colours).
    await expect.poll(() => dialog.evaluate((el) => getComputedStyle(el.closest('.MuiDialog-container') ?? el).opacity)).toBe('1');
  }

  /** Opens a hand-written screen (a role's area, the referral tree, …) and waits for its content. */
  async function showScreen(page: Page, screen: Screen) {
    await page.evaluate((hash) => (location.hash = hash), `#${screen.path}`);
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(screen.title);
    await page.locator('main h2').first().waitFor();
    await page.locator('.MuiSkeleton-root').first().waitFor({ state: 'detached' }).catch(() => {});
  }

  async function closeDialog(page: Page) {
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  }

  /**
   * Signs in as `role` and checks the screen it lands on, every hand-written screen it may open, every
   * list it sees and every dialog it may open, in one page.
   */
  async function sweep(role: Role, scheme: (typeof SCHEMES)[number]) {
    // Reduced motion: dialogs are judged settled, and open and close without waiting out a fade.
    const context = await browser.newContext({ colorScheme: scheme, reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.url, demoEmail(role), DEMO_PASSWORD);
    for (const screen of screensFor(role)) {
      await showScreen(page, screen);
      findings.push(...(await axeFindings(page, `${screen.title} as ${role} (${scheme})`)));
    }
    // The first dialog is judged with the page around it (what the open dialog does to the rest: hidden
    // from assistive technology, focus kept inside); the others on their own, over lists already judged.
    let around = true;
    for (const r of lists(role)) {
      await showList(page, r);
      findings.push(...(await axeFindings(page, `${r.name} list as ${role} (${scheme})`)));
      for (const [type, d] of dialogsOf(r, role)) {
        // A create (or an action on no record) opens empty; the others open the role's first record.
        const onRecord = d.kind === 'details' || ('call' in d && parseCall(d.call).params.includes('id'));
        const id = onRecord ? firstIds.get(role)?.get(r.name) : undefined;
        if (onRecord && !id) continue; // an empty list has no record to open
        await showDialog(page, r, type, id);
        findings.push(...(await axeFindings(page, `${type} as ${role} (${scheme})`, around ? undefined : '.MuiDialog-root')));
        around = false;
        await closeDialog(page);
      }
    }
    await context.close();
  }

  for (const scheme of SCHEMES)
    it(`the sign-in page (${scheme})`, async () => {
      const context = await browser.newContext({ colorScheme: scheme });
      const page = await context.newPage();
      await page.goto(server.url);
      await page.locator('input[name="username"]').waitFor();
      findings.push(...(await axeFindings(page, `sign-in (${scheme})`)));
      await context.close();
    });

  // Each role and scheme in a page of its own, three at a time (the checks are the browser's work, and
  // pages run in processes of their own), the roles with the most lists first: the two schemes share
  // one queue, so no page is left running alone at the end of the first while the cores wait.
  it('every list and dialog as every role, in light and in dark', async () => {
    const queue = SCHEMES.flatMap((scheme) => ROLES.map((role) => ({ role, scheme }))).sort((a, b) => lists(b.role).length - lists(a.role).length);
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await sweep(next.role, next.scheme);
    };
    await Promise.all([worker(), worker(), worker()]);
  }, 480_000);

  it('found no violation anywhere', () => {
    expect(findings, describeFindings(findings)).toEqual([]);
  });
});
