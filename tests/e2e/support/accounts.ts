/**
 * What the browser tests of accounts share (accounts-self-service.test.ts, account-create.test.ts): a
 * real server whose emails go to a real SMTP server in this process (tests/support/smtp.ts), Chromium,
 * fresh contexts for each person (no session of another left behind), and the sign-in form filled as a
 * person fills it.
 */
import { expect, inject } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startSmtp, type TestSmtp } from '../../support/smtp.ts';
import { closeTransports } from '../../../src/server/email/index.ts';
import { launch } from './browser.ts';

export interface MailedBrowser {
  server: TestServer;
  smtp: TestSmtp;
  browser: Browser;
  /** Uncaught errors of every page made by `freshPage`: a test ends by expecting none. */
  pageErrors: string[];
  /** A page in a context of its own. */
  freshPage(): Promise<Page>;
  close(): Promise<void>;
}

/** The server (its SMTP_URL pointing at the test's SMTP server for its life), the SMTP server and Chromium. */
export async function startMailedBrowser(): Promise<MailedBrowser> {
  const saved = process.env.SMTP_URL;
  const smtp = await startSmtp();
  process.env.SMTP_URL = smtp.url;
  const server = await startTestServer({ clientDir: inject('clientDir') });
  const browser = await launch();
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  return {
    server,
    smtp,
    browser,
    pageErrors,
    async freshPage() {
      const context = await browser.newContext();
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      page.on('pageerror', (e) => pageErrors.push(e.message));
      return page;
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
      await server.close();
      if (saved === undefined) delete process.env.SMTP_URL;
      else process.env.SMTP_URL = saved;
      closeTransports();
      await smtp.close();
    },
  };
}

export const accountMenu = (page: Page) => page.getByRole('button', { name: /account menu/i });

/** Fills and sends the sign-in form; what follows (in, refused, a new password first) is the caller's to wait for. */
export async function signInAs(page: Page, url: string, email: string, password: string) {
  await page.goto(url);
  await page.locator('input[name="username"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: /sign in/i }).click();
}

/** Waits until the page is signed in as the account named `name` (its account menu says so). */
export const signedInAs = (page: Page, name: string) =>
  expect.poll(() => accountMenu(page).getAttribute('aria-label')).toBe(`${name}, account menu`);
