/**
 * Support, end to end (issue 53 points 3 and 4), in Chromium against the built client and the real
 * server with its socket: a buyer asks about a product from the "Ask support" dialog and lands on the
 * request's thread (`redirectUrl`); the support agent finds it in the queue with its SLA clock, opens
 * it, and the buyer sees the agent typing and then the reply, live, without reloading; the buyer's
 * answer reopens it. The support widget shows the team's count, lists the representatives with
 * 'Available 24/7', and starts a chat with one, whose messages reach the representative's open page live.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { WIDGET_TEXTS } from '../../src/features/support/contract.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { account, makeBranch } from '../api/fixtures/catalogue.ts';
import { approvedProduct } from '../api/fixtures/shop.ts';
import { hasChromium, launch } from './support/browser.ts';
import { signIn } from './support/admin.ts';

describe.skipIf(!hasChromium)('support in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let admin: string;
  let buyer: { id: string; cookie: string; email: string };
  let agent: { id: string; cookie: string; email: string };
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
    admin = await server.login('admin');
    const branch = await makeBranch(server, admin, 'Helpdesk');
    const seller = await account(server, 'seller');
    await approvedProduct({ server, admin, branch, paymentMethod: '' }, seller.cookie, 25, 5, 2, 'Helpdesk Kettle');
    buyer = await account(server, 'user');
    agent = await account(server, 'support');
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function pageAs(email: string): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    // React reports a crash it caught (the error page) on the console, not as a page error.
    page.on('console', (m) => m.type() === 'error' && pageErrors.push(`console: ${m.text().slice(0, 600)}`));
    await signIn(page, server.url, email, 'secret12');
    return page;
  }
  const go = (page: Page, hash: string) => page.evaluate((h) => (location.hash = h), hash);
  const conversation = (page: Page) => page.getByRole('log', { name: 'Messages' });

  it('a buyer asks, the agent answers from the queue, each sees the other live', async () => {
    const asker = await pageAs(buyer.email);
    // A buyer asks from the shop, about the product in view (it cannot read the admin's product list).
    await go(asker, `#/search?${new URLSearchParams({ q: 'Helpdesk Kettle', type: 'name' })}`);
    await asker.getByRole('button', { name: 'Ask support about Helpdesk Kettle' }).click();
    const dialog = asker.getByRole('dialog', { name: 'Ask support about Helpdesk Kettle' });
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.getByText('Message is required.').waitFor();
    await dialog.getByRole('textbox', { name: 'Message' }).fill('Does the kettle come with a spare lid?');
    await dialog.getByRole('button', { name: 'Send' }).click();
    // The answer's redirectUrl: the request's own thread.
    await expect.poll(() => asker.evaluate(() => location.hash)).toMatch(/^#\/support\/requests\/[0-9a-f]{24}$/);
    const id = (await asker.evaluate(() => location.hash)).split('/').pop()!;
    await asker.getByRole('heading', { name: 'Does the kettle come with a spare lid?' }).waitFor();
    await asker.getByText('No messages yet. Write the first one below.').waitFor();

    const staff = await pageAs(agent.email);
    await staff.getByRole('menuitem', { name: 'Support queue' }).click();
    const item = staff.getByRole('link', { name: /Does the kettle come with a spare lid\?/ });
    await expect.poll(() => item.textContent()).toMatch(/first reply: due in/);
    await item.click();
    await staff.getByRole('button', { name: 'Claim' }).click();
    await staff.getByRole('button', { name: 'Claim' }).waitFor({ state: 'detached' });

    // Typing shows on the other side, then the reply arrives without a reload.
    const box = staff.getByRole('textbox', { name: 'Your message' });
    await box.fill('Yes: one spare lid is in the box.');
    await asker.getByText(/is typing…$/).waitFor();
    await box.press('Enter');
    await conversation(asker).getByText('Yes: one spare lid is in the box.').waitFor();

    // Too long a message: the server's own text, nothing sent.
    const mine = asker.getByRole('textbox', { name: 'Your message' });
    await mine.fill('x'.repeat(256));
    await mine.press('Enter');
    await asker.getByText('Message must be less than, 255 characters.').waitFor();
    await mine.fill('Thank you!');
    await mine.press('Enter');
    await conversation(staff).getByText('Thank you!').waitFor();
    const stored = await server.db.selectFrom('supportRequests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    // The agent's reply answered it (PENDING); the asker's message reopened it.
    expect(stored).toMatchObject({ status: 'OPEN', assigneeId: agent.id, reply: 'Thank you!' });
    expect(await server.db.selectFrom('supportReplies').select('content').where('request', '=', id).execute()).toHaveLength(2);
    expect(pageErrors).toEqual([]);
  });

  it('the widget shows the team, and a chat with a representative reaches them live', async () => {
    const member = await server.api('POST', '/support-team', { cookie: admin, body: { name: 'Rina Help', role: 'Orders', userId: agent.id } });
    expect(member.status).toBe(201);
    const team = await server.api('GET', '/support-team', { cookie: admin, query: { range: [0, 999] } });

    const asker = await pageAs(buyer.email);
    // Named by its words; its badge shows the team's count.
    const widget = asker.getByRole('button', { name: new RegExp(`^${WIDGET_TEXTS.button}`) });
    await expect.poll(() => widget.locator('.MuiBadge-badge').textContent()).toBe(String(team.body.length));
    await widget.click();
    const panel = asker.getByRole('dialog', { name: WIDGET_TEXTS.button });
    await panel.getByText(WIDGET_TEXTS.available).waitFor();
    await panel.getByRole('button', { name: /Rina Help/ }).click();
    await expect.poll(() => asker.evaluate(() => location.hash)).toBe(`#/support-team/${member.body.id}`);
    await asker.getByRole('button', { name: 'Start a chat' }).click();
    await expect.poll(() => asker.evaluate(() => location.hash)).toMatch(new RegExp(`^#/support-team/${member.body.id}\\?chat=[0-9a-f]{24}$`));
    const hash = await asker.evaluate(() => location.hash);

    // The representative opens the same conversation; the buyer's message arrives there live.
    const rep = await pageAs(agent.email);
    await go(rep, hash);
    await rep.getByText('No messages yet. Write the first one below.').waitFor();
    await asker.getByRole('textbox', { name: 'Your message' }).fill('Where is my order?');
    await asker.getByRole('button', { name: 'Send' }).click();
    await conversation(rep).getByText('Where is my order?').waitFor();
    // The staff do not get the widget: they are the ones it reaches.
    expect(await rep.getByRole('button', { name: new RegExp(`^${WIDGET_TEXTS.button}`) }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
