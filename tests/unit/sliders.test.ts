import { describe, expect, it } from 'vitest';
import {
  SLIDER_DEFAULTS,
  SLIDER_FALLBACKS,
  SLIDER_LOAD_ERRORS,
  SLIDER_TYPES,
  fillSliderEntry,
  isSliderType,
  parseSliderQuery,
} from '../../src/domain/sliders.ts';

describe('slider constants (§8, §9)', () => {
  it('has the four types, their load errors and the defaults', () => {
    expect(SLIDER_TYPES).toEqual(['ADMINS', 'AGENTS', 'DEALERS', 'SELLERS']);
    expect(SLIDER_LOAD_ERRORS).toEqual({
      ADMINS: 'Failed to load admin data',
      AGENTS: 'Failed to load agent data',
      DEALERS: 'Failed to load dealer data',
      SELLERS: 'Failed to load seller data',
    });
    expect(SLIDER_DEFAULTS).toMatchObject({ page: 1, limit: 1000, timeoutMs: 10_000, cacheMs: 1_800_000, staleMs: 900_000 });
    expect(Object.isFrozen(SLIDER_FALLBACKS.AGENTS)).toBe(true);
    expect(isSliderType('AGENTS')).toBe(true);
    expect(isSliderType('agents')).toBe(false);
    expect(isSliderType(undefined)).toBe(false);
  });
});

describe('fillSliderEntry: §9 fallbacks by type', () => {
  it('fills every fallback of an empty record', () => {
    expect(fillSliderEntry('ADMINS', {})).toEqual({ name: 'Admin', country: 'Unknown', image: null });
    expect(fillSliderEntry('AGENTS', {})).toEqual({
      name: 'Agent',
      image: null,
      country: 'Bangladesh',
      city: 'Dhaka',
      district: 'Dhaka',
      agentId: null,
    });
    expect(fillSliderEntry('DEALERS', {})).toEqual({
      name: 'Dealer',
      city: 'City',
      country: 'Country',
      district: 'District',
      image: null,
      dealerId: null,
    });
    expect(fillSliderEntry('SELLERS', {})).toEqual({ name: 'Seller', shopname: 'Seller', country: 'Country', image: null });
  });

  it('treats null, blank and non-text values as missing, and survives any row', () => {
    expect(fillSliderEntry('ADMINS', { name: '   ', country: null, image: '' })).toEqual({ name: 'Admin', country: 'Unknown', image: null });
    expect(fillSliderEntry('DEALERS', { name: { evil: 1 }, city: ['x'], district: false })).toMatchObject({ name: 'Dealer', city: 'City', district: 'District' });
    for (const row of [null, undefined, 'text' as never, 5 as never]) expect(fillSliderEntry('AGENTS', row).name).toBe('Agent');
  });

  it('keeps given values, trimmed, and only the type\'s fields', () => {
    expect(
      fillSliderEntry('AGENTS', {
        name: ' Rahim ',
        image: '/assets/images/a.png',
        country: 'Nepal',
        city: 'Pokhara',
        district: 'Kaski',
        agentId: 'R.P.K.NPL',
        email: 'rahim@example.test',
        password: 'hash',
      }),
    ).toEqual({ name: 'Rahim', image: '/assets/images/a.png', country: 'Nepal', city: 'Pokhara', district: 'Kaski', agentId: 'R.P.K.NPL' });
    expect(fillSliderEntry('DEALERS', { name: 'D', dealerId: 42 })).toMatchObject({ dealerId: '42' });
  });

  it('shows a country code by name, and unknown text as it is', () => {
    expect(fillSliderEntry('ADMINS', { country: 'US' }).country).toBe('United States');
    expect(fillSliderEntry('AGENTS', { country: 'bd' }).country).toBe('Bangladesh');
    expect(fillSliderEntry('DEALERS', { country: 'GBR' }).country).toBe('United Kingdom');
    expect(fillSliderEntry('SELLERS', { country: 'UK' }).country).toBe('UK');
    expect(fillSliderEntry('SELLERS', { country: 'Atlantis' }).country).toBe('Atlantis');
  });

  it("shows a seller's shop name as its name and the user's image", () => {
    expect(fillSliderEntry('SELLERS', { shopname: 'Oak & Co', name: 'Karim', user: { image: '/u.png' } })).toEqual({
      name: 'Oak & Co',
      shopname: 'Oak & Co',
      country: 'Country',
      image: '/u.png',
    });
    expect(fillSliderEntry('SELLERS', { name: 'Karim', image: '/s.png', user: { image: '/u.png' } })).toMatchObject({ name: 'Karim', image: '/s.png' });
  });
});

describe('parseSliderQuery', () => {
  it('applies the defaults', () => {
    expect(parseSliderQuery({ type: 'SELLERS' })).toEqual({ ok: true, value: { type: 'SELLERS', page: 1, limit: 1000 } });
    expect(parseSliderQuery({ type: 'ADMINS', page: '', limit: '' })).toEqual({ ok: true, value: { type: 'ADMINS', page: 1, limit: 1000 } });
  });
  it('reads page and limit, lowering a limit above 1000', () => {
    expect(parseSliderQuery({ type: 'AGENTS', page: '3', limit: '20' })).toEqual({ ok: true, value: { type: 'AGENTS', page: 3, limit: 20 } });
    expect(parseSliderQuery({ type: 'AGENTS', page: 2, limit: 5000 })).toEqual({ ok: true, value: { type: 'AGENTS', page: 2, limit: 1000 } });
  });
  it('refuses a bad type, page or limit in the 400 shape', () => {
    expect(parseSliderQuery({ type: 'agents' })).toEqual({
      ok: false,
      message: 'Invalid slider query',
      errors: { type: ['type must be one of ADMINS, AGENTS, DEALERS, SELLERS'] },
    });
    expect(parseSliderQuery({})).toMatchObject({ ok: false, errors: { type: [expect.any(String)] } });
    expect(parseSliderQuery(null)).toMatchObject({ ok: false });
    for (const bad of ['0', '-1', '1.5', 'x', '99999999999999999999', ['1', '2'], 0, 1.5])
      expect(parseSliderQuery({ type: 'DEALERS', page: bad, limit: bad })).toEqual({
        ok: false,
        message: 'Invalid slider query',
        errors: { page: ['page must be a whole number of at least 1'], limit: ['limit must be a whole number of at least 1'] },
      });
    expect(parseSliderQuery({ type: 'DEALERS', page: '1000001' })).toMatchObject({ ok: false, errors: { page: ['page must be at most 1000000'] } });
  });
});
