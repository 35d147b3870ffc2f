/**
 * Two admins editing one category in Chromium (issue 8 §4): both open its update dialog; the first
 * saves; the second's save is refused as stale and the dialog shows their value beside the user's;
 * "Reload their version" puts theirs in the form, and saving then works. The History action shows
 * both edits in the audit log.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, openList, signIn, toastOf } from './support/admin.ts';

describe.skipIf(!hasChromium)('two admins editing one record', () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let first: Page;
  let second: Page;
  let id: string;

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
    const admin = await server.login('admin');
    id = (await server.api('POST', '/categories', { cookie: admin, body: { name: 'Lamps' } })).body.id;
    browser = await launch();
    for (let i = 0; i < 2; i++) {
      const context = await browser.newContext();
      contexts.push(context);
    }
    [first, second] = await Promise.all(contexts.map((c) => c.newPage()));
    for (const page of [first, second]) page.setDefaultTimeout(15_000);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const openEdit = async (page: Page) => {
    await page.getByRole('row').filter({ hasText: 'Lamps' }).getByRole('button', { name: 'Edit' }).click();
    await dialogOf(page).getByRole('heading', { name: 'Update category' }).waitFor();
    return dialogOf(page).getByRole('textbox', { name: /name/i });
  };

  it('shows the second admin the conflict, their value beside theirs, and reloads it', async () => {
    for (const page of [first, second]) {
      await signIn(page, server.url);
      await openList(page, 'Categories', 'Name');
    }
    const firstName = await openEdit(first);
    const secondName = await openEdit(second);

    await firstName.fill('Lamps and lights');
    await dialogOf(first).getByRole('button', { name: 'Save' }).click();
    await toastOf(first).getByText('Success!').waitFor();

    await secondName.fill('Lighting');
    await dialogOf(second).getByRole('button', { name: 'Save' }).click();
    const panel = dialogOf(second).getByRole('alert').filter({ hasText: 'Changed by someone else' });
    await panel.waitFor();
    const row = panel.getByRole('row').filter({ hasText: 'Name' });
    await expect.poll(() => row.textContent()).toContain('Lamps and lights');
    await expect.poll(() => row.textContent()).toContain('Lighting');
    // Nothing was overwritten.
    const stored = await server.db.selectFrom('categories').select(['name', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ name: 'Lamps and lights', version: 2 });

    await panel.getByRole('button', { name: 'Reload their version' }).click();
    await expect.poll(() => secondName.inputValue()).toBe('Lamps and lights');
    await secondName.fill('Lamps, lights and shades');
    await dialogOf(second).getByRole('button', { name: 'Save' }).click();
    await toastOf(second).getByText('Success!').waitFor();
    const after = await server.db.selectFrom('categories').select(['name', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ name: 'Lamps, lights and shades', version: 3 });
  });

  it('lets the second admin overwrite with theirs after seeing the conflict', async () => {
    // Both start from the record as it is now (the first page still lists the version it saved).
    for (const page of [first, second]) {
      await page.reload();
      await openList(page, 'Categories', 'Name');
    }
    const firstName = await openEdit(first);
    const secondName = await openEdit(second);
    await firstName.fill('Desk lamps');
    await dialogOf(first).getByRole('button', { name: 'Save' }).click();
    await toastOf(first).getByText('Success!').waitFor();

    await secondName.fill('Floor lamps');
    await dialogOf(second).getByRole('button', { name: 'Save' }).click();
    const panel = dialogOf(second).getByRole('alert').filter({ hasText: 'Changed by someone else' });
    await panel.getByRole('button', { name: 'Overwrite with mine' }).click();
    await toastOf(second).getByText('Success!').waitFor();
    const after = await server.db.selectFrom('categories').select(['name']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(after.name).toBe('Floor lamps');
  });

  it('opens the record’s History in the audit log', async () => {
    await first.reload();
    await openList(first, 'Categories', 'Name');
    await first.getByRole('row').filter({ hasText: 'Floor lamps' }).getByRole('button', { name: 'History' }).click();
    await expect.poll(() => first.locator('#react-admin-title').textContent()).toBe('Audit log');
    // Create (by the API above) and four dialog saves, all of this record.
    await expect.poll(() => first.getByRole('row').filter({ hasText: id }).count()).toBe(5);
  });
});
