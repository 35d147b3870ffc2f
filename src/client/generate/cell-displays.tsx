/**
 * A list's text, number and money cells, drawn light (issue 51.10). react-admin's TextField and
 * NumberField, and MUI's Typography under them and under MoneyField, are five to seven components a
 * value, each styled and drawn with its styles at every new page; a page of a table shows a hundred
 * and more such values. Here each is one component around a `<span>` wearing Typography's classes, with
 * Typography's body2 looks given once for all (`CellTextStyles`, drawn once by the list screen), so a
 * value looks as it did in a table's cell and in a phone's card. The same values in a details dialog
 * are still react-admin's and MUI's fields (columns.tsx `fieldDisplay`).
 */
import { GlobalStyles, type Theme } from '@mui/material';
import { useFieldValue } from 'react-admin';
import { formatMoney } from '../../domain/money.ts';
import type { ColumnProps } from './displays.tsx';

/** The classes of Typography's body2 (`light-body2` gives its looks: `CellTextStyles`). */
const BODY2 = 'MuiTypography-root MuiTypography-body2 light-body2';

const classOf = (className?: string) => (className ? `${BODY2} ${className}` : BODY2);

/** The classes of a light cell's text (with `className`'s): Typography's body2, its looks given by `CellTextStyles`. */
export const lightTextClass: (className?: string) => string = classOf;

/** Text as react-admin's TextField shows it: the value (as text), else `emptyText`. */
export function TextCell({ source, emptyText, className }: ColumnProps & { className?: string }) {
  const value: unknown = useFieldValue({ source });
  return <span className={classOf(className)}>{value != null && typeof value !== 'string' ? String(value) : value || emptyText || null}</span>;
}

/** A number as react-admin's NumberField shows it: in the user's locale, a numeric text as its number; nothing when absent. */
export function NumberCell({ source, emptyText }: ColumnProps) {
  let value: unknown = useFieldValue({ source });
  if (value == null) return emptyText ? <span className={BODY2}>{emptyText}</span> : null;
  if (value && typeof value === 'string' && !isNaN(value as unknown as number)) value = +value;
  return <span className={BODY2}>{typeof value === 'number' ? value.toLocaleString() : String(value)}</span>;
}
// Read by react-admin's Datagrid (as NumberField's): its cells and header align right.
NumberCell.textAlign = 'right' as const;

/** An amount as MoneyField shows it (displays.tsx). */
export function MoneyCell({ source, emptyText }: ColumnProps) {
  const text = formatMoney(useFieldValue({ source }) as number | string | null | undefined);
  if (!text) return emptyText ? <span className={BODY2}>{emptyText}</span> : null;
  return (
    <span className={BODY2} style={NOWRAP}>
      {text}
    </span>
  );
}

const NOWRAP = { whiteSpace: 'nowrap' } as const;

/** A light link's class (page-references.tsx): MUI's Link's looks (`CellTextStyles`). */
export const LIGHT_LINK = 'light-link';

/**
 * Typography's body2 looks (its `margin: 0` and the theme's body2), at the weight of its one class; and
 * a light reference's (page-references.tsx), as react-admin's ReferenceField gives its root and link.
 */
const styles = (theme: Theme) => ({
  '.light-body2': { margin: 0, ...theme.typography.body2 },
  '.light-reference': { lineHeight: 'initial' },
  '.light-reference .RaReferenceField-link > *': { color: (theme.vars ?? theme).palette.primary.main },
  // MUI's Link (underline 'always', color 'primary') in a Typography of variant 'inherit'.
  [`.${LIGHT_LINK}`]: {
    margin: 0,
    font: 'inherit',
    lineHeight: 'inherit',
    letterSpacing: 'inherit',
    color: (theme.vars ?? theme).palette.primary.main,
    textDecoration: 'underline',
    textDecorationColor: (theme as Theme & { alpha: (c: string, v: number) => string }).alpha((theme.vars ?? theme).palette.primary.main, 0.4),
  },
  [`.${LIGHT_LINK}:hover`]: { textDecorationColor: 'inherit' },
});

/** Drawn once where light cells are shown (the list screen): their looks. */
export const CellTextStyles = <GlobalStyles styles={styles} />;
