/**
 * Nothing moves under the pointer (issue 51.8), in Chromium at 1366×850 against the built client and the
 * real server: the push opt-in banner floats over the list instead of pushing it down; the sign-in page
 * asks nobody who is signed in, so it logs no 401; between submitting sign-in and the role's area the
 * shell stands with a named placeholder, never a blank page; and the People screen's placeholders carry
 * a role axe accepts. Slow answers are made observable by holding them back with `page.route` (the
 * browser's own interception; the server behind it is the real one) until the test has looked.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, ConsoleMessage, Page, Request } from 'playwright-core';
import { DEMO_PASSWORD, demoEmail } from '../../src/server/seed/index.ts';
import { AREA_TITLES } from '../../src/client/areas/areas.ts';
import { SLIDERS_URL } from '../../src/client/areas/use-sliders.ts';
import { PUSH_TEXTS } from '../../src/features/push/messages.ts';
import { PUSH_BANNER } from '../../src/features/notifications/contract.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { hasChromium, launch } from './support/browser.ts';
import { openList, signIn } from './support/admin.ts';
import { axeFindings, describeFindings } from './support/axe.ts';

const VIEWPORT = { width: 1366, height: 850 };
const CURRENT_USER = '/getcurrentuser';

/** A gate a held request waits at until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe.skipIf(!hasChromium)('nothing moves under the pointer', () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer({ catalogue: true, clientDir: inject('clientDir') });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: VIEWPORT });
    contexts.push(context);
    const page = await context.newPage();
    // Generous: two shared cores under several test runs took over 20 s to show a signed-in screen.
    page.setDefaultTimeout(60_000);
    return page;
  }

  it('floats the push banner over the list: the first row stays where it was when it comes and when it goes', async () => {
    const page = await newPage();
    await page.context().grantPermissions(['notifications'], { origin: server.url });
    // The banner's 5 s wait (spec §9, push.test.ts times it) is held until the list is on screen: on two
    // busy cores signing in and opening a list took longer than that, leaving no "before" to compare.
    // Only timers of exactly that length are held, and all of them run when the test releases them.
    await page.addInitScript((delayMs) => {
      const w = window as unknown as { __releaseBanner: () => void };
      const held = new Map<number, () => void>();
      const setTimer = window.setTimeout.bind(window);
      const clearTimer = window.clearTimeout.bind(window);
      let released = false;
      window.setTimeout = ((fn: TimerHandler, ms?: number, ...args: unknown[]) => {
        if (released || ms !== delayMs || typeof fn !== 'function') return setTimer(fn, ms, ...args);
        const id = setTimer(() => undefined, 2 ** 31 - 1);
        held.set(id, () => fn(...args));
        return id;
      }) as typeof window.setTimeout;
      window.clearTimeout = ((id?: number) => {
        if (id !== undefined) held.delete(id);
        clearTimer(id);
      }) as typeof window.clearTimeout;
      w.__releaseBanner = () => {
        released = true;
        for (const [id, run] of held) clearTimer(id), run();
        held.clear();
      };
    }, PUSH_BANNER.delayMs);
    await signIn(page, server.url);
    await openList(page, 'Products', 'Name');
    const banner = page.getByRole('region', { name: PUSH_TEXTS.bannerTitle });
    const row = page.locator('main tbody tr').first();
    await row.waitFor();
    expect(await banner.count()).toBe(0);
    const before = await row.boundingBox();
    await page.evaluate(() => (window as unknown as { __releaseBanner: () => void }).__releaseBanner());
    await banner.waitFor();
    expect(await row.boundingBox()).toEqual(before);

    // It floats: it or a box holding it is fixed to the window.
    const fixed = await banner.evaluate((el) => {
      for (let e: Element | null = el; e; e = e.parentElement) if (getComputedStyle(e).position === 'fixed') return true;
      return false;
    });
    expect(fixed).toBe(true);

    // Dismissing it moves nothing either.
    await banner.getByRole('button', { name: PUSH_TEXTS.notNow }).click();
    await banner.waitFor({ state: 'detached' });
    expect(await row.boundingBox()).toEqual(before);
  });

  it('asks nobody who is signed in on the sign-in page, and logs no error there, before or after signing out', async () => {
    const page = await newPage();
    const errors: string[] = [];
    const asked: string[] = [];
    page.on('console', (m: ConsoleMessage) => void (m.type() === 'error' && errors.push(`${m.text()} (${m.location().url})`)));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r: Request) => void (r.url().includes(CURRENT_USER) && asked.push(r.url())));
    await page.goto(server.url);
    await page.locator('input[name="username"]').waitFor();
    // Whatever the page was going to ask after showing the form (react-admin's login checks again) is asked by now.
    await page.waitForLoadState('networkidle');
    expect(asked).toEqual([]);
    expect(errors).toEqual([]);

    // Signed in, the question is asked on a new visit (a session exists: the sign-in answer itself says
    // who signed in, issue 51.10, so the visit that signed in need not ask); signed out, it is not asked again.
    await signIn(page, server.url, demoEmail('seller'), DEMO_PASSWORD);
    await page.reload();
    await page.locator('#react-admin-title').waitFor();
    await expect.poll(() => asked.length).toBeGreaterThan(0);
    // The area's counts are read once the browser is idle; signing out while one is in flight would see
    // that one answered 401 on the way out, which is not what this test is about.
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: /account menu/i }).click();
    await page.getByRole('menuitem', { name: /logout/i }).click();
    await page.locator('input[name="username"]').waitFor();
    const afterSignOut = asked.length;
    await page.reload();
    await page.locator('input[name="username"]').waitFor();
    await page.waitForLoadState('networkidle');
    expect(asked.length).toBe(afterSignOut);
    expect(errors).toEqual([]);
  });

  it('shows the shell with a named placeholder from the moment sign-in is submitted until the area has its data', async () => {
    const page = await newPage();
    await page.goto(server.url);
    await page.locator('input[name="username"]').fill(demoEmail('seller'));
    await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    // Held: who is signed in (the first thing asked after signing in), then the area's lists.
    const identity = gate();
    const lists = gate();
    let identityOpen = false;
    await page.route('**/api/**', async (route) => {
      const url = route.request().url();
      if (url.includes(CURRENT_USER)) await identity.opened;
      else if (identityOpen && route.request().method() === 'GET') await lists.opened;
      await route.continue();
    });
    const main = page.getByRole('main');
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('banner').waitFor();
    await main.getByRole('progressbar').first().waitFor();

    identityOpen = true;
    identity.open();
    // The real shell: its menu, and the area's placeholders while its counts are held.
    await page.getByRole('menuitem', { name: AREA_TITLES.seller }).waitFor();
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(AREA_TITLES.seller);
    await main.getByRole('progressbar').first().waitFor();
    expect(await page.getByRole('banner').count()).toBe(1);

    lists.open();
    await main.getByRole('progressbar').first().waitFor({ state: 'detached' });
  });

  it('names the People screen’s loading placeholders with a role axe accepts (no aria-prohibited-attr)', async () => {
    const page = await newPage();
    await signIn(page, server.url);
    const sliders = gate();
    await page.route(`**${SLIDERS_URL}*`, async (route) => {
      await sliders.opened;
      await route.continue();
    });
    await page.evaluate(() => (location.hash = '#/people'));
    // The screen's own code first: until it has loaded, the shell's loading placeholder stands in main,
    // and it goes when the screen comes (on a loaded CI machine it was the one found, then gone).
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('Storefront people');
    const placeholder = page.getByRole('main').locator('.MuiSkeleton-root').first();
    await placeholder.waitFor();
    const findings = await axeFindings(page, 'People, loading', 'main');
    // Judged while loading: the placeholders are still there (the sliders are held).
    expect(await placeholder.count()).toBe(1);
    expect(findings, describeFindings(findings)).toEqual([]);
    sliders.open();
    await placeholder.waitFor({ state: 'detached' });
  });
});
