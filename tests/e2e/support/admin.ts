/** What every browser test does as the admin: sign in, open a list by its menu entry, read the toast. */
import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';

export async function signIn(page: Page, url: string, email = 'admin@demo.test', password = 'demo1234') {
  await page.goto(url);
  await page.locator('input[name="username"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.locator('#react-admin-title').waitFor();
  // On a phone the side menu stays closed until opened, so only a wider screen waits for its entries.
  if ((page.viewportSize()?.width ?? 1280) >= 600) await page.getByRole('menuitem').first().waitFor();
}

/**
 * Opens a list from the side menu and waits until its own title is on screen, and its rows (a column
 * header) or, for an empty list, its empty state.
 */
export async function openList(page: Page, label: string, firstColumn?: string) {
  await page.getByRole('menuitem', { name: label, exact: true }).click();
  // The previous list stays on screen until the new one renders: wait for the new title.
  await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(label);
  if (firstColumn) await expect.poll(() => page.getByRole('columnheader', { name: firstColumn }).count()).toBeGreaterThan(0);
  // An empty list says 'No categories yet', or of a collection 'The recycle bin is empty' (generate/empty-text.ts).
  else await page.getByRole('columnheader').or(page.getByText(/^(No .* yet|The .* is empty)$/)).first().waitFor();
}

export const dialogOf = (page: Page) => page.getByRole('dialog');
export const toastOf = (page: Page) => page.locator('[role="status"], [role="alert"]').filter({ hasText: /./ }).first();

/**
 * A fresh desktop page (1366×850) of `browser`, signed in as `email`; its page errors are pushed to
 * `errors`, so a test can require none.
 */
export async function signedInPage(browser: Browser, url: string, email: string, password: string, errors: string[]): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1366, height: 850 } })).newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, url, email, password);
  return page;
}
