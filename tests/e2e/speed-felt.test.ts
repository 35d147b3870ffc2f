/**
 * The speed a person feels (issue 51.10), shown by its causes rather than by a clock (the times are the
 * bench's: `npm run bench -- --browser-only`, scripts/bench/journeys.ts), in Chromium against the built
 * client and the real server. Slow answers are made observable by holding them back with `page.route`
 * (the browser's own interception; the server behind it is the real one):
 *  - sign-in: the sign-in page fetches the first screens' code while it waits for the person, so none
 *    is waited for after Sign in; and the way from Sign in to the Products list's rows waits on no
 *    "who is signed in" round trip (held forever here, the rows still come);
 *  - next page: the next page is read while the first is looked at, so its rows come with the click
 *    while the list's own request for them is held;
 *  - search: a query typed further cancels the request of the query before it, and each settled query
 *    is asked once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { registry } from '../../resources/index.ts';
import { listPath } from '../../src/client/providers/data.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { hasChromium, launch } from './support/browser.ts';

const VIEWPORT = { width: 1366, height: 850 };
const products = registry.resource('products');
const LIST_PATH = `/${listPath(products)}`;
const CURRENT_USER = '/getcurrentuser';
/** The first row's title cell (react-admin classes a cell `column-<source>`). */
const FIRST_TITLE = `main tbody tr:first-child td.column-${products.title}`;

/** A list read of products (not a read of one, nor of another resource), with its query. */
function listRead(request: Request) {
  const url = new URL(request.url());
  if (request.method() !== 'GET' || url.pathname !== LIST_PATH) return undefined;
  return { range: url.searchParams.get('range') ?? '', filter: JSON.parse(url.searchParams.get('filter') ?? '{}') as Record<string, unknown> };
}

describe.skipIf(!hasChromium)('the speed a person feels, by its causes', () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const clientDir = inject('clientDir');

  beforeAll(async () => {
    server = await startTestServer({ catalogue: true, clientDir });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function newPage(): Promise<{ page: Page; requests: Request[]; failed: Request[] }> {
    const context = await browser.newContext({ viewport: VIEWPORT });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const requests: Request[] = [];
    const failed: Request[] = [];
    page.on('request', (r) => requests.push(r));
    page.on('requestfailed', (r) => failed.push(r));
    return { page, requests, failed };
  }

  async function fillSignIn(page: Page) {
    await page.goto(server.url);
    await page.locator('input[name="username"]').fill('admin@demo.test');
    await page.locator('input[name="password"]').fill('demo1234');
  }

  /** Signs in and opens Products from the menu, waiting for its first rows. */
  async function toProducts(page: Page) {
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('menuitem', { name: products.plural, exact: true }).click();
    await page.locator(FIRST_TITLE).filter({ hasText: /\S/ }).waitFor();
  }

  it('fetches the first screens\' code while the sign-in page waits: none of it is waited for after Sign in', async () => {
    const { page, requests } = await newPage();
    const manifest = JSON.parse(readFileSync(join(clientDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string }>;
    const firstScreens = ['src/client/shell/Layout.tsx', 'src/client/shell/Dashboard.tsx', 'src/client/generate/ListScreen.tsx', 'resources/index.ts'].map(
      (key) => manifest[key].file,
    );
    const scripts = () => requests.map((r) => new URL(r.url()).pathname.slice(1));
    await fillSignIn(page);
    // While the person types: the layout, the landing page, the list screen and the registry.
    await expect.poll(() => firstScreens.filter((f) => !scripts().includes(f))).toEqual([]);
    const before = requests.length;
    await toProducts(page);
    // None of it was asked for again on the way (each module is fetched once), and the list was read once.
    const after = requests.slice(before);
    expect(after.map((r) => new URL(r.url()).pathname.slice(1)).filter((p) => firstScreens.includes(p))).toEqual([]);
    expect(after.filter((r) => listRead(r)?.range === '[0,24]')).toHaveLength(1);
  });

  it('reaches the Products rows from Sign in without asking who signed in (the sign-in answer says it)', async () => {
    const { page } = await newPage();
    await fillSignIn(page);
    // Nobody answers "who is signed in" from here on: the way to the rows must not need it.
    const held: Route[] = [];
    await page.route(`**${CURRENT_USER}`, (route) => void held.push(route));
    await toProducts(page);
    expect(await page.locator('#react-admin-title').textContent()).toBe(products.plural);
    await page.unroute(`**${CURRENT_USER}`);
    for (const route of held) await route.continue().catch(() => {});
  });

  it('reads the next page while the first is looked at: its rows come with the click, the list\'s own request held', async () => {
    const { page, requests } = await newPage();
    await fillSignIn(page);
    await toProducts(page);
    const first = await page.locator(FIRST_TITLE).textContent();
    // The second page is read ahead, unasked.
    await expect.poll(() => requests.some((r) => listRead(r)?.range === '[25,49]' && r.response() !== null)).toBe(true);
    await expect.poll(async () => (await requests.find((r) => listRead(r)?.range === '[25,49]')?.response())?.ok()).toBe(true);

    // From now on, no list read is answered: what the click shows comes from what was read ahead.
    const held: Route[] = [];
    await page.route(`**${LIST_PATH}?*`, (route) => void held.push(route));
    await page.getByRole('button', { name: /next page/i }).click();
    await expect.poll(() => page.locator('.MuiTablePagination-displayedRows').textContent()).toMatch(/^26-50 of/);
    await expect.poll(() => page.locator(FIRST_TITLE).textContent()).not.toBe(first);
    expect((await page.locator(FIRST_TITLE).textContent())?.trim()).not.toBe('');
    // And the rows never left: no placeholder stands where they were.
    expect(await page.locator('main [role="progressbar"]').count()).toBe(0);
    await page.unroute(`**${LIST_PATH}?*`);
    for (const route of held) await route.continue().catch(() => {});
  });

  it('cancels the request of a query typed further, and asks once for each query that settles', async () => {
    const { page, requests, failed } = await newPage();
    await fillSignIn(page);
    await toProducts(page);
    // A word of a product's name (five letters or more), and its first three letters.
    const titles = await page.locator(`main tbody td.column-${products.title}`).allTextContents();
    const word = titles.flatMap((t) => t.split(/[^\p{L}]+/u)).find((w) => w.length >= 5);
    expect(word, `a word of five letters in ${JSON.stringify(titles)}`).toBeTruthy();
    const prefix = word!.slice(0, 3);

    // Search answers are held until the test lets them go.
    const held: Route[] = [];
    await page.route(`**${LIST_PATH}?*`, (route) => {
      if (listRead(route.request())?.filter.q !== undefined) held.push(route);
      else void route.continue();
    });
    const asked = (q: string) => requests.filter((r) => listRead(r)?.filter.q === q && listRead(r)?.range === '[0,24]');
    const box = page.locator('input[name="q"]');
    await box.fill(prefix);
    await expect.poll(() => asked(prefix).length).toBe(1);
    await box.fill(word!);
    await expect.poll(() => asked(word!).length).toBe(1);
    // The first query's request, still unanswered, was cancelled when the second was asked.
    await expect.poll(() => failed.filter((r) => asked(prefix).includes(r)).length).toBe(1);

    await page.unroute(`**${LIST_PATH}?*`);
    for (const route of held) await route.continue().catch(() => {});
    await expect.poll(() => page.locator(FIRST_TITLE).textContent()).toContain(word);
    // Each settled query was asked once.
    expect(asked(prefix)).toHaveLength(1);
    expect(asked(word!)).toHaveLength(1);
  });
});
