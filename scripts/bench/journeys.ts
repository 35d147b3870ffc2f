/**
 * The speed a person feels (issue 51.10): three journeys in Chromium against the built client and our
 * server over the bench's data, each timed from the person's action to the rows on screen:
 *  - sign-in: submit the sign-in form (as the admin), then click the list's menu entry as soon as it is
 *    there → the list's first rows on screen;
 *  - search: type a word into the list's search box → the filtered rows on screen;
 *  - page: click "next page" → the next page's rows on screen.
 * Beside the time, what the browser asked for in between: how many API requests, how many requests in
 * all (code chunks too), and how deep they stood in series (a waterfall: a request counts one deeper
 * than the deepest one that had finished before it started). Depth, more than the count, tells where a
 * journey's time goes: each level is a round trip plus whatever ran before the next request was made.
 *
 * Given another work tree (`checkout`), the same journeys run against its client and its server, in turns
 * with ours, so both are measured in the same sitting (the machine's speed moves from one minute to the next).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { listOptions, type ResourceDef } from '../../src/manifest/index.ts';
import { DEMO_PASSWORD, demoEmail } from '../../src/server/seed/index.ts';
import { buildClient } from './client-build.ts';
import { startOurs, type Child, type OursOptions } from './servers.ts';

export const JOURNEYS = ['signIn', 'search', 'page'] as const;
export type JourneyKey = (typeof JOURNEYS)[number];
export const JOURNEY_LABELS: Record<JourneyKey, string> = {
  signIn: 'sign-in → first rows',
  search: 'search → filtered rows',
  page: 'next page → new rows',
};

/** One run of a journey. */
export interface JourneyRun {
  /**
   * In the page: from the person's action (the click's or the typing's event) to the animation frame that
   * draws the rows, the frame being painted next (`performance.now()` and the event's `timeStamp` share one
   * clock). What the person sees; the driver's own time around it is `driverMs`.
   */
  ms: number;
  /**
   * As the driver (Playwright) saw it: from before its click or fill to its wait's answer. It also holds the
   * driver's own work (a click waits for the element to be still and hit, a wait's answer travels back),
   * which is the same for every client: 300 ms of a 540 ms next page in one profiled run.
   */
  driverMs: number;
  /** Requests to `/api/…` made between the action and the rows. */
  apiRequests: number;
  /** Every request made in between (code chunks, images, the API). */
  requests: number;
  /** The longest chain of API requests each started after the one before had finished. */
  apiDepth: number;
  /** The same over every request (a chunk whose code then asks the API counts as one level). */
  depth: number;
  /** The requests in between, in order: `+start..end ms path` from the action. */
  trace: string[];
}

export interface JourneyFigures {
  runs: JourneyRun[];
  medianMs: number;
  minMs: number;
  maxMs: number;
  medianApiRequests: number;
  medianApiDepth: number;
  medianDepth: number;
}

export interface FeltSpeedSide {
  /** 'ours' (this work tree) or the other work tree's path. */
  label: string;
  journeys: Record<JourneyKey, JourneyFigures>;
}

export interface FeltSpeed {
  resource: string;
  role: string;
  runs: number;
  /** The 1-minute load average when each round started. */
  loads: number[];
  ours: FeltSpeedSide;
  /** The other work tree measured in the same sitting (`--journeys-base`), with ours/base per journey. */
  base?: FeltSpeedSide & { ratios: Record<JourneyKey, number> };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};


interface Seen {
  request: Request;
  start: number;
  end?: number;
}

/** Watches a page's requests; `since(t0)` gives those started after `t0` (epoch ms) and finished. */
function watchRequests(page: Page) {
  const seen: Seen[] = [];
  const finish = (request: Request) => {
    const s = seen.find((x) => x.request === request);
    if (!s) return;
    const t = request.timing();
    s.end = t.responseEnd >= 0 ? t.startTime + t.responseEnd : Date.now();
  };
  page.on('request', (request) => seen.push({ request, start: Date.now() }));
  page.on('requestfinished', finish);
  page.on('requestfailed', (request) => {
    const s = seen.find((x) => x.request === request);
    if (s) s.end = Date.now();
  });
  return {
    since(t0: number, t1: number) {
      return seen
        .filter((s) => s.start >= t0 && s.start <= t1)
        .map((s) => {
          // The browser's own start time once it has one (the event reaches us a little later).
          const t = s.request.timing();
          return { ...s, start: t.startTime > 0 ? t.startTime : s.start, end: s.end ?? t1 };
        });
    },
  };
}

