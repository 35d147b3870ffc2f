/**
 * Small read-only displays of a record's field, by kind: used as list columns and in details dialogs.
 * Each takes the props react-admin's Datagrid reads from a column (source, label, sortable).
 */
import { Chip, Link, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { useRecordContext } from 'react-admin';
import { formatMoney } from '../../domain/money.ts';
import { Thumbnail } from '../shell/Thumbnail.tsx';

/** The props react-admin's Datagrid reads from a column (header label, sort). */
export interface ColumnProps {
  source: string;
  label?: string;
  sortable?: boolean;
  /** Shown when the value is absent. */
  emptyText?: string;
}

const isAbsent = (value: unknown) => value === undefined || value === null || value === '';

function Empty({ text }: { text?: string }) {
  return text ? (
    <Typography component="span" variant="body2">
      {text}
    </Typography>
  ) : null;
}

export function ImageField({ source, titleSource }: ColumnProps & { titleSource: string }) {
  const record = useRecordContext();
  return <Thumbnail src={record?.[source]} alt={String(record?.[titleSource] ?? '')} />;
}

/** true / false as a check or a cross, named for assistive technology ('Yes' / 'No'). */
export function BooleanField({ source, label, emptyText }: ColumnProps) {
  const record = useRecordContext();
  const value = record?.[source];
  if (isAbsent(value)) return <Empty text={emptyText} />;
  const on = value === true || value === 1 || value === '1' || value === 'true';
  const name = `${label ?? source}: ${on ? 'Yes' : 'No'}`;
  return on ? (
    <CheckIcon fontSize="small" color="success" titleAccess={name} />
  ) : (
    <CloseIcon fontSize="small" color="disabled" titleAccess={name} />
  );
}

/** An amount through the shared money formatter (spec §9: en-US, USD by default). */
export function MoneyField({ source, emptyText }: ColumnProps) {
  const record = useRecordContext();
  const text = formatMoney(record?.[source] as number | string | null | undefined);
  if (!text) return <Empty text={emptyText} />;
  return (
    <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {text}
    </Typography>
  );
}

/** Only web addresses and paths of this site become links: never `javascript:` or `data:`. */
export function safeHref(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const url = value.trim();
  return /^(https?:\/\/|\/(?!\/))/i.test(url) ? url : undefined;
}

/** An uploaded document (a PDF) as a link that opens it in a new tab. */
export function FileField({ source, emptyText }: ColumnProps) {
  const record = useRecordContext();
  const href = safeHref(record?.[source]);
  if (!href) return <Empty text={isAbsent(record?.[source]) ? emptyText : String(record?.[source])} />;
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" variant="body2" onClick={(e) => e.stopPropagation()}>
      Open file
    </Link>
  );
}

/** One of a select's options, as a chip. */
export function SelectField({ source, emptyText }: ColumnProps) {
  const record = useRecordContext();
  const value = record?.[source];
  if (isAbsent(value)) return <Empty text={emptyText} />;
  return <Chip size="small" label={String(value)} />;
}
