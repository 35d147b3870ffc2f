/**
 * Accessible to everyone (issue 13): axe-core finds no violation of WCAG 2.2 AA or best practice on the
 * sign-in page, on every list, and in every dialog of every resource, as each role that may open it, in
 * light and in dark. The views are read from the registry, so a new resource or dialog is covered
 * without editing this test; dialogs are opened by their address (`#/<resource>?dialog=<type>&id=…`).
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it, type ExpectStatic } from 'vitest';
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

/** Lists per page: a role with more is swept in parts, each in a page of its own. */
const LISTS_PER_PART = 12;
type Part = { name: string; first: boolean; lists: ResourceDef[] };
type Sweep = { role: Role; scheme: (typeof SCHEMES)[number]; part: Part };
/** Every role's lists in parts of at most LISTS_PER_PART, in both schemes, the largest parts first. */
function sweeps(): Sweep[] {
  const parts = (role: Role): Part[] => {
    const all = lists(role);
    const count = Math.max(1, Math.ceil(all.length / LISTS_PER_PART));
    return Array.from({ length: count }, (_, i) => ({
      name: `part ${i + 1} of ${count}`,
      first: i === 0,
      lists: all.slice(Math.floor((i * all.length) / count), Math.floor(((i + 1) * all.length) / count)),
    }));
  };
  const size = (s: Sweep) => s.part.lists.reduce((n, r) => n + 1 + dialogsOf(r, s.role).length, 0);
  return SCHEMES.flatMap((scheme) => ROLES.flatMap((role) => parts(role).map((part) => ({ role, scheme, part })))).sort((a, b) => size(b) - size(a));
}

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
  async function showList(expect: ExpectStatic, page: Page, r: ResourceDef) {
    await page.evaluate((hash) => (location.hash = hash), `#/${r.name}`);
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(r.plural);
    await page.getByRole('columnheader').or(page.getByText(/^(No .* yet|The .* is empty)$/)).or(page.getByRole('alert')).first().waitFor();
    await page.locator('.MuiLinearProgress-root, [role="progressbar"]').first().waitFor({ state: 'detached' }).catch(() => {});
  }

  /** Opens a dialog by its address and waits for its opening transition to finish. */
  async function showDialog(expect: ExpectStatic, page: Page, r: ResourceDef, type: string, id?: string) {
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
  async function showScreen(expect: ExpectStatic, page: Page, screen: Screen) {
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
   * Signs in as `role` and checks, in one page, a part of what it sees (`part`): the screen it lands
   * on and every hand-written screen it may open (with the first part), and some of its lists with
   * every dialog it may open from them. `expect` is the test's own: the parts run concurrently.
   */
  async function sweep(expect: ExpectStatic, { role, scheme, part }: Sweep) {
    // Reduced motion: dialogs are judged settled, and open and close without waiting out a fade.
    const context = await browser.newContext({ colorScheme: scheme, reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.url, demoEmail(role), DEMO_PASSWORD);
    if (part.first)
      for (const screen of screensFor(role)) {
        await showScreen(expect, page, screen);
        findings.push(...(await axeFindings(page, `${screen.title} as ${role} (${scheme})`)));
      }
    // The first dialog is judged with the page around it (what the open dialog does to the rest: hidden
    // from assistive technology, focus kept inside); the others on their own, over lists already judged.
    let around = true;
    for (const r of part.lists) {
      await showList(expect, page, r);
      findings.push(...(await axeFindings(page, `${r.name} list as ${role} (${scheme})`)));
      for (const [type, d] of dialogsOf(r, role)) {
        // A create (or an action on no record) opens empty; the others open the role's first record.
        const onRecord = d.kind === 'details' || ('call' in d && parseCall(d.call).params.includes('id'));
        const id = onRecord ? firstIds.get(role)?.get(r.name) : undefined;
        if (onRecord && !id) continue; // an empty list has no record to open
        await showDialog(expect, page, r, type, id);
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

  // Each role, scheme and part in a page of its own and a test of its own, three at a time (the project's
  // maxConcurrency: the checks are the browser's work, and pages run in processes of their own), the
  // largest first, so no page is left running alone at the end while the cores wait. A test each, so
  // each has its own time: one 480 s bound on the whole sweep ran out on a slow CI machine (the suite
  // took 2,224 s that run, 1,493 s the run before); the admin's lists alone took 256 s of one page here.
  for (const { role, scheme, part } of sweeps())
    it.concurrent(`every list and dialog as ${role}, in ${scheme} (${part.name})`, ({ expect }) => sweep(expect, { role, scheme, part }), 420_000);

  it('found no violation anywhere', () => {
    expect(findings, describeFindings(findings)).toEqual([]);
  });
});