/** The journey's figures from the requests made between t0 and t1. */
function runOf(ms: number, driverMs: number, requests: ReturnType<ReturnType<typeof watchRequests>['since']>, t0: number): JourneyRun {
  const isApi = (s: Seen) => new URL(s.request.url()).pathname.startsWith('/api/');
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  const chain = (list: typeof sorted) => {
    const depth = new Map<(typeof sorted)[number], number>();
    for (const r of list) depth.set(r, 1 + Math.max(0, ...list.filter((p) => p !== r && (p.end ?? Infinity) <= r.start).map((p) => depth.get(p) ?? 0)));
    return Math.max(0, ...depth.values());
  };
  const api = sorted.filter(isApi);
  return {
    ms: Math.round(ms),
    driverMs: Math.round(driverMs),
    apiRequests: api.length,
    requests: sorted.length,
    apiDepth: chain(api),
    depth: chain(sorted),
    trace: sorted.map((s) => {
      const u = new URL(s.request.url());
      return `+${Math.round(s.start - t0)}..${Math.round((s.end ?? s.start) - t0)} ${s.request.method()} ${u.pathname}${u.search.length > 80 ? u.search.slice(0, 80) + '…' : u.search}`;
    }),
  };
}

/**
 * The list's first row, by its title cell (react-admin classes a cell `column-<source>`): a row's other
 * cells (a reference's name, fetched after the row) may empty and fill again while the rows stay the same.
 */
/** What a journey waits for: the list's rows, other than the ones before it. */
interface RowsWanted {
  title: string;
  before: string;
  rangeBefore: string;
  firstRow: string;
}

/**
 * Arms the page's clock for the next journey: the first `event` (click, input) after now is its start,
 * and from it the page itself checks at every animation frame (before that frame is painted) whether
 * the list's first row is there and differs from `before`, no loading placeholder stands in the content,
 * and the range shown is not `rangeBefore`; the first frame that has them is its end. Kept on `window`:
 * a journey's pages are one document (the app routes by its address's hash).
 *
 * Checked in the page, not by the driver's polling: the driver's wait reaches the page only after its
 * click has returned and a round trip, queued behind whatever the page is drawing then. Its first check
 * of a next page came 160 to 440 ms after the click in one run of five rounds, while in the page the rows
 * were drawn 150 to 290 ms after it: the end was the driver's arrival, not the rows'.
 */
function armClock(page: Page, event: 'click' | 'input', wanted: RowsWanted) {
  return page.evaluate(`(() => {
    const wanted = ${JSON.stringify(wanted)};
    const clock = { start: 0, end: 0 };
    window.__journeyClock = clock;
    const check = () => {
      const heading = document.querySelector('#react-admin-title')?.textContent?.trim();
      const row = document.querySelector(wanted.firstRow)?.textContent?.trim() ?? '';
      const range = document.querySelector('.MuiTablePagination-displayedRows')?.textContent ?? '';
      const loading = document.querySelector('main [role="progressbar"]');
      if (heading === wanted.title && row !== '' && row !== wanted.before && range !== wanted.rangeBefore && !loading) clock.end = performance.now();
      else requestAnimationFrame(check);
    };
    document.addEventListener(${JSON.stringify(event)}, (e) => {
      if (clock.start) return;
      clock.start = e.timeStamp;
      requestAnimationFrame(check);
    }, { capture: true, once: true });
  })()`);
}

