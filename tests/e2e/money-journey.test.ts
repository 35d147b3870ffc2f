/**
 * Money moving after a purchase, in the browser (issue 52 points 4–6 and 9), in Chromium against the built
 * client and the real server: a buyer has checked out (its browser part is tests/e2e/checkout.test.ts);
 * the admin's dashboard shows the proof waiting to be checked, and from there the admin marks the order
 * paid and delivers it; the seller's area shows what it earned and is due, and the seller asks for its
 * payout; the admin's dashboard shows the payout waiting, and the admin pays it with an invoice; the
 * seller's area then shows it paid, and each party was told at each step.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch } from '../api/fixtures/catalogue.ts';
import { approvedProduct, checkout, paymentMethod, putInCart } from '../api/fixtures/shop.ts';
import { formatCentsMoney } from '../../src/domain/commission.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, signedInPage, toastOf } from './support/admin.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

describe.skipIf(!hasChromium)('an order paid, delivered and paid out, in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let seller: { id: string; cookie: string; email: string };
  let buyer: { id: string; cookie: string; email: string };
  let order: Record<string, any>;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
    const admin = await server.login('admin');
    const branch = await makeBranch(server, admin, 'Journey');
    const method = await paymentMethod(server, admin);
    seller = await account(server, 'seller');
    const product = await approvedProduct({ server, admin, branch, paymentMethod: method }, seller.cookie, 40, 5);
    buyer = await account(server, 'user');
    await putInCart(server, buyer.cookie, product.id, 2);
    const placed = await checkout(server, buyer.cookie, method);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    order = placed.body.orders[0];
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const pageAs = (email: string, password: string) => signedInPage(browser, server.url, email, password, pageErrors);
  const stored = (table: string, id: string) => server.db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const titlesOf = async (userId: string) => (await server.db.selectFrom('notifications').select('title').where('userId', '=', userId).execute()).map((n) => n.title);
  /** The waiting card's count on a landing page, by its label. */
  const waiting = (page: Page, label: string) => page.getByRole('link', { name: new RegExp(`^${label}\\s*\\d`) });

  /** Makes a row's transition through its "More actions" menu and its form. */
  async function transition(page: Page, rowText: string, name: string) {
    const row = page.getByRole('row').filter({ hasText: rowText });
    await row.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name, exact: true }).click();
    const form = dialogOf(page);
    await form.getByRole('heading', { name }).waitFor();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
  }

  it('the admin checks the proof from the dashboard, marks the order paid and delivers it; buyer and seller are told', async () => {
    const page = await pageAs('admin@demo.test', 'demo1234');
    const proofs = waiting(page, 'Proofs waiting to be checked');
    await expect.poll(async () => (await proofs.textContent()) ?? '').toMatch(/[1-9]/);
    await proofs.click();
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('Orders');
    await page.getByRole('row').filter({ hasText: String(order.orderId) }).first().waitFor();
    await transition(page, String(order.orderId), 'Mark paid');
    await expect.poll(() => toastOf(page).textContent()).toContain('Mark paid');
    // Paid, it leaves the proofs waiting; the whole list has it.
    await page.getByRole('row').filter({ hasText: String(order.orderId) }).waitFor({ state: 'detached' });
    await page.evaluate(() => (location.hash = `#/orders?filter=${encodeURIComponent('{}')}`));
    await page.getByRole('row').filter({ hasText: String(order.orderId) }).first().waitFor();
    for (const step of ['Process', 'Ship', 'Deliver']) {
      await transition(page, String(order.orderId), step);
      await expect.poll(() => toastOf(page).textContent()).toContain(step);
    }
    expect(await stored('orders', order.id)).toMatchObject({ paidstatus: 'PAID', status: 'DELIVERED' });
    for (const who of [buyer.id, seller.id]) expect(await titlesOf(who)).toEqual(expect.arrayContaining(['Order paid', 'Order delivered']));
    expect(pageErrors).toEqual([]);
  });

  it('the seller sees what it earned and asks for its payout', async () => {
    const page = await pageAs(seller.email, 'secret12');
    const due = formatCentsMoney(Number(order.sellerCents));
    const earnings = page.getByRole('region', { name: 'Your earnings' }).or(page.locator('section').filter({ has: page.getByRole('heading', { name: 'Your earnings' }) }));
    await expect.poll(async () => (await earnings.first().textContent()) ?? '').toContain(due);
    await page.getByRole('menuitem', { name: 'Payouts', exact: true }).click();
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('Payouts');
    await page.getByRole('button', { name: 'Request payout' }).click();
    const form = dialogOf(page);
    await form.getByRole('heading', { name: 'Request payout' }).waitFor();
    await form.locator('#root_name').fill('Bank transfer');
    await form.locator('#root_details').fill('Account 0123-456789, City Bank');
    await form.getByRole('combobox', { name: /^order/i }).click();
    await page.getByRole('option').filter({ hasText: String(order.orderId) }).first().click();
    await form.getByRole('button', { name: 'Create' }).click();
    await form.waitFor({ state: 'detached' });
    const payout = await server.db.selectFrom('payouts').selectAll().where('order', '=', order.id).executeTakeFirstOrThrow();
    expect(payout).toMatchObject({ payoutStatus: 'REQUESTED', amountCents: Number(order.sellerCents), sellerId: seller.id });
    expect(pageErrors).toEqual([]);
  });

  it('the admin pays the payout with its invoice from the dashboard; the seller sees it paid and is told', async () => {
    const page = await pageAs('admin@demo.test', 'demo1234');
    const payouts = waiting(page, 'Payouts waiting to be paid');
    await expect.poll(async () => (await payouts.textContent()) ?? '').toMatch(/[1-9]/);
    await payouts.click();
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('Payouts');
    const row = page.getByRole('row').filter({ hasText: 'Bank transfer' }).first();
    await row.getByRole('button', { name: /^(Edit|Pay payout)$/ }).first().click();
    const form = dialogOf(page);
    await form.getByRole('heading', { name: 'Pay payout' }).waitFor();
    await form.locator('input[type="file"]').setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: PDF });
    await form.locator('#root_invoiceDetails').fill('Paid by City Bank transfer TX-778');
    const sent = form.getByRole('checkbox', { name: /invoice sent/i }).or(form.getByRole('switch', { name: /invoice sent/i }));
    if (await sent.count()) await sent.first().check();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    const paid = await server.db.selectFrom('payouts').selectAll().where('order', '=', order.id).executeTakeFirstOrThrow();
    expect(paid).toMatchObject({ payoutStatus: 'PAID' });
    expect(await titlesOf(seller.id)).toContain('Payout paid');

    const sellerPage = await pageAs(seller.email, 'secret12');
    const section = sellerPage.locator('section').filter({ has: sellerPage.getByRole('heading', { name: 'Your earnings' }) });
    await expect.poll(async () => (await section.textContent()) ?? '').toContain(`Paid out${formatCentsMoney(Number(order.sellerCents))}`);
    await expect.poll(async () => (await section.textContent()) ?? '').toContain(`Due${formatCentsMoney(0)}`);
    expect(pageErrors).toEqual([]);
  });
});
