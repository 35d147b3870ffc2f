/**
 * Role areas in Chromium against the built client and the real server: `seller@demo.test` signs in
 * and lands in `/seller`, its dashboard counting what the server lets it reach; the admin lands on
 * `/`; a referral link's code is sent once after sign-in and recorded; the admin's referral tree
 * shows it.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { registry } from '../../resources/index.ts';
import { AREA_TITLES, usableLists } from '../../src/client/areas/areas.ts';
import { listPath, pagesByNumber } from '../../src/client/providers/data.ts';
import { DEMO_PASSWORD, demoEmail } from '../../src/server/seed/index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { hasChromium, launch } from './support/browser.ts';
import { signIn } from './support/admin.ts';

describe.skipIf(!hasChromium)('role areas in the browser', () => {
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

  it('lands the seller in /seller, counting what its role reaches', async () => {
    const seller = await server.login('seller');
    const usable = usableLists(registry.resources, 'seller');
    expect(usable.length).toBeGreaterThan(0);
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.url, demoEmail('seller'), DEMO_PASSWORD);
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(AREA_TITLES.seller);
    expect(new URL(page.url()).hash).toBe('#/seller');
    await page.getByText('seller@demo.test').waitFor();
    await page.getByText(/\?bref=DEMO-SELLER$/).waitFor();
    for (const r of usable) {
      // The number the seller's own list read answers (ownership applied by the server).
      const res = await server.api('GET', `/${listPath(r)}`, { cookie: seller, query: pagesByNumber(r) ? { page: '1', limit: '1' } : { range: [0, 0] } });
      const total = pagesByNumber(r) ? res.body.total : Number(res.headers.get('content-range')!.split('/')[1]);
      // The list's own card (a waiting card, 'Paid orders to send', also names orders, with a filter).
      const card = page.getByRole('main').getByRole('link').filter({ hasText: new RegExp(`^${r.plural.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\d,–]*$`) });
      await expect.poll(() => card.textContent(), { message: r.name }).toBe(`${r.plural}${total.toLocaleString('en-US')}`);
    }
    // The menu offers its area and what it uses, not the catalogue it only reads.
    await page.getByRole('menuitem', { name: AREA_TITLES.seller }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Categories', exact: true }).count()).toBe(0);
    await page.context().close();
  });

  it('shows the seller only its own products, each of them, and never seller2’s', async () => {
    const idOf = async (email: string) => (await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const [mine, theirs] = await Promise.all([idOf('seller@demo.test'), idOf('seller2@demo.test')]);
    const names = async (sellerId: unknown) =>
      (await server.db.selectFrom('products').select('name').where('sellerId', '=', sellerId).execute()).map((p) => String(p.name));
    const [own, other] = await Promise.all([names(mine), names(theirs)]);
    expect(own.length).toBeGreaterThan(0);
    expect(other.length).toBeGreaterThan(0);
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.url, demoEmail('seller'), DEMO_PASSWORD);
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(AREA_TITLES.seller);
    // Every product on one page, so what is shown can be compared with what the seller owns.
    await page.evaluate((n) => (location.hash = `#/products?perPage=${n}`), Math.min(own.length + 10, 500));
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('Products');
    const cellsOf = () => page.locator('main tbody tr td').allTextContents();
    await expect.poll(async () => { const cells = await cellsOf(); return own.every((name) => cells.includes(name)); }).toBe(true);
    const cells = await cellsOf();
    for (const name of other.filter((n) => !own.includes(n))) expect(cells, `seller2’s ${name}`).not.toContain(name);
    await page.context().close();
  });

  it('lands the admin on its dashboard at /', async () => {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.url);
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('Dashboard');
    expect(new URL(page.url()).hash).toBe('#/');
    await page.getByRole('heading', { name: 'Recent changes' }).waitFor();
    await page.context().close();
  });

  it('keeps a referral link’s code, sends it once after sign-in, and the admin sees it in the tree', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${server.url}/?bref=DEMO-AGENT`);
    await page.locator('input[name="username"]').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('marketplace-house'))).toBe('{"bref":"DEMO-AGENT"}');
    await page.locator('input[name="username"]').fill(demoEmail('user'));
    await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: /sign in/i }).click();
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe(AREA_TITLES.user);
    const referrerOf = async () =>
      (await server.db.selectFrom('users').select('referredBy').where('email', '=', demoEmail('user')).executeTakeFirstOrThrow()).referredBy;
    const agent = (await server.db.selectFrom('users').select('id').where('email', '=', demoEmail('agent')).executeTakeFirstOrThrow()).id;
    await expect.poll(referrerOf).toBe(agent);
    expect(await page.evaluate(() => localStorage.getItem('marketplace-house'))).toBeNull();
    await context.close();

    const admin = await (await browser.newContext()).newPage();
    admin.setDefaultTimeout(20_000);
    await signIn(admin, server.url);
    await admin.getByRole('menuitem', { name: 'Referrals' }).click();
    await expect.poll(() => admin.locator('#react-admin-title').textContent()).toBe('Referrals');
    const tree = admin.getByRole('list', { name: 'Referral tree: Agents' });
    const demoAgent = tree.getByRole('listitem').filter({ has: admin.getByText('Demo Agent', { exact: true }) }).first();
    await demoAgent.getByText('Demo User', { exact: true }).waitFor();
    await admin.context().close();
  });
});