/** The page's clock: from the armed event to the frame that drew the rows, ms. */
async function clockMs(page: Page): Promise<number> {
  const clock = (await page.evaluate('window.__journeyClock')) as { start: number; end: number } | undefined;
  if (!clock?.start || !clock.end) throw new Error(`journeys: the page's clock was not ${clock?.start ? 'stopped' : 'started'}`);
  return clock.end - clock.start;
}

const firstRowSelector = (r: ResourceDef) => `main tbody tr:first-child td.column-${r.title}`;

/** What the journey about to start waits for on `r`'s list. */
const rowsWanted = (r: ResourceDef, before: string, rangeBefore: string): RowsWanted => ({ title: r.plural, before, rangeBefore, firstRow: firstRowSelector(r) });

/** Waits until the page's clock has seen the rows the journey armed it for (`armClock`). */
async function rowsChanged(page: Page, wanted: RowsWanted) {
  await page.waitForFunction(() => !!(window as unknown as { __journeyClock?: { end: number } }).__journeyClock?.end, undefined, { polling: 'raf', timeout: 60_000 }).catch(async (e: Error) => {
    // What the page showed instead, so a journey that never ends says why.
    const seen = await page
      .evaluate((firstRow) => ({
        url: location.href,
        heading: document.querySelector('#react-admin-title')?.textContent,
        row: document.querySelector(firstRow)?.textContent?.slice(0, 80),
        range: document.querySelector('.MuiTablePagination-displayedRows')?.textContent,
        loading: document.querySelector('main [role="progressbar"]')?.outerHTML.slice(0, 120),
        text: document.body.innerText.slice(0, 300),
      }), wanted.firstRow)
      .catch(() => undefined);
    throw new Error(`${e.message.split('\n')[0]}: waiting for '${wanted.title}' rows after '${wanted.before.slice(0, 40)}' / '${wanted.rangeBefore}', the page showed ${JSON.stringify(seen)}`);
  });
}

const rangeOf = (page: Page) => page.evaluate(() => document.querySelector('.MuiTablePagination-displayedRows')?.textContent ?? '');
const firstRowOf = (page: Page, r: ResourceDef) => page.evaluate((sel) => document.querySelector(sel)?.textContent?.trim() ?? '', firstRowSelector(r));

/** A word to search for: one from the searchable columns of the page shown (the second), so the answer differs from it. */
async function searchWord(page: Page, r: ResourceDef): Promise<string> {
  const cells = listOptions(r).search.map((f) => `main tbody td.column-${f}`).join(', ');
  if (!cells) throw new Error(`journeys: ${r.name} has no searchable field`);
  const text = await page.evaluate((sel) => [...document.querySelectorAll(sel)].map((td) => td.textContent ?? '').join(' '), cells);
  const words = text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 5 && !/^\d+$/.test(w));
  if (!words.length) throw new Error(`journeys: no word of five letters or more in ${r.name}'s searchable columns`);
  return words[Math.floor(words.length / 2)];
}

/**
 * With BENCH_JOURNEYS_PROF=<folder>: the page's CPU profile of each journey, from before its action to its
 * rows (`<folder>/<side>-<round>-<journey>.cpuprofile`, for Chromium's DevTools or a script), to find
 * where a journey's time goes. Best read over an unminified client (BENCH_CLIENT_UNMINIFIED=1).
 */
async function profiler(page: Page, name: string) {
  const dir = process.env.BENCH_JOURNEYS_PROF;
  if (!dir) return { start: async () => {}, stop: async (_journey: string) => {} };
  mkdirSync(dir, { recursive: true });
  // BENCH_JOURNEYS_TRACE=1: a Chromium trace (the main thread's tasks, timers, layouts, paints) instead.
  if (process.env.BENCH_JOURNEYS_TRACE === '1') {
    const browser = page.context().browser()!;
    return {
      start: () => browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] }),
      stop: async (journey: string) => writeFileSync(join(dir, `${name}-${journey}.trace.json`), await browser.stopTracing()),
    };
  }
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  return {
    start: () => cdp.send('Profiler.start'),
    stop: async (journey: string) => {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(join(dir, `${name}-${journey}.cpuprofile`), JSON.stringify(profile));
    },
  };
}

