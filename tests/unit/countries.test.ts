import { describe, expect, it } from 'vitest';
import { COUNTRIES, COUNTRY_NAMES, alpha3, countryName, displayName, findCountry } from '../../src/domain/countries.ts';

describe('COUNTRIES (spec §9: about 195 entries)', () => {
  it('holds the 193 UN members plus the two observer states', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(193);
    expect(COUNTRIES.length).toBeLessThanOrEqual(200);
    expect(COUNTRIES.length).toBe(195);
  });

  it('has well-formed, unique codes and unique names', () => {
    for (const c of COUNTRIES) {
      expect(c.code).toMatch(/^[A-Z]{2}$/);
      expect(c.code3).toMatch(/^[A-Z]{3}$/);
      expect(c.name.trim()).toBe(c.name);
      expect(c.name.length).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(COUNTRIES.length);
    expect(new Set(COUNTRIES.map((c) => c.code3)).size).toBe(COUNTRIES.length);
    expect(new Set(COUNTRIES.map((c) => c.name.toLowerCase())).size).toBe(COUNTRIES.length);
  });

  it('uses alpha-2 codes that ISO 3166 (as ICU knows it) assigns', () => {
    const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
    const unknown = COUNTRIES.filter((c) => regions.of(c.code) === c.code).map((c) => c.code);
    expect(unknown).toEqual([]);
  });

  it.each([
    ['DE', 'DEU', 'Germany'],
    ['JP', 'JPN', 'Japan'],
    ['BD', 'BGD', 'Bangladesh'],
    ['US', 'USA', 'United States'],
    ['GB', 'GBR', 'United Kingdom'],
    ['CN', 'CHN', 'China'],
    ['IN', 'IND', 'India'],
    ['BR', 'BRA', 'Brazil'],
    ['NG', 'NGA', 'Nigeria'],
    ['ZA', 'ZAF', 'South Africa'],
    ['VA', 'VAT', 'Vatican City'],
    ['PS', 'PSE', 'Palestine'],
  ])('%s / %s is %s', (code, code3, name) => {
    expect(COUNTRIES).toContainEqual({ code, code3, name });
  });

  it('is sorted by name and frozen', () => {
    const names = COUNTRIES.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(Object.isFrozen(COUNTRIES)).toBe(true);
    expect(Object.isFrozen(COUNTRIES[0])).toBe(true);
  });
});

describe('COUNTRY_NAMES (the agent country list reads the same map)', () => {
  it('maps every alpha-2 code to its name, and nothing else', () => {
    expect(Object.keys(COUNTRY_NAMES)).toHaveLength(COUNTRIES.length);
    for (const c of COUNTRIES) expect(COUNTRY_NAMES[c.code]).toBe(c.name);
    expect(COUNTRY_NAMES.US).toBe('United States');
    expect(COUNTRY_NAMES.USA).toBeUndefined();
  });
});

describe('countryName', () => {
  it('knows alpha-2 and alpha-3 codes in any letter case', () => {
    expect(countryName('US')).toBe('United States');
    expect(countryName('usa')).toBe('United States');
    expect(countryName(' bd ')).toBe('Bangladesh');
    expect(countryName('Bgd')).toBe('Bangladesh');
  });
  it('answers undefined for what it does not know', () => {
    for (const code of ['', 'XX', 'ZZZ', 'U', 'UNITED STATES', 'XK', 'TW', null, undefined])
      expect(countryName(code as string)).toBeUndefined();
  });
  it('finds the record and its alpha-3 code', () => {
    expect(findCountry('gb')).toEqual({ code: 'GB', code3: 'GBR', name: 'United Kingdom' });
    expect(alpha3('US')).toBe('USA');
    expect(alpha3('USA')).toBe('USA');
    expect(alpha3('nowhere')).toBeUndefined();
  });
});

describe('displayName (spec §9: initials joined by dots plus a country code, XX if unknown)', () => {
  it('joins the three initials and the alpha-3 country code with dots', () => {
    expect(displayName('John', 'Paul', 'Smith', 'US')).toBe('J.P.S.USA');
    expect(displayName('John', 'Paul', 'Smith', 'USA')).toBe('J.P.S.USA');
    expect(displayName('Rahim', 'Uddin', 'Khan', 'BD')).toBe('R.U.K.BGD');
  });
  it('upper-cases initials and codes, and trims', () => {
    expect(displayName('rahim', ' uddin', 'khan ', 'bgd')).toBe('R.U.K.BGD');
    expect(displayName('émile', 'zoë', 'ørsted', 'dk')).toBe('É.Z.Ø.DNK');
  });
  it("shows 'XX' for an unknown, empty or missing country", () => {
    expect(displayName('John', 'Paul', 'Smith', 'ZZ')).toBe('J.P.S.XX');
    expect(displayName('John', 'Paul', 'Smith', '')).toBe('J.P.S.XX');
    expect(displayName('John', 'Paul', 'Smith', undefined)).toBe('J.P.S.XX');
    expect(displayName('John', 'Paul', 'Smith', 'United States')).toBe('J.P.S.XX');
  });
  it('leaves out blank names instead of leaving an empty slot', () => {
    expect(displayName('John', '', 'Smith', 'US')).toBe('J.S.USA');
    expect(displayName('John', null, undefined, 'GB')).toBe('J.GBR');
    expect(displayName('', '  ', '', 'US')).toBe('USA');
    expect(displayName(undefined, undefined, undefined, undefined)).toBe('XX');
  });
});
