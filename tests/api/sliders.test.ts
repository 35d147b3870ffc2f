/**
 * `GET /api/front/sliders` (spec §7, §9): public, `{ data: [...] }`, §9's defaults and fallbacks, only
 * what a slider shows; admins from the accounts, agents, dealers and sellers from their profiles
 * (resources/accounts.ts), a seller's image its account's. On every engine this machine has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLIDER_FALLBACKS } from '../../src/domain/sliders.ts';
import { newId } from '../../src/server/db/id.ts';
import { sliderSource } from '../../src/server/front/sliders.ts';
import { registry } from '../../resources/index.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';

describe.each(engines)('sliders API (%s)', (engine) => {
  let server: TestServer;
  const stamp = () => {
    const now = new Date().toISOString();
    return { createdAt: now, updatedAt: now, version: 1 };
  };
  /** An account (for a profile to belong to), with an image and a phone the answer must never carry. */
  async function account(role: string, name: string, image: string | null = '/assets/images/profilepics/p.png') {
    const id = newId();
    await server.db.insertInto('users').values({ id, name, email: `${id}@secret.test`, role, image, whatsapp: '+8801700000000', ...stamp() }).execute();
    return id;
  }
  async function profile(table: string, values: Record<string, unknown>) {
    await server.db.insertInto(table).values({ id: newId(), ...values, ...stamp() }).execute();
  }
  /** Every entry of a type, paged through as a storefront would. */
  const get = (query: Record<string, string>) => server.api('GET', '/api/front/sliders', { query });

  beforeAll(async () => {
    server = await startTestServer({ engine });
    // Written before any read: the answers are kept until a write through the API marks the tables.
    await account('admin', '  '); // an admin with a blank name: shown as 'Admin'
    const rahim = await account('agent', 'Rahim');
    await profile('agents', { name: 'Rahim', email: 'rahim@secret.test', phone: '01711111111', city: 'Pokhara', district: 'Kaski', country: 'NP', agentId: 'R.P.K.NPL', image: '/a.png', userId: rahim, commission: 5 });
    await profile('agents', { name: '', email: 'blank@secret.test', phone: '01722222222', userId: await account('agent', 'Blank') });
    await profile('dealers', { name: 'Dina', city: 'Khulna', district: 'Khulna', country: 'BD', dealerId: 'D.K.K.BGD', image: '/d.png', userId: await account('dealer', 'Dina') });
    await profile('dealers', { name: null, userId: await account('dealer', 'Nameless') });
    await profile('sellers', { shopname: 'Oak & Co', country: 'GB', image: '/shop-logo.png', phone: '01733333333', userId: await account('seller', 'Karim', '/karim.png') });
    await profile('sellers', { shopname: ' ', phone: '01744444444', userId: await account('seller', 'Nobody', null) });
  });
  afterAll(() => server?.close());

  it('reads agents, dealers and sellers from their profiles', () => {
    expect(sliderSource(registry, 'AGENTS').table).toBe('agents');
    expect(sliderSource(registry, 'DEALERS').table).toBe('dealers');
    expect(sliderSource(registry, 'SELLERS')).toMatchObject({ table: 'sellers', userImage: 'userId' });
    expect(sliderSource(registry, 'ADMINS')).toMatchObject({ table: 'users', role: 'admin' });
  });

  it('answers anyone, without a session, { data: [...] } of what a slider shows, never an email or a phone', async () => {
    for (const type of ['ADMINS', 'AGENTS', 'DEALERS', 'SELLERS']) {
      const res = await get({ type });
      expect(res.status, type).toBe(200);
      expect(Array.isArray(res.body.data)).toBe(true);
      expect(res.body.data.length).toBeGreaterThan(0);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const text = JSON.stringify(res.body);
      expect(text).not.toMatch(/@|secret|0171|0172|0173|0174|\+880|password|hash|commission|userId/i);
    }
  });

  it('fills admins from the accounts, with the fallbacks and country names', async () => {
    const { data } = (await get({ type: 'ADMINS' })).body;
    expect(data).toContainEqual({ name: 'Demo Admin', country: 'Bangladesh', image: '/avatar.png' });
    expect(data).toContainEqual({ name: SLIDER_FALLBACKS.ADMINS.name, country: SLIDER_FALLBACKS.ADMINS.country, image: '/assets/images/profilepics/p.png' });
    for (const entry of data) expect(Object.keys(entry).sort()).toEqual(['country', 'image', 'name']);
  });

  it('fills agents and dealers, each missing value from §9', async () => {
    const agents = (await get({ type: 'AGENTS' })).body.data;
    expect(agents).toContainEqual({ name: 'Rahim', image: '/a.png', country: 'Nepal', city: 'Pokhara', district: 'Kaski', agentId: 'R.P.K.NPL' });
    expect(agents).toContainEqual({ name: 'Agent', image: null, country: 'Bangladesh', city: 'Dhaka', district: 'Dhaka', agentId: null });
    const dealers = (await get({ type: 'DEALERS' })).body.data;
    expect(dealers).toContainEqual({ name: 'Dina', city: 'Khulna', country: 'Bangladesh', district: 'Khulna', image: '/d.png', dealerId: 'D.K.K.BGD' });
    expect(dealers).toContainEqual({ name: 'Dealer', city: 'City', country: 'Country', district: 'District', image: null, dealerId: null });
  });

  it("shows a seller by its shop's name with its account's image", async () => {
    const sellers = (await get({ type: 'SELLERS' })).body.data;
    expect(sellers).toContainEqual({ name: 'Oak & Co', shopname: 'Oak & Co', country: 'United Kingdom', image: '/karim.png' });
    expect(sellers).toContainEqual({ name: 'Seller', shopname: 'Seller', country: 'Country', image: null });
  });

  it('pages with page and limit, defaults page 1 and limit 1000, a larger limit lowered', async () => {
    const all = (await get({ type: 'AGENTS' })).body.data;
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect((await get({ type: 'AGENTS', page: '1', limit: '1000' })).body.data).toEqual(all);
    expect((await get({ type: 'AGENTS', limit: '5000' })).body.data).toEqual(all);
    const pages = [];
    for (let page = 1; page <= all.length + 1; page++) pages.push(...(await get({ type: 'AGENTS', page: String(page), limit: '1' })).body.data);
    expect(pages).toEqual(all);
    expect((await get({ type: 'AGENTS', page: '2', limit: String(all.length) })).body.data).toEqual([]);
  });

  it('refuses a bad type, page or limit with 400, never a 5xx', async () => {
    const bad = [{}, { type: 'agents' }, { type: 'USERS' }, { type: 'AGENTS', page: '0' }, { type: 'AGENTS', page: '1000001' }, { type: 'AGENTS', limit: 'abc' }, { type: 'AGENTS', limit: '-1' }, { type: 'AGENTS', page: '1.5' }];
    for (const query of bad) {
      const res = await get(query as Record<string, string>);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.message).toBe('Invalid slider query');
    }
    expect((await get({ type: 'X' })).body.errors.type).toEqual(['type must be one of ADMINS, AGENTS, DEALERS, SELLERS']);
    const twice = await fetch(`${server.url}/api/front/sliders?type=AGENTS&type=DEALERS`);
    expect(twice.status).toBe(400);
    await twice.arrayBuffer();
  });
});
