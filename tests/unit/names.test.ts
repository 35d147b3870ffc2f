import { describe, expect, it } from 'vitest';
import { agentIdOf, firstFreeId } from '../../src/domain/names.ts';

describe('agentIdOf (§3 "generated from name, city, district, country" by §9\'s display-name helper)', () => {
  it('joins the initials of name, city and district and the alpha-3 country code with dots', () => {
    expect(agentIdOf({ name: 'Rahim Uddin', city: 'Dhaka', district: 'Mirpur', country: 'BD' })).toBe('R.D.M.BGD');
    expect(agentIdOf({ name: 'John Smith', city: 'Austin', district: 'Travis', country: 'US' })).toBe('J.A.T.USA');
    expect(agentIdOf({ name: 'amina', city: 'london', district: 'camden', country: 'gbr' })).toBe('A.L.C.GBR');
  });

  it("gives 'XX' for an unknown, empty or missing country", () => {
    expect(agentIdOf({ name: 'Rahim', city: 'Dhaka', district: 'Mirpur', country: 'ZZ' })).toBe('R.D.M.XX');
    expect(agentIdOf({ name: 'Rahim', city: 'Dhaka', district: 'Mirpur', country: '' })).toBe('R.D.M.XX');
    expect(agentIdOf({ name: 'Rahim', city: 'Dhaka', district: 'Mirpur' })).toBe('R.D.M.XX');
    expect(agentIdOf({ name: 'Rahim', city: 'Dhaka', district: 'Mirpur', country: 'Bangladesh' })).toBe('R.D.M.XX');
  });

  it('leaves blank parts out, and trims extra spaces', () => {
    expect(agentIdOf({ name: 'Rahim', city: '', district: 'Mirpur', country: 'BD' })).toBe('R.M.BGD');
    expect(agentIdOf({ name: '   Rahim  ', city: '  Dhaka', district: null, country: ' bd ' })).toBe('R.D.BGD');
    expect(agentIdOf({ name: '', city: '  ', district: undefined, country: 'US' })).toBe('USA');
    expect(agentIdOf({})).toBe('XX');
    expect(agentIdOf(undefined as never)).toBe('XX');
  });

  it('starts each name at its first letter or digit', () => {
    expect(agentIdOf({ name: '"Rahim"', city: '(Dhaka)', district: '- Mirpur', country: 'BD' })).toBe('R.D.M.BGD');
    expect(agentIdOf({ name: '🙂 Lena', city: '10th Avenue', district: '...', country: 'US' })).toBe('L.1.USA');
  });

  it('keeps letters of any script, composed and upper-cased where the script has case', () => {
    expect(agentIdOf({ name: 'রহিম', city: 'ঢাকা', district: 'মিরপুর', country: 'BD' })).toBe('র.ঢ.ম.BGD');
    expect(agentIdOf({ name: 'élodie', city: 'Ørsted', district: 'ñuñoa', country: 'CL' })).toBe('É.Ø.Ñ.CHL');
    // 'e' followed by a combining acute accent is one letter once composed
    expect(agentIdOf({ name: 'e\u0301mile', city: 'Lyon', district: 'Croix', country: 'FR' })).toBe('É.L.C.FRA');
    expect(agentIdOf({ name: 'Иван', city: 'москва', district: 'Арбат', country: 'RU' })).toBe('И.М.А.RUS');
    expect(agentIdOf({ name: '山田', city: '東京', district: '渋谷', country: 'JP' })).toBe('山.東.渋.JPN');
    expect(agentIdOf({ name: '𝒜lice', city: 'Bern', district: 'Mitte', country: 'CH' })).toBe('𝒜.B.M.CHE');
  });

  it('is pure: the same agent gives the same id', () => {
    const agent = Object.freeze({ name: 'Rahim Uddin', city: 'Dhaka', district: 'Mirpur', country: 'BD' });
    expect(agentIdOf(agent)).toBe(agentIdOf({ ...agent }));
  });
});

describe('firstFreeId', () => {
  it('keeps a free id and numbers a taken one', () => {
    expect(firstFreeId('R.D.M.BGD', [])).toBe('R.D.M.BGD');
    expect(firstFreeId('R.D.M.BGD', ['J.A.T.USA'])).toBe('R.D.M.BGD');
    expect(firstFreeId('R.D.M.BGD', ['R.D.M.BGD'])).toBe('R.D.M.BGD-2');
    expect(firstFreeId('R.D.M.BGD', new Set(['R.D.M.BGD', 'R.D.M.BGD-2', 'R.D.M.BGD-4']))).toBe('R.D.M.BGD-3');
  });
});
