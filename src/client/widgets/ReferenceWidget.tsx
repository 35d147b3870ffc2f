/**
 * A parent picker for `reference` fields: searches the referenced resource on the server (its list
 * read, `filter={"q":…}`), shows the parent's title and stores its id.
 */
import { useEffect, useState } from 'react';
import { Autocomplete, CircularProgress, TextField } from '@mui/material';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { useGetList, useGetMany, type RaRecord } from 'react-admin';
import { registry } from '../../../resources/index.ts';
import type { ReferenceWidgetOptions } from '../dialogs/ui-schema.ts';

const PAGE = 50;
const TYPING_PAUSE_MS = 300;

export function ReferenceWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, label, required, disabled, readonly, autofocus, rawErrors = [] } = props;
  const options = props.options as unknown as ReferenceWidgetOptions & { emptyValue?: unknown };
  const target = registry.resource(options.reference);
  const title = target.title;

  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setQ(typed.trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(t);
  }, [typed]);

  const list = useGetList(
    target.name,
    { filter: q ? { q } : {}, pagination: { page: 1, perPage: PAGE }, sort: { field: title, order: 'ASC' } },
    { placeholderData: (previous) => previous },
  );
  const selectedId = value === undefined || value === null || value === '' ? undefined : String(value);
  const inList = list.data?.find((r) => String(r.id) === selectedId);
  // A record opened for update names a parent that may not be on the first page: ask for it by id.
  const picked = useGetMany(target.name, { ids: selectedId ? [selectedId] : [] }, { enabled: !!selectedId && !inList });
  const known = inList ?? picked.data?.find((r) => String(r.id) === selectedId);
  const selected: RaRecord | null =
    known ?? (selectedId && !picked.isPending ? { id: selectedId, [title]: selectedId } : null);
  const choices = list.data ?? [];
  const optionsWithSelected = selected && !choices.some((r) => r.id === selected.id) ? [selected, ...choices] : choices;

  return (
    <Autocomplete<RaRecord>
      id={id}
      options={optionsWithSelected}
      value={selected}
      loading={list.isPending}
      disabled={disabled || readonly}
      filterOptions={(x) => x}
      getOptionLabel={(r) => String(r[title] ?? r.id)}
      isOptionEqualToValue={(a, b) => String(a.id) === String(b.id)}
      onChange={(_, r) => onChange(r ? String(r.id) : (options.emptyValue ?? ''))}
      onInputChange={(_, text, reason) => setTyped(reason === 'input' ? text : '')}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required={required}
          error={rawErrors.length > 0}
          autoFocus={autofocus}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'aria-describedby': ariaDescribedByIds(id) },
            input: {
              ...params.slotProps.input,
              endAdornment: (
                <>
                  {list.isFetching ? <CircularProgress color="inherit" size={18} /> : null}
                  {params.slotProps.input.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
}
