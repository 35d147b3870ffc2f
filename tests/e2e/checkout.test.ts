/**
 * A buyer's purchase, end to end (issue 52 points 2–4), in Chromium against the built client and the
 * real server: the cart page's checkout form refuses what the server would (its own texts, nothing
 * sent), shows the chosen payment method's instructions, uploads the proof of payment privately, places
 * the order once (the cart emptied, the amounts the server's), and the buyer finds the order in its
 * Orders list; the proof is served to the buyer, not to a guest.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CHECKOUT_MESSAGES } from '../../resources/orders.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { makePng } from '../support/png.ts';
import { account, makeBranch } from '../api/fixtures/catalogue.ts';
import { approvedProduct, putInCart, type Shop } from '../api/fixtures/shop.ts';
import { hasChromium, launch } from './support/browser.ts';

const INSTRUCTIONS = 'Send the money to account 0123-456789, then upload the receipt.';

describe.skipIf(!hasChromium)('a buyer checks out in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let shop: Shop;
  let buyer: { id: string; cookie: string; email: string };
  let product: { id: string; price: number };
  let methodName: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
    const admin = await server.login('admin');
    const branch = await makeBranch(server, admin, 'Checkout');
    methodName = `Bank ${Date.now().toString(36)}`;
    const method = await server.api('POST', '/payment-settings', { cookie: admin, body: { name: methodName, content: INSTRUCTIONS } });
    expect(method.status).toBe(201);
    shop = { server, admin, branch, paymentMethod: method.body.id };
    const seller = await account(server, 'seller');
    product = await approvedProduct(shop, seller.cookie, 40, 5);
    buyer = await account(server, 'user');
    await putInCart(server, buyer.cookie, product.id, 2);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const ordersOf = () => server.db.selectFrom('orders').selectAll().where('user', '=', buyer.id).execute();

  async function signedInAt(hash: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(server.url);
    await page.locator('input[name="username"]').fill(buyer.email);
    await page.locator('input[name="password"]').fill('secret12');
    await page.getByRole('button', { name: /sign in/i }).click();
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBeTruthy();
    await page.evaluate((h) => (location.hash = h), hash);
    return page;
  }

  it('refuses an incomplete form with the server’s texts, then places one order and empties the cart', async () => {
    const page = await signedInAt('#/cart');
    const form = page.getByRole('region', { name: 'Checkout' });
    await form.waitFor();
    // The cart's line is the server's: two of the product.
    await expect.poll(() => page.getByLabel(/^Quantity of /).textContent()).toBe('2');

    await form.getByRole('button', { name: 'Place order' }).click();
    for (const text of [CHECKOUT_MESSAGES.city, CHECKOUT_MESSAGES.country, CHECKOUT_MESSAGES.paymentmethod, CHECKOUT_MESSAGES.senderinfo, CHECKOUT_MESSAGES.senderfile])
      await form.getByText(text, { exact: true }).first().waitFor();
    expect(await ordersOf()).toEqual([]);

    await form.getByRole('textbox', { name: 'Country' }).fill('Bangladesh');
    await form.getByRole('textbox', { name: 'City' }).fill('Dhaka');
    await form.getByRole('textbox', { name: 'District' }).fill('Gulshan');
    await form.getByRole('textbox', { name: 'Full address' }).fill('House 1, Road 2');
    await form.getByRole('radio', { name: methodName }).check();
    await form.getByText(INSTRUCTIONS).waitFor();
    await form.getByRole('textbox', { name: 'Sender info' }).fill('Sent from 01700000000, ref TX123');
    await form.locator('input[name="senderfile"]').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: makePng(40, 30) });
    await form.getByText('receipt.png').waitFor();

    await form.getByRole('button', { name: 'Place order' }).click();
    await page.getByText(CHECKOUT_MESSAGES.success, { exact: false }).waitFor();

    const placed = await ordersOf();
    expect(placed).toHaveLength(1);
    const [order] = placed;
    // The server's amounts: the product's price now, times two, whatever the page showed.
    expect(Number(order.totalamount)).toBeCloseTo(product.price * 2, 2);
    expect(order).toMatchObject({ paymentmethod: shop.paymentMethod, paidstatus: 'UNPAID', status: 'PENDING', city: 'Dhaka' });
    expect(String(order.senderfile)).toContain('/paymentproofs/');
    expect(await server.db.selectFrom('cartItems').selectAll().where('userId', '=', buyer.id).execute()).toEqual([]);

    // The proof is private: the buyer reads it, a guest is told it does not exist.
    const asBuyer = await fetch(new URL(String(order.senderfile), server.url), { headers: { cookie: buyer.cookie } });
    expect(asBuyer.status).toBe(200);
    expect((await fetch(new URL(String(order.senderfile), server.url))).status).toBe(404);

    // The buyer's orders list holds it.
    await page.getByRole('link', { name: 'Your orders' }).click();
    await expect.poll(() => page.locator('#react-admin-title').textContent()).toBe('Orders');
    await page.getByRole('row').filter({ hasText: String(order.orderId) }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
