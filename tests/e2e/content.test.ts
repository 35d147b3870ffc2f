/**
 * Site content as an admin manages it, in Chromium against the built client and the real server:
 * a QR code drawn, uploaded and shown at 400x400; a banner image uploaded through the widget and shown
 * in the list; home sections reordered by dragging; the default currency switched from the list.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { makePng } from '../support/png.ts';
import { hasChromium, launch } from './support/browser.ts';
import { dialogOf, openList, signIn, toastOf } from './support/admin.ts';

describe.skipIf(!hasChromium)('site content in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let admin: string;
  const pageErrors: string[] = [];
  const dialog = () => dialogOf(page);
  const toast = () => toastOf(page);

  beforeAll(async () => {
    server = await startTestServer({ clientDir: inject('clientDir') });
    admin = await server.login('admin');
    browser = await launch();
    page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(page, server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('creates a QR code: drawn from the title, uploaded, and shown at 400x400 in its details', async () => {
    await openList(page, 'QR codes');
    await page.getByRole('button', { name: 'Create' }).first().click();
    await dialog().getByRole('heading', { name: 'Create QR code' }).waitFor();
    await dialog().getByRole('textbox', { name: /title/i }).fill('https://shop.example/spring');
    // The QR is drawn live as the title is typed.
    await dialog().locator('canvas').first().waitFor();
    await dialog().getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => toast().textContent()).toContain('QR code created successfully.');
    await dialog().waitFor({ state: 'detached' });

    const stored = await server.db.selectFrom('qrCodes').selectAll().where('title', '=', 'https://shop.example/spring').executeTakeFirstOrThrow();
    expect(stored.qrcode).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/assets\/images\/pagefile\/[0-9a-f]{24}\.png$/);
    const served = await fetch(stored.qrcode as string);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toContain('image/png');

    const row = page.getByRole('row').filter({ hasText: 'https://shop.example/spring' });
    await row.getByRole('button', { name: 'Details' }).click();
    await dialog().getByText('Scan the qr code').waitFor();
    const image = dialog().getByRole('img', { name: /QR code/i });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(400);
    const box = await image.boundingBox();
    expect([Math.round(box!.width), Math.round(box!.height)]).toEqual([400, 400]);
    expect(await image.getAttribute('src')).toBe(stored.qrcode);
    await dialog().getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });
  });

  it('uploads a banner image through the widget and shows it in the banner list', async () => {
    await openList(page, 'Banners');
    await page.getByRole('button', { name: 'Create' }).first().click();
    await dialog().getByRole('heading', { name: 'Create banner' }).waitFor();
    await dialog().getByText('Image size 2500x700, one file').waitFor();
    await dialog().getByRole('textbox', { name: /^name/i }).fill('Spring sale');
    await dialog().locator('input[type="file"]').setInputFiles({ name: 'spring.png', mimeType: 'image/png', buffer: makePng(250, 70) });
    // The preview appears once the upload answered with the stored URL.
    const preview = dialog().getByRole('img').first();
    await expect.poll(() => preview.getAttribute('src')).toMatch(/\/assets\/images\/banners\/[0-9a-f]{24}\.png$/);
    await dialog().getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => toast().textContent()).toContain('Banner created successfully.');
    await dialog().waitFor({ state: 'detached' });

    const banner = await server.db.selectFrom('banners').selectAll().where('name', '=', 'Spring sale').executeTakeFirstOrThrow();
    // Spec §9: the default link is the product host root.
    expect(banner.href).toBe(`${server.url}/`);
    const row = page.getByRole('row').filter({ hasText: 'Spring sale' });
    const thumbnail = row.getByRole('img');
    await expect.poll(() => thumbnail.getAttribute('src')).toBe(banner.url);
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(250);
  });

  it('reorders home sections by dragging a row', async () => {
    for (const [i, name] of ['Hero', 'Deals', 'Brands'].entries()) {
      const res = await server.api('POST', '/api/home-sections', { cookie: admin, body: { name, type: 'products', order: i + 1, isActive: true } });
      expect(res.status).toBe(201);
    }
    await openList(page, 'Home sections', 'Name');
    const names = () =>
      page.getByRole('row').filter({ has: page.getByRole('cell') }).evaluateAll((rows) =>
        rows.map((r) => r.textContent ?? '').map((t) => ['Hero', 'Deals', 'Brands'].find((n) => t.includes(n))).filter(Boolean),
      );
    await expect.poll(names).toEqual(['Hero', 'Deals', 'Brands']);
    const from = page.getByRole('row').filter({ hasText: 'Brands' });
    const to = page.getByRole('row').filter({ hasText: 'Hero' });
    // Seen once in a full CI run (2 cores, load 4): a drag that moved nothing, the order unchanged 10 s on.
    // The list shows a drop at once, so after 5 s with nothing moved, drag again, as a person would.
    for (let tries = 0; tries < 3; tries++) {
      await from.dragTo(to);
      const moved = await expect.poll(names, { timeout: 5_000 }).not.toEqual(['Hero', 'Deals', 'Brands']).then(() => true, () => false);
      if (moved) break;
    }
    await expect.poll(names).toEqual(['Brands', 'Hero', 'Deals']);
    const stored = await server.db.selectFrom('homeSections').select(['name', 'order']).orderBy('order').execute();
    await expect
      .poll(async () => (await server.db.selectFrom('homeSections').select('name').orderBy('order').execute()).map((r) => r.name))
      .toEqual(['Brands', 'Hero', 'Deals']);
    expect(stored).toHaveLength(3);
    // The new order survives a reload: it came from the server.
    await page.reload();
    await expect.poll(names).toEqual(['Brands', 'Hero', 'Deals']);
  });

  it('switches the default currency and the currency list marks it', async () => {
    const ids: Record<string, string> = {};
    for (const [name, code, country] of [['US Dollar', 'USD', 'USA'], ['Euro', 'EUR', 'DEU']]) {
      const res = await server.api('POST', '/currencies', {
        cookie: admin,
        body: { name, symbal: code === 'USD' ? '$' : '€', code, rate: 1, country: { label: country, value: country } },
      });
      expect(res.status).toBe(201);
      ids[code] = res.body.id;
    }
    expect((await server.api('PUT', '/currencies/settings', { cookie: admin, body: { id: ids.USD } })).status).toBe(200);

    await openList(page, 'Currencies', 'Name');
    const rowOf = (name: string) => page.getByRole('row').filter({ hasText: name });
    await rowOf('US Dollar').getByText('Default', { exact: true }).waitFor();
    expect(await rowOf('Euro').getByText('Default', { exact: true }).count()).toBe(0);

    await rowOf('Euro').getByRole('button', { name: 'Make default' }).click();
    await rowOf('Euro').getByText('Default', { exact: true }).waitFor();
    await expect.poll(() => rowOf('US Dollar').getByText('Default', { exact: true }).count()).toBe(0);
    const setting = await server.api('GET', '/currencies/settings', { cookie: admin });
    expect(setting.body.id).toBe(ids.EUR);
    expect(pageErrors).toEqual([]);
  });
});
