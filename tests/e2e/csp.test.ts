/**
 * The built client under the page's Content-Security-Policy, in Chromium: from the first script to a
 * submitted dialog nothing breaks the policy (no eval, no `new Function`, no inline script), nothing
 * throws, the form code (RJSF) is not part of what loads before sign-in, and opening a dialog leaves
 * the `dialog-open:<type>` measure the benchmark reads. Durations are never asserted here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { hasChromium, launch } from './support/browser.ts';

interface Violation {
  directive: string;
  blocked: string;
  source: string;
  line: number;
  sample: string;
}

declare global {
  interface Window {
    __cspViolations: Violation[];
  }
}

/** The built files that hold RJSF (its utils name their symbols `__rjsf_…`), as `assets/<file>`. */
function rjsfFiles(clientDir: string): string[] {
  return readdirSync(join(clientDir, 'assets'))
    .map((f) => `assets/${f}`)
    .filter((f) => f.endsWith('.js') && readFileSync(join(clientDir, f), 'utf8').includes('__rjsf_'));
}

describe.skipIf(!hasChromium)('the client under its CSP', () => {
  const clientDir = inject('clientDir');
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  /** Every script the page fetched, in order, as `assets/<file>`. */
  const scripts: string[] = [];
  let scriptsBeforeSignIn: string[] = [];
  let csp: string | undefined;

  beforeAll(async () => {
    server = await startTestServer({ clientDir });
    browser = await launch();
    page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(new URL(r.url()).pathname.slice(1));
    });
    // Before any of the page's own scripts: a violation reported while they load is recorded too.
    await page.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.__cspViolations.push({
          directive: e.effectiveDirective,
          blocked: e.blockedURI,
          source: e.sourceFile,
          line: e.lineNumber,
          sample: e.sample,
        }),
      );
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const dialog = () => page.getByRole('dialog');
  const toast = () => page.locator('[role="status"], [role="alert"]').filter({ hasText: /./ }).first();

  it('serves the page with a script-src that allows neither eval nor inline scripts', async () => {
    const response = await page.goto(server.url);
    csp = response?.headers()['content-security-policy'];
    expect(csp).toBeTruthy();
    const scriptSrc = csp!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .find(([name]) => name === 'script-src');
    expect(scriptSrc).toBeDefined();
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
  });

  it('shows the sign-in form without loading the form code (RJSF)', async () => {
    await page.locator('input[name="username"]').fill('admin@demo.test');
    await page.locator('input[name="password"]').fill('demo1234');
    scriptsBeforeSignIn = [...scripts];

    const manifest = JSON.parse(readFileSync(join(clientDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string }>;
    const entry = manifest['index.html'].file;
    const formChunk = manifest['src/client/dialogs/FormDialog.tsx'].file;
    const rjsf = rjsfFiles(clientDir);
    // What is looked for is really there: the entry was fetched, and RJSF lives in the form's chunk.
    expect(scriptsBeforeSignIn).toContain(entry);
    expect(rjsf).toContain(formChunk);
    expect(scriptsBeforeSignIn.filter((s) => rjsf.includes(s))).toEqual([]);
  });

  it('signs in, opens Categories and creates one through its dialog: refused, then accepted', async () => {
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('menuitem', { name: 'Categories', exact: true }).click();
    await page.getByRole('button', { name: 'Create' }).first().click();
    await dialog().getByRole('heading', { name: 'Create category', exact: true }).waitFor();
    const name = dialog().getByRole('textbox', { name: /name/i });

    // Opening it left its measure once the first field had the focus (how long it took is the benchmark's).
    await expect
      .poll(() => page.evaluate(() => performance.getEntriesByType('measure').map((m) => m.name)))
      .toContain('dialog-open:createCategory');
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);

    await name.fill('general');
    await dialog().getByRole('button', { name: 'Create' }).click();
    await dialog().getByText("Category cannot be 'general'").waitFor();

    await name.fill('Terrariums');
    await dialog().getByRole('button', { name: 'Create' }).click();
    await toast().getByText('Success!').waitFor();
    await dialog().waitFor({ state: 'detached' });
    // The form code did load, on first use.
    expect(scripts.filter((s) => rjsfFiles(clientDir).includes(s))).not.toEqual([]);
  });

  it('broke no policy and threw nothing on the way', async () => {
    expect(await page.evaluate(() => window.__cspViolations)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
