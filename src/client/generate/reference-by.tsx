/**
 * A reference that holds another unique field of its target than the id (`referenceBy`: a country's
 * `code`), shown as the target's title. react-admin's ReferenceField matches ids only, so this asks
 * the target's list for `filter={ [by]: [values] }`: in a list, every cell asks for all the values
 * on the page with the same query, which react-query sends once.
 */
import { useContext, useMemo, type MouseEvent } from 'react';
import { Typography } from '@mui/material';
import { Link, ListContext, useGetList, usePermissions, useRecordContext } from 'react-admin';
import { useRegistry } from '../registry/context.tsx';
import type { ColumnProps } from './displays.tsx';
import { recordAddress } from './record-address.ts';

interface ReferenceByProps extends ColumnProps {
  /** The target resource. */
  reference: string;
  /** The target's field the value holds. */
  by: string;
  /** The target's field shown. */
  titleSource: string;
}

const present = (v: unknown): v is string | number => (typeof v === 'string' && v !== '') || typeof v === 'number';

export function ReferenceByField({ source, reference, by, titleSource, emptyText }: ReferenceByProps) {
  const record = useRecordContext();
  const list = useContext(ListContext);
  const { permissions } = usePermissions();
  const registry = useRegistry();
  const value = record?.[source];
  const pageData = list?.data;
  const values = useMemo(() => {
    const all = (pageData ?? [record]).map((r) => r?.[source]).filter(present).map(String);
    if (present(value) && !all.includes(String(value))) all.push(String(value));
    return [...new Set(all)].sort();
  }, [pageData, record, source, value]);
  const { data, isPending } = useGetList(
    reference,
    { filter: { [by]: values }, pagination: { page: 1, perPage: Math.max(values.length, 1) }, sort: { field: 'id', order: 'ASC' } },
    { enabled: values.length > 0 },
  );
  if (!present(value)) return emptyText ? <Typography component="span" variant="body2">{emptyText}</Typography> : null;
  const target = data?.find((r) => String(r[by]) === String(value));
  // Until the target answers (or when none matches) the stored value itself is the best name there is.
  const shown = target && present(target[titleSource]) ? String(target[titleSource]) : isPending ? '' : String(value);
  // Linked to the target, as every reference is (reference-link.tsx), once the target is known.
  const to = recordAddress(registry, registry.resource(reference), target, permissions);
  if (to)
    return (
      <Link to={to} variant="body2" onClick={(e: MouseEvent) => e.stopPropagation()}>
        {shown}
      </Link>
    );
  return (
    <Typography component="span" variant="body2">
      {shown}
    </Typography>
  );
}
