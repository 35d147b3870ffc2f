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
 *    is asked once; a search's page is asked for as the search is applied, before react-admin writes it
 *    into the address and draws the list again for it (search-ahead.tsx);
 *  - drawing: what a list's change leaves as it was is not drawn again, and what it changes is drawn in
 *    place. React's own commits are counted (the hook React DevTools uses, installed before the app
 *    loads): a next page or a search draws no entry of the side menu, a search draws no row before its
 *    answer comes, a next page's rows and a search's found rows are the rows that were there given other
 *    records (none of their components mounted again), and a row's buttons are drawn light, their
 *    tooltips not until the pointer (or the keyboard's focus) reaches them.
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
/** The rows of a list page. */
const PER_PAGE = 25;

/** A list read of products (not a read of one, nor of another resource), with its query. */
function listRead(request: Request) {
  const url = new URL(request.url());
  if (request.method() !== 'GET' || url.pathname !== LIST_PATH) return undefined;
  return { range: url.searchParams.get('range') ?? '', filter: JSON.parse(url.searchParams.get('filter') ?? '{}') as Record<string, unknown> };
}

/** When the page sent `request` (its clock: `performance.now()`), from the browser's resource timing. */
async function sentAt(page: Page, request: Request): Promise<number> {
  const url = JSON.stringify(request.url());
  return (await page.evaluate(`performance.getEntriesByType('resource').filter((e) => e.name === ${url}).map((e) => e.startTime).pop()`)) as number;
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

  /**
   * Counts, from `start()` to `stop()`, the components React draws whose first element lies inside
   * `selector` (each function or class component that ran, as React DevTools' hook is told at each
   * commit: a component is new in a commit's tree, or cloned for it, and performed work), and of those
   * the ones mounted (drawn for the first time: no earlier version of them). `census(selectors)` counts
   * the components the page holds now (the last commit's tree) whose first element lies inside each.
   */
  async function countDraws(page: Page) {
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, unknown>;
      let commit = 0;
      const seen = new WeakMap<object, number>();
      const counts = new Map<string, number>();
      const mounts = new Map<string, number>();
      let selectors: string[] = [];
      type Fiber = { tag: number; flags: number; child: Fiber | null; sibling: Fiber | null; alternate: Fiber | null; stateNode: unknown };
      let last: Fiber | null = null;
      // Function (0), class (1), forwardRef (11) and memo (14, 15) components.
      const COMPONENTS = [0, 1, 11, 14, 15];
      // A component's first element: the first host node in its subtree, depth first. (Not only down its
      // first children: an emotion-styled component's first child is its style insertion, which draws nothing.)
      const elementOf = (f: Fiber): Element | null => {
        if (f.tag === 5 && f.stateNode instanceof Element) return f.stateNode;
        const stack: Fiber[] = f.child ? [f.child] : [];
        while (stack.length) {
          const n = stack.pop()!;
          if (n.tag === 5 && n.stateNode instanceof Element) return n.stateNode;
          if (n.sibling) stack.push(n.sibling);
          if (n.child) stack.push(n.child);
        }
        return null;
      };
      const walk = (root: Fiber) => {
        commit++;
        last = root;
        const stack: Fiber[] = [root];
        while (stack.length) {
          const f = stack.pop()!;
          const fresh = seen.get(f) !== commit - 1;
          seen.set(f, commit);
          // The components that ran in this commit.
          if (fresh && (f.flags & 1) === 1 && COMPONENTS.includes(f.tag) && selectors.length) {
            const el = elementOf(f);
            for (const sel of selectors)
              if (el?.closest(sel)) {
                counts.set(sel, (counts.get(sel) ?? 0) + 1);
                if (!f.alternate) mounts.set(sel, (mounts.get(sel) ?? 0) + 1);
              }
          }
          if (f.sibling) stack.push(f.sibling);
          if (f.child) stack.push(f.child);
        }
      };
      w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true,
        renderers: new Map(),
        inject: () => 1,
        onCommitFiberRoot: (_id: number, root: { current: Fiber }) => walk(root.current),
        onCommitFiberUnmount: () => {},
        onPostCommitFiberRoot: () => {},
        onScheduleFiberRoot: () => {},
        checkDCE: () => {},
        isDisabled: false,
      };
      w.__draws = {
        start: (sels: string[]) => {
          counts.clear();
          mounts.clear();
          selectors = sels;
        },
        stop: () => {
          const out = Object.fromEntries(selectors.map((sel) => [sel, counts.get(sel) ?? 0]));
          const mounted = Object.fromEntries(selectors.map((sel) => [sel, mounts.get(sel) ?? 0]));
          selectors = [];
          return { drawn: out, mounted };
        },
        census: (sels: string[]) => {
          const held = new Map<string, number>();
          const stack: Fiber[] = last ? [last] : [];
          while (stack.length) {
            const f = stack.pop()!;
            if (COMPONENTS.includes(f.tag)) {
              const el = elementOf(f);
              for (const sel of sels) if (el?.closest(sel)) held.set(sel, (held.get(sel) ?? 0) + 1);
            }
            if (f.sibling) stack.push(f.sibling);
            if (f.child) stack.push(f.child);
          }
          return Object.fromEntries(sels.map((sel) => [sel, held.get(sel) ?? 0]));
        },
      };
    });
    type Draws = {
      start(s: string[]): void;
      stop(): { drawn: Record<string, number>; mounted: Record<string, number> };
      census(s: string[]): Record<string, number>;
    };
    return {
      start: (selectors: string[]) => page.evaluate((sels) => (window as unknown as { __draws: Draws }).__draws.start(sels), selectors),
      stop: async () => (await page.evaluate(() => (window as unknown as { __draws: Draws }).__draws.stop())).drawn,
      stopWithMounts: () => page.evaluate(() => (window as unknown as { __draws: Draws }).__draws.stop()),
      census: (selectors: string[]) => page.evaluate((sels) => (window as unknown as { __draws: Draws }).__draws.census(sels), selectors),
    };
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

  it('asks for a list\'s first page as its menu entry is chosen: before the list screen is drawn, and once', async () => {
    const { page, requests } = await newPage();
    await fillSignIn(page);
    await page.getByRole('button', { name: /sign in/i }).click();
    const entry = page.getByRole('menuitem', { name: products.plural, exact: true });
    await entry.waitFor();
    await page.waitForLoadState('networkidle');
    // In the page: the moment the list screen is first in the document (its search box), seen as it is added.
    await page.evaluate(`(() => {
      const seen = {};
      window.__listDrawn = seen;
      new MutationObserver((_, observer) => {
        if (document.querySelector('main input[name="q"]')) { seen.at = performance.now(); observer.disconnect(); }
      }).observe(document.body, { subtree: true, childList: true });
    })()`);
    const before = requests.length;
    await entry.click();
    await page.locator(FIRST_TITLE).filter({ hasText: /\S/ }).waitFor();
    await page.waitForLoadState('networkidle');
    const firstPage = requests.slice(before).filter((r) => listRead(r)?.range === '[0,24]');
    // Asked once: the list found the page read ahead (or its request on the way) under its own key.
    expect(firstPage).toHaveLength(1);
    const drawnAt = (await page.evaluate('window.__listDrawn.at')) as number;
    const askedAt = await sentAt(page, firstPage[0]);
    expect(drawnAt).toBeGreaterThan(0);
    // Before, the request went out once the screen was drawn and react-admin had checked the session again.
    expect(askedAt, 'the first page was asked for before the list screen was drawn').toBeLessThan(drawnAt);
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

  it('asks for a search\'s page as the search is applied, before the list is drawn again for it, and once', async () => {
    const { page, requests } = await newPage();
    await fillSignIn(page);
    await toProducts(page);
    await page.waitForLoadState('networkidle');
    const titles = await page.locator(`main tbody td.column-${products.title}`).allTextContents();
    const word = titles.flatMap((t) => t.split(/[^\p{L}]+/u)).find((w) => w.length >= 5);
    expect(word).toBeTruthy();
    // In the page: when the search first reaches the address (react-admin writes a list's filter there, and
    // the list is drawn again from it).
    await page.evaluate(`(() => {
      const seen = {};
      window.__searchAddressed = seen;
      for (const name of ['pushState', 'replaceState']) {
        const original = history[name].bind(history);
        history[name] = (state, unused, url) => {
          if (seen.at === undefined && /%22q%22|"q"/.test(String(url ?? ''))) seen.at = performance.now();
          return original(state, unused, url);
        };
      }
    })()`);
    const before = requests.length;
    await page.locator('input[name="q"]').fill(word!);
    // (The first row may hold the word already: the search is done when every row does.)
    const cells = page.locator(`main tbody td.column-${products.title}`);
    await expect.poll(async () => (await cells.allTextContents()).every((t) => t.toLowerCase().includes(word!.toLowerCase())), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => requests.slice(before).some((r) => listRead(r)?.filter.q === word)).toBe(true);
    await page.waitForLoadState('networkidle');
    const searched = requests.slice(before).filter((r) => listRead(r)?.filter.q === word && listRead(r)?.range === '[0,24]');
    // Asked once: the list found the page read as the search was applied, under its own key.
    expect(searched).toHaveLength(1);
    const addressedAt = (await page.evaluate('window.__searchAddressed.at')) as number;
    const askedAt = await sentAt(page, searched[0]);
    expect(addressedAt).toBeGreaterThan(0);
    // Before, the list was drawn again for the new address first, and asked for the page from an effect after.
    expect(askedAt, 'the search\'s page was asked for before the search reached the address').toBeLessThan(addressedAt);
  });

  it('draws no menu entry for a next page or a search, no row before a search is answered, and no row tooltip until pointed at', async () => {
    const { page } = await newPage();
    const draws = await countDraws(page);
    await fillSignIn(page);
    await toProducts(page);
    // The menu's entries, and the table's cells (what a row shows).
    // (react-admin's sidebar is classed `RaSidebar-…`, its permanent drawer's content `RaSidebar-fixed`.)
    const MENU = '.RaSidebar-fixed [role="menuitem"]';
    const CELLS = 'main tbody td';
    const ROWS = 'main tbody';
    const ACTIONS = `${ROWS} td:last-of-type`;
    const actions = page.locator(`${ACTIONS} button`);
    await actions.first().waitFor();
    expect(await actions.count()).toBeGreaterThan(0);
    const first = await page.locator(FIRST_TITLE).textContent();
    await page.waitForLoadState('networkidle');
    // A row's action buttons carry no tooltip until one is wanted, and each is drawn light: a row's actions
    // cell holds the actions' own component, and for each button its tooltip's stand-in and the button
    // (RowTooltip, RowIconButton). An MUI IconButton is ten components, its Tooltip as many again.
    const rows = await page.locator(`${ROWS} tr`).count();
    const buttons = await actions.count();
    const held = (await draws.census([ACTIONS]))[ACTIONS];
    expect(held, 'components in the row actions\' cells').toBeLessThanOrEqual(2 * buttons + 3 * rows);
    expect(held).toBeGreaterThan(0);

    // What the page does once idle after sign-in (the first dialog's warm-up, DialogHost's idle callback,
    // up to 1 s late) is not the next page's: on CI's loaded cores it fell in the count once (7 menu
    // components drawn). Two idle callbacks in a row: whatever was waiting for an idle moment has run.
    await page.evaluate(() => new Promise<void>((done) => requestIdleCallback(() => requestIdleCallback(() => done(), { timeout: 5000 }), { timeout: 5000 })));
    // The next page: its rows are drawn, the menu is not.
    await draws.start([MENU, CELLS, ROWS]);
    await page.getByRole('button', { name: /next page/i }).click();
    await expect.poll(() => page.locator(FIRST_TITLE).textContent()).not.toBe(first);
    await page.waitForLoadState('networkidle');
    const paged = await draws.stopWithMounts();
    expect(paged.drawn[CELLS], 'the new rows are drawn').toBeGreaterThan(0);
    expect(paged.drawn[MENU], 'components of the menu drawn for a next page').toBe(0);
    // The new page's rows are the rows that were there, given other records: React updates their cells in
    // place. Before, every row was torn down and built again, its hundred-odd components mounted anew.
    expect(paged.mounted[ROWS], 'components of the rows mounted for a next page').toBeLessThanOrEqual(PER_PAGE);

    // A search, its answer held: neither the menu nor the rows are drawn while it is on its way.
    const titles = await page.locator(`${ROWS} td.column-${products.title}`).allTextContents();
    const word = titles.flatMap((t) => t.split(/[^\p{L}]+/u)).find((w) => w.length >= 5);
    expect(word).toBeTruthy();
    const heldSearch: Route[] = [];
    await page.route(`**${LIST_PATH}?*`, (route) => {
      if (listRead(route.request())?.filter.q !== undefined) heldSearch.push(route);
      else void route.continue();
    });
    await draws.start([MENU, CELLS]);
    await page.locator('input[name="q"]').fill(word!);
    await expect.poll(() => heldSearch.length).toBeGreaterThan(0);
    const searching = await draws.stop();
    expect(searching[MENU], 'components of the menu drawn for a search').toBe(0);
    // A row is not drawn again (before this, each of its hundred-odd components was, and the menu's
    // too): at most one component a row is, a reference's link whose record is read again beside the search.
    expect(searching[CELLS], 'components of the rows drawn before the search is answered').toBeLessThanOrEqual(PER_PAGE);
    // Its answer: the rows found are drawn in the rows that were there.
    await draws.start([ROWS]);
    await page.unroute(`**${LIST_PATH}?*`);
    for (const route of heldSearch) await route.continue().catch(() => {});
    await expect.poll(() => page.locator(FIRST_TITLE).textContent()).toContain(word);
    await page.waitForLoadState('networkidle');
    const found = await draws.stopWithMounts();
    expect(found.mounted[ROWS], 'components of the rows mounted for a search\'s answer').toBeLessThanOrEqual(PER_PAGE);

    // Pointed at, a row action shows its tooltip.
    const edit = page.locator(`${ROWS} tr:first-child`).getByRole('button', { name: 'Edit' });
    await edit.hover();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe('Edit');
  });

  it('reads a page\'s references once for the page: each reference cell is a few components, none asks for its record', async () => {
    const { page, requests } = await newPage();
    const draws = await countDraws(page);
    await fillSignIn(page);
    await toProducts(page);
    await page.waitForLoadState('networkidle');
    // The list's reference columns the table shows at this width (the seller; the category is left out to fit).
    const cellsOf = (f: (typeof products.fields)[number]) => `main tbody td.column-${f.name}`;
    const references = [];
    for (const f of products.fields.filter((f) => f.kind === 'reference' && f.list && !f.referenceBy))
      if ((await page.locator(cellsOf(f)).count()) > 0) references.push(f);
    expect(references.length).toBeGreaterThan(0);
    for (const f of references) {
      const cells = page.locator(cellsOf(f));
      const rows = await cells.count();
      expect(rows, f.name).toBe(PER_PAGE);
      // Named and linked, as react-admin's ReferenceField draws them.
      await expect.poll(() => cells.locator('a.RaReferenceField-link').count(), { message: f.name }).toBeGreaterThan(0);
      expect((await cells.first().textContent())?.trim(), f.name).not.toBe('');
      // A cell holds its display and its link (two components). Before, each was react-admin's
      // ReferenceField: its controller, contexts and view around the link, and a react-query observer of
      // its own (usePermissions, and the record's aggregated read), 50 of them a page.
      const held = (await draws.census([cellsOf(f)]))[cellsOf(f)];
      expect(held, `components in the ${f.name} cells`).toBeLessThanOrEqual(4 * rows);
      // The first page's records of each target were read in one request (and the next page's, read ahead, in one more).
      const path = `/${listPath(registry.resource(f.reference!))}`;
      const reads = requests.filter((r) => {
        const url = new URL(r.url());
        return r.method() === 'GET' && url.pathname === path && Array.isArray((JSON.parse(url.searchParams.get('filter') ?? '{}') as { id?: unknown }).id);
      });
      expect(reads.length, `reads of ${f.reference}`).toBeGreaterThan(0);
      expect(reads.length, `reads of ${f.reference}`).toBeLessThanOrEqual(2);
    }
  });
});
