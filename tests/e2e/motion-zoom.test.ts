/**
 * Motion and zoom (issue 13): with the system's "reduce motion" setting the app's transitions end at
 * once; at 200 % zoom (a 1280×900 window shows 640×450 CSS pixels) an admin can still sign in, open a
 * list, and create a record through its dialog, and the page never scrolls sideways.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, openList, signIn, toastOf } from './support/admin.ts';

describe.skipIf(!hasChromium)('motion and zoom', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ catalogue: true, clientDir: inject('clientDir') });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /**
   * The dialog's fade, in seconds, as the browser computes it; and whether, closed with Escape, it has
   * left the page two frames later (MUI otherwise keeps it, unseen, for its 195 ms exit).
   */
  async function dialogTransition(page: Page) {
    await openList(page, 'Categories', 'Name');
    await page.getByRole('button', { name: 'Create' }).first().click();
    await dialogOf(page).waitFor();
    const seconds = await page.locator('.MuiDialog-container').evaluate((el) => parseFloat(getComputedStyle(el).transitionDuration));
    const goneAtOnce = await page.evaluate(async () => {
      document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 0));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return !document.querySelector('[role="dialog"]');
    });
    await dialogOf(page).waitFor({ state: 'detached' });
    return { seconds, goneAtOnce };
  }

  it('turns transitions off when the system asks for reduced motion', async () => {
    const moving = await (await browser.newContext({ reducedMotion: 'no-preference' })).newPage();
    await signIn(moving, server.url);
    const fading = await dialogTransition(moving);
    expect(fading.seconds).toBeGreaterThan(0.1);
    expect(fading.goneAtOnce).toBe(false);

    const still = await (await browser.newContext({ reducedMotion: 'reduce' })).newPage();
    await signIn(still, server.url);
    expect(await dialogTransition(still)).toEqual({ seconds: expect.closeTo(0, 3), goneAtOnce: true });
  });

  it('stays usable at 200 % zoom: sign in, list, create, without sideways scrolling', async () => {
    const page = await (await browser.newContext({ viewport: { width: 640, height: 450 } })).newPage();
    page.setDefaultTimeout(15_000);
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await page.goto(server.url);
    await page.locator('input[name="username"]').waitFor();
    await expect.poll(sideways).toBeLessThanOrEqual(0);
    await signIn(page, server.url);
    await openList(page, 'Categories', 'Name');
    await expect.poll(sideways).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Create' }).first().click();
    await dialogOf(page).getByRole('textbox', { name: /name/i }).fill('Zoomed in');
    await dialogOf(page).getByRole('button', { name: 'Create' }).click();
    await toastOf(page).getByText('Category created successfully.').waitFor();
    await expect.poll(sideways).toBeLessThanOrEqual(0);
  });
});