/** One round of the three journeys in a fresh browser context (no cookies, no cached code). */
async function round(browser: Browser, url: string, r: ResourceDef, email: string, name = 'warm-up'): Promise<Record<JourneyKey, JourneyRun>> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 850 } });
  try {
    const page = await context.newPage();
    const prof = await profiler(page, name);
    page.setDefaultTimeout(60_000);
    const requests = watchRequests(page);
    await page.goto(url);
    await page.locator('input[name="username"]').fill(email);
    await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await page.waitForLoadState('networkidle');

    // Sign-in: submit → the list's menu entry (clicked the moment it is there) → its first rows.
    let wanted = rowsWanted(r, '', '');
    await armClock(page, 'click', wanted);
    let t0 = Date.now();
    let p0 = performance.now();
    await prof.start();
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('menuitem', { name: r.plural, exact: true }).click();
    await rowsChanged(page, wanted);
    let p1 = performance.now();
    await prof.stop('signIn');
    const signIn = runOf(await clockMs(page), p1 - p0, requests.since(t0, Date.now()), t0);
    await page.waitForLoadState('networkidle');

    // Next page: the click → the second page's rows.
    let before = await firstRowOf(page, r);
    let range = await rangeOf(page);
    wanted = rowsWanted(r, before, range);
    await armClock(page, 'click', wanted);
    t0 = Date.now();
    p0 = performance.now();
    await prof.start();
    await page.getByRole('button', { name: /next page/i }).click();
    await rowsChanged(page, wanted);
    p1 = performance.now();
    await prof.stop('page');
    const next = runOf(await clockMs(page), p1 - p0, requests.since(t0, Date.now()), t0);
    await page.waitForLoadState('networkidle');

    // Search: a word from this page typed at once (one input event) → the filtered rows.
    const word = await searchWord(page, r);
    before = await firstRowOf(page, r);
    range = await rangeOf(page);
    const box = page.locator('input[name="q"]');
    await box.waitFor();
    wanted = rowsWanted(r, before, range);
    await armClock(page, 'input', wanted);
    t0 = Date.now();
    p0 = performance.now();
    await prof.start();
    await box.fill(word);
    await rowsChanged(page, wanted);
    p1 = performance.now();
    await prof.stop('search');
    // The debounced request may start after the rows of an earlier answer: wait for the quiet that follows.
    const search = runOf(await clockMs(page), p1 - p0, requests.since(t0, Date.now()), t0);
    await page.waitForLoadState('networkidle');
    return { signIn, search, page: next };
  } finally {
    await context.close();
  }
}

function figuresOf(runs: JourneyRun[]): JourneyFigures {
  const ms = runs.map((x) => x.ms);
  return {
    runs,
    medianMs: median(ms),
    minMs: Math.min(...ms),
    maxMs: Math.max(...ms),
    medianApiRequests: median(runs.map((x) => x.apiRequests)),
    medianApiDepth: median(runs.map((x) => x.apiDepth)),
    medianDepth: median(runs.map((x) => x.depth)),
  };
}

interface Side {
  label: string;
  server: Child;
  clientDir: string;
  runs: Record<JourneyKey, JourneyRun[]>;
}

/**
 * Runs the three journeys `runs` times over `db` (already seeded, with the demo accounts), as the
 * admin, on resource `r`'s list; with `checkout`, the same against that work tree's client and server,
 * in turns (ours first on even rounds, the base first on odd ones).
 */
