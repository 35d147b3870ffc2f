/**
 * Money display and parsing, shared by client and server.
 *
 * Spec §9 "Currency display is en-US with USD as default": `formatMoney` is the one formatter.
 * Spec §5 "A money-to-number helper strips all non-digits": `moneyToNumber`.
 */

export const DEFAULT_CURRENCY = 'USD';
const LOCALE = 'en-US';

const formatters = new Map<string, Intl.NumberFormat>();

/** The cached en-US currency formatter of a code; undefined when Intl refuses the code. */
function formatterOf(currency: string, display: 'symbol' | 'code' = 'symbol'): Intl.NumberFormat | undefined {
  const key = `${currency}/${display}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    try {
      formatter = new Intl.NumberFormat(LOCALE, { style: 'currency', currency, currencyDisplay: display });
    } catch {
      return undefined; // RangeError: not a well-formed currency code ('US', 'dollar', '$')
    }
    formatters.set(key, formatter);
  }
  return formatter;
}

/** A number from what an amount field may hold: a number, or text like '1234.5' or '1,234.50'. */
function toAmount(amount: number | string | null | undefined): number | undefined {
  if (typeof amount === 'number') return Number.isFinite(amount) ? amount : undefined;
  if (typeof amount !== 'string') return undefined;
  const text = amount.replace(/[,\s]/g, '');
  if (!text) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * An amount in en-US currency format: `formatMoney(1234.5)` → '$1,234.50', `formatMoney(5, 'EUR')` →
 * '€5.00', `formatMoney(5, 'BDT')` → 'BDT 5.00' (en-US has no symbol of its own for the taka; Intl
 * shows the code). The currency code may be in any letter case; empty or missing means USD.
 *
 * - An amount that is not a number (null, undefined, '', 'abc', NaN, ±Infinity) gives ''.
 * - Text amounts may carry thousands separators ('1,234.5'); nothing else is stripped.
 * - A code Intl refuses ('dollar', '$', 'US') never throws: the amount is formatted as USD would be
 *   with the code shown, and the given text in place of 'USD' ('dollar 5.00').
 */
export function formatMoney(amount: number | string | null | undefined, currency: string | null = DEFAULT_CURRENCY): string {
  const value = toAmount(amount);
  if (value === undefined) return '';
  const code = (currency ?? '').trim().toUpperCase() || DEFAULT_CURRENCY;
  const formatter = formatterOf(code);
  if (formatter) return formatter.format(value);
  // Intl puts a no-break space between a code and the digits: 'USD 5.00'.
  return formatterOf(DEFAULT_CURRENCY, 'code')!
    .formatToParts(value)
    .map((part) => (part.type === 'currency' ? (currency ?? '').trim() : part.value))
    .join('');
}

/**
 * Spec §5 "A money-to-number helper strips all non-digits": the number the digits of `text` spell,
 * ignoring everything else. Exactly as the spec says, the decimal point and a minus sign are stripped
 * too: '$1,234' → 1234, '1,234.56' → 123456, '-5' → 5. Text with no digits (or nothing) gives 0.
 * Meant for whole amounts typed with currency signs and separators, not for cents.
 */
export function moneyToNumber(text: string | number | null | undefined): number {
  const digits = String(text ?? '').replace(/\D/g, '');
  return digits ? Number(digits) : 0;
}
