/**
 * Issue 9 in Chromium: a status is a select of words; closing a form with changes asks first (Escape,
 * Cancel); a duplicate code is told under its field; an inactive currency is not offered as the
 * default; a seller sees no reorder buttons and, typing an admin screen's address, "Access denied"
 * under the app's name; an unknown address says "Not Found".
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, openList, signIn, toastOf } from './support/admin.ts';

describe.skipIf(!hasChromium)('forms and access in the browser', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir'), catalogue: true });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function pageAs(email?: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    await signIn(page, server.url, email);
    return page;
  }

  it('Create country: status by its words, Escape and Cancel ask before discarding, a taken code shows under Code', async () => {
    const page = await pageAs();
    await openList(page, 'Countries', 'Name');
    await page.getByRole('button', { name: /create/i }).first().click();
    const dialog = dialogOf(page);
    await dialog.getByRole('heading', { name: 'Create country' }).waitFor();
    const status = dialog.getByRole('combobox', { name: /status/i });
    await expect.poll(() => status.textContent()).toBe('Active');
    await expect.poll(() => dialog.textContent()).not.toContain('Unsupported field schema');

    const name = dialog.locator('#root_name');
    await name.fill('Atlantis');
    await page.keyboard.press('Escape');
    const ask = page.getByRole('alertdialog', { name: 'Discard changes?' });
    await ask.waitFor();
    // Escape on the question keeps editing; what was typed is still there.
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'hidden' });
    expect(await name.inputValue()).toBe('Atlantis');

    // A code another country holds: the server's refusal sits under Code.
    await dialog.locator('#root_code').fill('BD');
    await dialog.locator('#root_code3').fill('ATL');
    await status.click();
    await page.getByRole('option', { name: 'Inactive' }).click();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toastOf(page).getByText('Unable to create country!').waitFor();
    await expect.poll(() => dialog.locator('#root_code__error').textContent()).toBe('A country with this code already exists.');

    // Cancel asks too; Discard closes, and nothing was stored.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Discard' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await server.db.selectFrom('countries').select('id').where('name', '=', 'Atlantis').execute()).toEqual([]);
  });

  it('after sign-in, renders a form once out of sight to warm the first dialog, and removes it: never seen, never focused', async () => {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    // Watches from the first script on: the warm-up (DialogHost, warm-up.tsx) lives only a few frames.
    await page.addInitScript(() => {
      const seen = { added: 0, removed: 0, focusedInside: false, states: [] as unknown[], hiddenOutside: [] as string[] };
      (window as unknown as { warmUp: typeof seen }).warmUp = seen;
      const isWarmUp = (n: Node) => n instanceof Element && n.matches('[data-testid="form-warm-up"]');
      new MutationObserver((records) => {
        for (const r of records) {
          for (const n of r.addedNodes) {
            if (!isWarmUp(n)) continue;
            const el = n as HTMLElement;
            seen.added++;
            const paper = el.querySelector('[role="dialog"]')!.getBoundingClientRect();
            seen.states.push({
              visibility: getComputedStyle(el).visibility,
              inert: el.inert,
              ariaHidden: el.getAttribute('aria-hidden'),
              inputs: el.querySelectorAll('input, textarea').length > 0,
              dialogInView: paper.right > 0 && paper.left < innerWidth && paper.bottom > 0 && paper.top < innerHeight,
            });
          }
          for (const n of r.removedNodes) if (isWarmUp(n)) seen.removed++;
          // Nothing of the app may be hidden from assistive technology by the warm-up's dialog.
          const el = r.target as Element;
          if (r.type === 'attributes' && el.getAttribute('aria-hidden') === 'true' && !el.closest('[data-testid="form-warm-up"]')) {
            seen.hiddenOutside.push(`${el.tagName.toLowerCase()}.${el.className}`);
          }
        }
      }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-hidden'] });
      document.addEventListener('focusin', (e) => void ((e.target as Element).closest?.('[data-testid="form-warm-up"]') && (seen.focusedInside = true)), true);
    });
    await signIn(page, server.url);
    await expect.poll(() => page.evaluate(() => (window as unknown as { warmUp: { removed: number } }).warmUp.removed)).toBe(1);
    const warmUp = await page.evaluate(() => (window as unknown as { warmUp: unknown }).warmUp);
    expect(warmUp).toEqual({
      added: 1,
      removed: 1,
      focusedInside: false,
      hiddenOutside: [],
      states: [{ visibility: 'hidden', inert: true, ariaHidden: 'true', inputs: true, dialogInView: false }],
    });
    // The page is the user's again: a real form dialog opens with the focus in its first field.
    await openList(page, 'Countries', 'Name');
    await page.getByRole('button', { name: /create/i }).first().click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('root_name');
  });

  it('in a browser that is never idle, the form code and the warm-up still come soon after sign-in, and the first dialog opens without waiting for its code', async () => {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    await page.addInitScript(() => {
      // A page that never has an idle moment (a busy list, a loaded machine): an idle callback runs only at its deadline.
      window.requestIdleCallback = (task, options) =>
        window.setTimeout(() => task({ didTimeout: true, timeRemaining: () => 0 }), options?.timeout ?? 2 ** 31 - 1) as unknown as number;
      window.cancelIdleCallback = (id) => window.clearTimeout(id);
      const seen = { warmedUp: false, loadingShown: false };
      (window as unknown as { seen: typeof seen }).seen = seen;
      new MutationObserver((records) => {
        for (const r of records)
          for (const n of r.addedNodes) {
            if (!(n instanceof Element)) continue;
            if (n.matches('[data-testid="form-warm-up"]')) seen.warmedUp = true;
            if (n.matches('[aria-label="Loading form"]') || n.querySelector('[aria-label="Loading form"]')) seen.loadingShown = true;
          }
      }).observe(document, { childList: true, subtree: true });
    });
    const formCode = page.waitForRequest(/\/FormDialog-[^/]*\.js$/, { timeout: 30_000 });
    await signIn(page, server.url);
    const signedIn = Date.now();
    await formCode;
    // Asked for at the idle deadline (DialogHost), not after seconds of waiting for an idle moment that never comes.
    expect(Date.now() - signedIn).toBeLessThan(3_000);
    await expect.poll(() => page.evaluate(() => (window as unknown as { seen: { warmedUp: boolean } }).seen.warmedUp), { timeout: 5_000 }).toBe(true);
    await openList(page, 'Countries', 'Name');
    await page.getByRole('button', { name: /create/i }).first().click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('root_name');
    expect(await page.evaluate(() => (window as unknown as { seen: { loadingShown: boolean } }).seen.loadingShown)).toBe(false);
  });

  it('Currencies: "Make default" is not offered on an inactive currency', async () => {
    const page = await pageAs();
    await openList(page, 'Currencies');
    const inactive = page.getByRole('row').filter({ hasText: 'Pound Sterling' });
    const active = page.getByRole('row').filter({ hasText: 'Euro' });
    await inactive.waitFor();
    await active.getByRole('button', { name: 'Make default' }).waitFor();
    expect(await inactive.getByRole('button', { name: 'Make default' }).count()).toBe(0);
  });

  it('a seller: no reorder buttons, "Access denied" on an admin screen, "Not Found" elsewhere, under the app name', async () => {
    const page = await pageAs('seller@demo.test');
    // Signing in lands the seller in its area: wait for that first, or the landing would overtake the address below.
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('Seller area');
    // Site content a seller only reads is not in its menu (areas/areas.ts), but opens by its address.
    expect(await page.getByRole('menuitem', { name: 'Home sections' }).count()).toBe(0);
    await page.evaluate(() => (location.hash = '#/homeSections'));
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('Home sections');
    await page.getByRole('row').nth(1).waitFor();
    expect(await page.getByRole('button', { name: 'Move up' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Move down' }).count()).toBe(0);

    await page.goto(`${server.url}/#/auditLog`);
    await page.getByRole('heading', { level: 2, name: 'Access denied' }).waitFor();
    expect(await page.getByText('Not Found').count()).toBe(0);
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('Marketplace Admin');

    await page.goto(`${server.url}/#/no-such-screen`);
    await page.getByRole('heading', { level: 2, name: 'Not Found' }).waitFor();
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('Marketplace Admin');
    expect(await page.content()).not.toContain('React Admin');
  });
});
