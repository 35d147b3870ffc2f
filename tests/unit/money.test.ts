import { describe, expect, it } from 'vitest';
import { DEFAULT_CURRENCY, formatMoney, moneyToNumber } from '../../src/domain/money.ts';

const NBSP = '\u00a0';

describe('formatMoney (spec §9: en-US, USD by default)', () => {
  it('formats in USD unless told otherwise', () => {
    expect(DEFAULT_CURRENCY).toBe('USD');
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(-1234.567)).toBe('-$1,234.57');
    expect(formatMoney(1_000_000)).toBe('$1,000,000.00');
  });

  it('formats other currencies the en-US way, in any letter case', () => {
    expect(formatMoney(5, 'EUR')).toBe('€5.00');
    expect(formatMoney(5, 'gbp')).toBe('£5.00');
    expect(formatMoney(1500, 'JPY')).toBe('¥1,500');
    expect(formatMoney(5, 'BDT')).toBe(`BDT${NBSP}5.00`);
  });

  it('treats an empty or missing code as USD', () => {
    expect(formatMoney(5, '')).toBe('$5.00');
    expect(formatMoney(5, null)).toBe('$5.00');
    expect(formatMoney(5, undefined)).toBe('$5.00');
  });

  it('reads amounts given as text', () => {
    expect(formatMoney('1234.5')).toBe('$1,234.50');
    expect(formatMoney(' 1,234.5 ')).toBe('$1,234.50');
    expect(formatMoney('-3')).toBe('-$3.00');
  });

  it('gives an empty string for what is not an amount', () => {
    for (const amount of [null, undefined, '', '  ', 'abc', '$5', NaN, Infinity, -Infinity])
      expect(formatMoney(amount as number)).toBe('');
  });

  it('never throws on a code Intl refuses: USD formatting with the code shown', () => {
    expect(formatMoney(5, 'dollar')).toBe(`dollar${NBSP}5.00`);
    expect(formatMoney(1234.5, 'US')).toBe(`US${NBSP}1,234.50`);
    expect(formatMoney(-5, '$')).toBe(`-$${NBSP}5.00`);
    // Well-formed but unassigned codes are Intl's own business: it shows the code.
    expect(formatMoney(5, 'XYZ')).toBe(`XYZ${NBSP}5.00`);
  });

  it('answers the same thing again (cached formatters)', () => {
    expect(formatMoney(7, 'EUR')).toBe(formatMoney(7, 'eur'));
    expect(formatMoney(7, 'nope!')).toBe(formatMoney(7, 'nope!'));
  });
});

describe('moneyToNumber (spec §5: strips all non-digits)', () => {
  it('keeps the digits only', () => {
    expect(moneyToNumber('$1,234')).toBe(1234);
    expect(moneyToNumber('৳ 12 500')).toBe(12500);
    expect(moneyToNumber('USD 99')).toBe(99);
    expect(moneyToNumber(42)).toBe(42);
  });
  it('strips the decimal point and the minus sign too, as the spec says', () => {
    expect(moneyToNumber('1,234.56')).toBe(123456);
    expect(moneyToNumber('$0.50')).toBe(50);
    expect(moneyToNumber('-5')).toBe(5);
  });
  it('gives 0 when there are no digits', () => {
    expect(moneyToNumber('')).toBe(0);
    expect(moneyToNumber('$')).toBe(0);
    expect(moneyToNumber(null)).toBe(0);
    expect(moneyToNumber(undefined)).toBe(0);
  });
});