export async function feltSpeed(
  r: ResourceDef,
  db: OursOptions,
  options: { runs: number; checkout?: string; log: (s: string) => void },
): Promise<FeltSpeed> {
  const { runs, checkout, log } = options;
  if (!r.menu) throw new Error(`${r.name} is not in the menu`);
  const root = resolve(import.meta.dirname, '../..');
  const { chromium } = await import('playwright-core');
  const sides: Side[] = [];
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const loads: number[] = [];
  try {
    for (const [label, tree] of [['ours', root], ...(checkout ? [[checkout, resolve(checkout)]] : [])] as [string, string][]) {
      const clientDir = await buildClient(tree, log);
      const server = await startOurs({ ...db, clientDir }, `journeys ${label}`, tree === root ? undefined : tree);
      sides.push({ label, server, clientDir, runs: { signIn: [], search: [], page: [] } });
    }
    const email = demoEmail('admin');
    // One round unmeasured on each side first: the server's caches and the OS's file cache warm.
    for (const s of sides) await round(browser, s.server.url, r, email);
    for (let i = 0; i < runs; i++) {
      loads.push(Math.round(loadavg()[0] * 100) / 100);
      const order = i % 2 ? [...sides].reverse() : sides;
      for (const s of order) {
        const got = await round(browser, s.server.url, r, email, `${s.label === 'ours' ? 'ours' : 'base'}-${i + 1}`);
        for (const k of JOURNEYS) s.runs[k].push(got[k]);
        log(`  [${i + 1}/${runs}] ${s.label === 'ours' ? 'ours' : 'base'}: ` + JOURNEYS.map((k) => `${k} ${got[k].ms} ms (driver ${got[k].driverMs}; ${got[k].apiRequests} API, depth ${got[k].apiDepth}/${got[k].depth})`).join(', '));
      }
    }
  } finally {
    await browser.close();
    for (const s of sides) {
      await s.server.stop();
      rmSync(s.clientDir, { recursive: true, force: true });
    }
  }
  const sideOf = (s: Side): FeltSpeedSide => ({
    label: s.label,
    journeys: Object.fromEntries(JOURNEYS.map((k) => [k, figuresOf(s.runs[k])])) as Record<JourneyKey, JourneyFigures>,
  });
  const ours = sideOf(sides[0]);
  const out: FeltSpeed = { resource: r.name, role: 'admin', runs, loads, ours };
  if (sides[1]) {
    const base = sideOf(sides[1]);
    const ratios = Object.fromEntries(JOURNEYS.map((k) => [k, Math.round((ours.journeys[k].medianMs / base.journeys[k].medianMs) * 100) / 100])) as Record<JourneyKey, number>;
    out.base = { ...base, ratios };
  }
  return out;
}

/** The journeys as lines for the bench's printout. */
export function feltSpeedLines(f: FeltSpeed): string[] {
  const side = (s: FeltSpeedSide, k: JourneyKey) => {
    const j = s.journeys[k];
    return `${j.medianMs} ms (${j.minMs}–${j.maxMs}), ${j.medianApiRequests} API requests, depth ${j.medianApiDepth} API / ${j.medianDepth} all`;
  };
  const out = [`felt speed, ${f.resource} as ${f.role}, ${f.runs} runs, load ${Math.min(...f.loads)}–${Math.max(...f.loads)}:`];
  for (const k of JOURNEYS) {
    out.push(`  ${JOURNEY_LABELS[k].padEnd(24)} ours ${side(f.ours, k)}`);
    if (f.base) out.push(`  ${''.padEnd(24)} base ${side(f.base, k)}  → ours/base ${f.base.ratios[k]}`);
  }
  return out;
}

/**
 * A browser-only run (`--browser-only`) in the results file: under `feltSpeed`, beside the kept runs,
 * never in their place (a run's label names its engine and size, not which parts were measured).
 */
export function writeBrowserOnly(file: string, results: { machine: Record<string, unknown>; options: Record<string, unknown>; resources: { resource: string; feltSpeed?: FeltSpeed; dialogOpen?: unknown }[]; errors: string[] }) {
  let kept: Record<string, unknown> = {};
  try {
    kept = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // No file yet: start afresh.
  }
  const feltSpeed = {
    machine: results.machine,
    options: results.options,
    resources: results.resources.map((r) => ({ resource: r.resource, dialogOpen: r.dialogOpen, feltSpeed: r.feltSpeed })),
    errors: results.errors,
  };
  writeFileSync(file, JSON.stringify({ ...kept, feltSpeed }, null, 2) + '\n');
}
