/**
 * A parent picker for `reference` fields: searches the referenced resource on the server (its list
 * read, `filter={"q":…}`), shows the parent's title and stores the field it is referenced by: its id,
 * or its `referenceBy` (a country's `code3`). With `wire: 'option'` the value is `{ label, value }`
 * (label: the parent's title, value: that field), as the dialog sends it (spec §5 currency add).
 * A dependent reference (`dependsOn`) offers only the records under the value its parent field holds
 * in the form, asked for through the list's filter, and says to choose the parent first while it is
 * empty (FormDialog empties it when the parent changes: src/manifest/dependent.ts).
 */
import { useEffect, useState } from 'react';
import { Autocomplete, CircularProgress, TextField } from '@mui/material';
import { ariaDescribedByIds, helpId, type WidgetProps } from '@rjsf/utils';
import { useGetList, useGetMany, type RaRecord } from 'react-admin';
import { useRegistry } from '../registry/context.tsx';
import type { ReferenceWidgetOptions } from '../dialogs/ui-schema.ts';
import { isSortable, referenceKey } from '../../manifest/index.ts';
import type { FormContext } from './QrWidget.tsx';

const PAGE = 50;
const TYPING_PAUSE_MS = 300;

/** A `{ label, value }` option as the form holds it. */
export interface ReferenceOption {
  label: string;
  value: string;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** The referenced key a value holds: the value itself, or an option's `value`. */
function keyOfValue(value: unknown, asOption: boolean): string | undefined {
  const raw = asOption ? (value && typeof value === 'object' ? (value as Partial<ReferenceOption>).value : undefined) : value;
  return isEmpty(raw) ? undefined : String(raw);
}

export function ReferenceWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, label, required, disabled, readonly, autofocus, rawErrors = [] } = props;
  const options = props.options as unknown as ReferenceWidgetOptions & { emptyValue?: unknown };
  // The manifests' registry (RJSF's own `props.registry` is its widgets and templates).
  const target = useRegistry().resource(options.reference);
  const title = target.title;
  const by = options.referenceBy ?? 'id';
  const asOption = options.wire === 'option';
  const keyOf = (r: RaRecord) => String(r[by] ?? '');
  const dependsOn = options.dependsOn;
  // The parent's value in this form: what the choices are narrowed to (undefined: none chosen yet).
  const formData = (props.registry.formContext as FormContext | undefined)?.formData ?? {};
  const parentKey = dependsOn ? referenceKey(formData[dependsOn.field]) : undefined;
  const waiting = !!dependsOn && parentKey === undefined;
  const underParent = (r: RaRecord) => !dependsOn || referenceKey(r[dependsOn.via]) === parentKey;
  const titleOf = (r: RaRecord) => String(r[title] ?? r[by] ?? r.id);

  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setQ(typed.trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(t);
  }, [typed]);

  // By its title where the server sorts by it; else in the target's own order (an order's id is not sorted by).
  const titleField = target.fields.find((f) => f.name === title);
  const sort = titleField && isSortable(titleField) ? { field: title, order: 'ASC' as const } : target.sort;
  const filter = { ...(q ? { q } : {}), ...(dependsOn && parentKey !== undefined ? { [dependsOn.via]: parentKey } : {}) };
  const list = useGetList(
    target.name,
    { filter, pagination: { page: 1, perPage: PAGE }, sort },
    { placeholderData: (previous) => previous, enabled: !waiting },
  );
  const selectedKey = keyOfValue(value, asOption);
  const heldLabel = asOption && value && typeof value === 'object' ? String((value as Partial<ReferenceOption>).label ?? '') : '';
  const inList = list.data?.find((r) => keyOf(r) === selectedKey);
  // A value that is not on the first page is asked for by itself: by id, or filtered by `referenceBy`.
  // An option that carries its label needs no asking.
  const lookUp = !!selectedKey && !inList && !heldLabel;
  const byId = useGetMany(target.name, { ids: selectedKey && by === 'id' ? [selectedKey] : [] }, { enabled: lookUp && by === 'id' });
  const byKey = useGetList(
    target.name,
    { filter: selectedKey ? { [by]: selectedKey } : {}, pagination: { page: 1, perPage: 1 }, sort },
    { enabled: lookUp && by !== 'id' },
  );
  const looked = by === 'id' ? byId : byKey;
  const found = inList ?? looked.data?.find((r) => keyOf(r) === selectedKey);
  const pending = lookUp && looked.isPending;
  const selected: RaRecord | null = selectedKey
    ? (found ?? (pending ? null : { id: `${by}:${selectedKey}`, [by]: selectedKey, [title]: heldLabel || selectedKey }))
    : null;
  // The previous parent's records, kept on screen while the new ones load, are not offered.
  const choices = waiting ? [] : (list.data ?? []).filter(underParent);
  const optionsWithSelected = selected && !choices.some((r) => keyOf(r) === keyOf(selected)) ? [selected, ...choices] : choices;

  // An option given by its value alone (a prefill) takes its label once the record is known.
  useEffect(() => {
    if (asOption && selectedKey && !heldLabel && found) onChange({ label: titleOf(found), value: selectedKey } satisfies ReferenceOption);
  }, [asOption, selectedKey, heldLabel, found]); // eslint-disable-line react-hooks/exhaustive-deps

  const pick = (r: RaRecord | null) => {
    if (!r) return onChange(asOption ? undefined : (options.emptyValue ?? ''));
    onChange(asOption ? ({ label: titleOf(r), value: keyOf(r) } satisfies ReferenceOption) : keyOf(r));
  };

  return (
    <Autocomplete<RaRecord>
      id={id}
      options={optionsWithSelected}
      value={selected}
      loading={!waiting && list.isPending}
      noOptionsText={waiting ? dependsOn.first : undefined}
      disabled={disabled || readonly}
      filterOptions={(x) => x}
      getOptionLabel={titleOf}
      getOptionKey={keyOf}
      isOptionEqualToValue={(a, b) => keyOf(a) === keyOf(b)}
      onChange={(_, r) => pick(r)}
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
          // Under the empty picker, what to do first; its id is one `aria-describedby` already names.
          helperText={waiting && !rawErrors.length ? dependsOn.first : undefined}
          slotProps={{
            ...params.slotProps,
            formHelperText: { id: helpId(id) },
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
