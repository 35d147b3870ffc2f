/**
 * Small read-only displays of a record's field, by kind: used as list columns and in details dialogs.
 * Each takes the props react-admin's Datagrid reads from a column (source, label, sortable). Values
 * read as words: an enumerated value as its choice's label on a chip ('Active', never `1`), a flag as
 * 'Yes'/'No' (or its choices), a size as '12.3 kB', a date in the user's locale, a resource by its label.
 */
import { Chip, Link, Typography } from '@mui/material';
import { darken, lighten, type Theme } from '@mui/material/styles';
import { useRecordContext } from 'react-admin';
import type { Choice } from '../../manifest/index.ts';
import { formatMoney } from '../../domain/money.ts';
import { Thumbnail } from '../shell/Thumbnail.tsx';
import { useRegistry } from '../registry/context.tsx';
import { choiceOf, FLAG_CHOICES, resourceLabel } from './choices.ts';
import { formatBytes, formatDateTime } from './formats.ts';

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

/**
 * An enumerated value (a select, a flag, a numeric status) as a chip with its choice's label; a value
 * no choice names is shown as it is (never hidden: it is what the record holds).
 */
export function ChoiceField({ source, emptyText, choices }: ColumnProps & { choices: readonly Choice[] }) {
  const record = useRecordContext();
  const value = record?.[source];
  if (isAbsent(value)) return <Empty text={emptyText} />;
  const choice = choiceOf(choices, value);
  const tone = choice?.tone && choice.tone !== 'default' ? choice.tone : undefined;
  return <Chip size="small" label={choice?.label ?? String(value)} color={tone} variant={tone ? 'filled' : 'outlined'} sx={tone ? toneColours(tone) : undefined} />;
}

/**
 * A filled chip's colours with text contrast of at least 4.5:1 (WCAG AA for its small text): MUI's own
 * warning (light) and error (dark) chips fall short, so the tone is darkened under white text in light
 * mode and lightened under dark text in dark mode.
 */
const toneColours = (tone: Exclude<Choice['tone'], 'default' | undefined>) => (theme: Theme) =>
  theme.palette.mode === 'light'
    ? { bgcolor: darken(theme.palette[tone].main, 0.3), color: '#fff' }
    : { bgcolor: lighten(theme.palette[tone].main, 0.3), color: 'rgba(0, 0, 0, 0.87)' };

/** true / false as a chip in words: the field's choices ('Active' / 'Inactive'), else 'Yes' / 'No'. */
export function BooleanField({ choices = FLAG_CHOICES, ...props }: ColumnProps & { choices?: readonly Choice[] }) {
  return <ChoiceField {...props} choices={choices} />;
}

/** A file size in the user's locale: '12.3 kB'. */
export function BytesField({ source, emptyText }: ColumnProps) {
  const record = useRecordContext();
  const text = formatBytes(record?.[source]);
  if (!text) return <Empty text={emptyText} />;
  return (
    <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {text}
    </Typography>
  );
}

/** An instant (ISO text) as a date and time in the user's locale, the instant itself kept for machines. */
export function DateTimeField({ source, emptyText }: ColumnProps) {
  const record = useRecordContext();
  const value = record?.[source];
  const text = formatDateTime(value);
  if (!text) return <Empty text={isAbsent(value) ? emptyText : String(value)} />;
  return (
    <Typography component="time" variant="body2" dateTime={String(value)} sx={{ whiteSpace: 'nowrap' }}>
      {text}
    </Typography>
  );
}

/** A value naming a resource (the recycle bin's and the audit log's `resource`), by the resource's label. */
export function ResourceNameField({ source, emptyText }: ColumnProps) {
  const record = useRecordContext();
  const registry = useRegistry();
  const value = record?.[source];
  if (isAbsent(value)) return <Empty text={emptyText} />;
  return (
    <Typography component="span" variant="body2">
      {resourceLabel(registry, value)}
    </Typography>
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

/** One of a select's options, as a chip with its choice's label when the field declares choices. */
export function SelectField({ choices = [], ...props }: ColumnProps & { choices?: readonly Choice[] }) {
  return <ChoiceField {...props} choices={choices} />;
}
