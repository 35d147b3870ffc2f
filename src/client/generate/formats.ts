/**
 * How values read in the user's own locale: file sizes ('12.3 kB') and dates ('May 1, 2024, 2:05 PM'
 * in en-US, '1 mai 2024, 14:05' in fr-FR). Pure functions, so lists, details and tests share them.
 */

/** Decimal units, as operating systems show file sizes (1 kB = 1,000 bytes). */
const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** A size in bytes as people read it: '512 B', '12.3 kB', '4.5 MB'; undefined when it is not a size. */
export function formatBytes(value: unknown, locale?: string): string | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < 0) return undefined;
  let unit = 0;
  let size = n;
  while (size >= 1000 && unit < BYTE_UNITS.length - 1) {
    size /= 1000;
    unit++;
  }
  // 999.95 kB would round to '1,000 kB': one unit up reads better.
  if (unit < BYTE_UNITS.length - 1 && Number(size.toFixed(1)) >= 1000) {
    size /= 1000;
    unit++;
  }
  const digits = new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 });
  return `${digits.format(size)} ${BYTE_UNITS[unit]}`;
}

/** A stored instant (ISO text) as a date and time in the user's locale; undefined when it is not a date. */
export function formatDateTime(value: unknown, locale?: string): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const time = new Date(value);
  if (!Number.isFinite(time.getTime())) return undefined;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(time);
}

/** A calendar day (`YYYY-MM-DD`, a date input's value) in the user's time zone, as the instant it starts or ends. */
export function dayBoundary(day: string, end: 'start' | 'end'): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const time = new Date(`${day}T${end === 'start' ? '00:00:00.000' : '23:59:59.999'}`);
  return Number.isFinite(time.getTime()) ? time.toISOString() : undefined;
}

/** The calendar day (`YYYY-MM-DD`, in the user's time zone) an instant falls on: what a date input shows. */
export function dayOf(value: unknown): string {
  if (typeof value !== 'string' || !value) return '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const time = new Date(value);
  if (!Number.isFinite(time.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}`;
}
